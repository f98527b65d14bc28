// Unit tests of replaysteps.js: the replay viewer's steps (folded like the table's frames) and its
// controls: stepping, the slider, play/pause, the speed.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  atEnd, back, buildSteps, delay, forward, initialPlayer, momentIndex, seek, setSpeed, SPEEDS, startIndex, STEP_MS, tick, togglePlay,
} from '../replaysteps.js';

const info = (extra = {}) => ({
  table_id: 't1', ruleset: 'classic32', options: {}, seats: 2, status: 'playing', my_seat: 0,
  players: [{ name: 'Ana', bot: false }, { name: 'Tito', bot: true }], ...extra,
});
const view = (extra = {}) => ({ turn: 0, round_over: false, rounds_played: 0, legal_actions: [], hand: ['7H'], top: '8H', ...extra });
const API_STEPS = [
  { seq: 1, events: [{ type: 'TableCreated', ruleset: 'classic32', seats: 2 }], view: null, table_info: info({ status: 'lobby', players: [{ name: 'Ana', bot: false }] }), words: ['table created'] },
  { seq: 2, events: [{ type: 'PlayerJoined', seat: 1, name: 'Tito', bot: true }], view: null, table_info: info({ status: 'lobby' }), words: ['Tito (bot) takes seat 1'] },
  { seq: 3, events: [{ type: 'MatchStarted', match_no: 1 }, { type: 'RoundDealt', dealer: 1, hand: ['7H', '9C'] }], view: view({ hand: ['7H', '9C'] }), table_info: info(), words: ['match 1 starts', 'round 1 dealt'] },
  { seq: 4, events: [{ type: 'ActionTaken', action: { seat: 0, do: 'play', card: '9C' }, draws: [], reshuffles: false }], view: view({ turn: 1, top: '9C' }), table_info: info(), words: ['Ana plays 9C'] },
  { seq: 5, events: [{ type: 'ActionTaken', action: { seat: 1, do: 'draw' }, draws: [{ seat: 1, count: 1 }], reshuffles: false }], view: view(), table_info: info(), words: ['Tito draws 1 card'] },
];

test('each step is the table state after it, with the log lines it added', () => {
  const steps = buildSteps('t1', API_STEPS);
  assert.equal(steps.length, 5);
  assert.deepEqual(steps.map((s) => s.seq), [1, 2, 3, 4, 5]);
  assert.equal(steps[0].st.view, null);
  assert.equal(steps[3].st.view.top, '9C');
  assert.equal(steps[3].st.info.my_seat, 0);
  assert.deepEqual(steps[2].lines.map((l) => l.segs[0].k), ['log.match_started', 'log.dealt']);
  assert.deepEqual(steps[3].lines.map((l) => l.segs[0].k), ['log.played_you']); // Ana is this viewer
  assert.equal(steps[4].lines[0].segs[0].v.name, 'Tito');
  assert.equal(steps[4].st.log.length, 1 + 1 + 2 + 1 + 1); // the log so far, as the table shows it
  assert.deepEqual(steps[4].words, ['Tito draws 1 card']);
  assert.deepEqual(API_STEPS[3].view.legal_actions, []); // the input is left as it was
});

test('the viewer opens at the first deal, or at the match asked', () => {
  assert.equal(startIndex(API_STEPS), 2);
  assert.equal(startIndex(API_STEPS, 1), 2);
  assert.equal(startIndex(API_STEPS, 7), 2); // a match the table never had: its first deal
  assert.equal(startIndex(API_STEPS.slice(0, 2)), 0);
  const two = [...API_STEPS, { seq: 6, events: [{ type: 'MatchStarted', match_no: 2 }], view: view() }];
  assert.equal(startIndex(two, 2), 5);
});

test('a dispute\'s moment is the last step stored at or before its sequence', () => {
  assert.equal(momentIndex(API_STEPS, 4), 3);
  assert.equal(momentIndex(API_STEPS, 99), 4);
  assert.equal(momentIndex([{ seq: 3 }, { seq: 7 }], 5), 0);
  assert.equal(momentIndex(API_STEPS, 0), -1); // no moment asked
});

test('stepping forward and back stays within the steps; back pauses', () => {
  let p = initialPlayer(5, 2);
  assert.deepEqual(p, { count: 5, index: 2, playing: false, speed: 1 });
  p = forward(forward(forward(p)));
  assert.equal(p.index, 4);
  assert.ok(atEnd(p));
  p = back(p);
  assert.equal(p.index, 3);
  p = back(back(back(back(p))));
  assert.equal(p.index, 0);
  p = togglePlay(p);
  assert.equal(back(forward(p)).playing, false);
  assert.equal(initialPlayer(5, 99).index, 4);
  assert.equal(initialPlayer(0).index, 0);
  assert.equal(forward(initialPlayer(0)).index, 0);
});

test('the slider seeks any step, clamped; playing stops at the last', () => {
  let p = initialPlayer(10);
  assert.equal(seek(p, '7').index, 7); // an input's value is text
  assert.equal(seek(p, -3).index, 0);
  assert.equal(seek(p, 42).index, 9);
  assert.equal(seek(p, 'x').index, 0);
  p = togglePlay(p);
  assert.equal(seek(p, 4).playing, true);
  assert.equal(seek(p, 9).playing, false);
});

test('play advances one step a tick until the last; play at the end starts again', () => {
  let p = togglePlay(initialPlayer(3));
  assert.equal(p.playing, true);
  p = tick(p);
  assert.deepEqual([p.index, p.playing], [1, true]);
  p = tick(p);
  assert.deepEqual([p.index, p.playing], [2, false]);
  assert.equal(tick(p), p); // paused: nothing moves
  p = togglePlay(p);
  assert.deepEqual([p.index, p.playing], [0, true]);
  p = togglePlay(p);
  assert.equal(p.playing, false);
  assert.equal(togglePlay(initialPlayer(1)).playing, false); // one step: nothing to play
});

test('the speed is 1×, 2× or 4×, and shortens the time between steps', () => {
  assert.deepEqual(SPEEDS, [1, 2, 4]);
  let p = initialPlayer(5);
  assert.equal(delay(p), STEP_MS);
  p = setSpeed(p, 4);
  assert.equal(p.speed, 4);
  assert.equal(delay(p), STEP_MS / 4);
  assert.equal(setSpeed(p, 3).speed, 4); // not a speed offered
  assert.equal(setSpeed(p, 2).speed, 2);
});
