// The client's move notation (table/notation.js) against the examples the Python side writes
// (tests/rules/test_notation.py → moves.json): the same text reads the same, the same form writes
// the same, the same malformed texts are refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { formatMove, MoveError, parseMove } from '../table/notation.js';

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
