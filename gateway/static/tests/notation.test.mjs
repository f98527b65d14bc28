// The client's move notation (table/notation.js) against the examples the Python side writes
// (tests/rules/test_notation.py → moves.json): the same text reads the same, the same form writes
// the same, the same malformed texts are refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { formatMove, fromMove, MoveError, parseMove, readMoves } from '../table/notation.js';

const EXAMPLES = JSON.parse(readFileSync(new URL('./moves.json', import.meta.url), 'utf8'));

test('every example reads as Python reads it and writes back the same text', () => {
  assert.ok(EXAMPLES.moves.length > 10);
  for (const { move, fields } of EXAMPLES.moves) {
    assert.deepEqual(parseMove(move), fields, move);
    assert.equal(formatMove(fields), move);
  }
});

test('every text Python refuses is refused, with MoveError', () => {
  for (const text of EXAMPLES.malformed) assert.throws(() => parseMove(text), MoveError, text);
  for (const text of [null, 7, ['7H']]) assert.throws(() => parseMove(text), MoveError);
});

test('a seat beside the move is not part of its text', () => {
  assert.equal(formatMove({ seat: 2, do: 'play', card: 'W+4', choose: 'G', announce: 'mau' }), 'W+4=G!');
});

test('a frame action is read from its move, not from the fields beside it', () => {
  const a = fromMove({ seat: 1, do: 'draw', move: 'JH=S!' });
  assert.deepEqual(a, { seat: 1, do: 'play', card: 'JH', choose: 'S', announce: 'mau', move: 'JH=S!' });
  assert.deepEqual(fromMove({ do: 'pass' }), { do: 'pass' }); // a server of the release before: its fields
  assert.deepEqual(fromMove({ do: 'pass', move: 'not a move' }), { do: 'pass', move: 'not a move' });
});

test('a frame has its legal actions and its events read, the rest as it was', () => {
  const frame = {
    type: 'events', seq: 4, view: { turn: 0, legal_actions: [{ move: 'draw' }, { move: 'burn:9C' }] },
    events: [{ type: 'ActionTaken', action: { seat: 0, move: 'double:7H,7H!!' } }, { type: 'PlayerJoined', seat: 2 }],
  };
  const read = readMoves(frame);
  assert.deepEqual(read.view.legal_actions, [{ do: 'draw', move: 'draw' }, { do: 'burn', card: '9C', move: 'burn:9C' }]);
  assert.deepEqual(read.events[0].action, { seat: 0, do: 'double', cards: ['7H', '7H'], announce: 'maumau', move: 'double:7H,7H!!' });
  assert.equal(read.events[1], frame.events[1]);
  assert.equal(read.view.turn, 0);
  assert.equal(frame.view.legal_actions[0].do, undefined); // the frame itself untouched
  const chat = { type: 'chat', lines: [] };
  assert.equal(readMoves(chat), chat); // a frame without moves is passed on as it is, not copied
});
