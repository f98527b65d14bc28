// Unit tests of table/state.js: what each frame of the socket does to what the table screen knows.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { initialState, legalOf, matchEnded, mySeat, reduceFrame } from '../table/state.js';

const NOW = 1_000_000;
const info = (extra = {}) => ({
  table_id: 't1', ruleset: 'classic32', options: {}, seats: 2, status: 'playing', my_seat: 0,
  players: [{ name: 'Ana', bot: false }, { name: 'Tito', bot: true }], ...extra,
});
const view = (extra = {}) => ({ turn: 0, round_over: false, rounds_played: 0, legal_actions: [], hand: ['7H'], ...extra });
const stateFrame = (extra = {}) => ({ type: 'state', table: 't1', seq: 5, table_info: info(), view: view(), ...extra });

test('a state frame is the whole picture; the input is left as it was', () => {
  const before = initialState(null, NOW);
  const frozen = JSON.stringify(before);
  const st = reduceFrame(before, stateFrame(), NOW);
  assert.equal(JSON.stringify(before), frozen);
  assert.equal(st.seq, 5);
  assert.equal(mySeat(st), 0);
  assert.deepEqual(st.log, []);
  assert.equal(st.turnKey, '0/false/0');
  assert.equal(st.turnSince, NOW);
});

test('an events frame adds its lines to the log and resets what a new round ends', () => {
  let st = reduceFrame(initialState(null, NOW), stateFrame(), NOW);
  st = { ...st, reviewHidden: true, announce: true, seed: 'old' };
  st = reduceFrame(st, {
    type: 'events', table: 't1', seq: 6, table_info: info(), view: view({ turn: 1 }),
    events: [{ type: 'RoundDealt', dealer: 1 }, { type: 'PlayerLeft', seat: 1, time: NOW - 500 }],
  }, NOW);
  assert.equal(st.log.length, 2);
  assert.equal(st.log[0].segs[0].k, 'log.dealt');
  assert.equal(st.log[1].segs[0].v.name, 'Tito');
  assert.equal(st.reviewHidden, false);
  assert.equal(st.announce, false);
  assert.equal(st.seed, '');
  assert.equal(st.turnSince, NOW - 500); // the turn began with its event, on the server's clock
});

test('a round\'s end keeps its seed; the log keeps its last 150 lines', () => {
  let st = reduceFrame(initialState(null, NOW), stateFrame(), NOW);
  st = { ...st, log: Array.from({ length: 150 }, (_, i) => ({ segs: [{ k: `x${i}` }], cls: '' })) };
  st = reduceFrame(st, {
    type: 'events', table: 't1', seq: 7, table_info: info(), view: view({ round_over: true, revealed_hands: [[], ['8C']] }),
    events: [{ type: 'RoundEnded', winner: 0, match_over: false, seed: 'abc' }],
  }, NOW);
  assert.equal(st.seed, 'abc');
  assert.equal(st.log.length, 150);
  assert.equal(st.log[149].segs[0].k, 'log.round_won');
});

test('a choice in progress ends when its moves are no longer legal', () => {
  const plays = [{ do: 'play', card: 'JH', choose: 'C' }, { do: 'play', card: 'JH', choose: 'S' }];
  let st = reduceFrame(initialState(null, NOW), stateFrame({ view: view({ legal_actions: plays }) }), NOW);
  st = { ...st, chooser: { card: 'JH', choices: ['C', 'S'], actions: plays, forced: false }, doubleMode: true };
  const kept = reduceFrame(st, stateFrame({ seq: 6, view: view({ legal_actions: plays }) }), NOW);
  assert.equal(kept.chooser.card, 'JH');
  assert.equal(kept.doubleMode, false);
  const gone = reduceFrame(st, stateFrame({ seq: 6, view: view({ legal_actions: [{ do: 'draw' }] }) }), NOW);
  assert.equal(gone.chooser, null);
  assert.ok(legalOf(gone).draw);
});

test('the dealer\'s forced choice opens until chosen or the table moves', () => {
  const choose = [{ do: 'choose', choose: 'C' }, { do: 'choose', choose: 'H' }];
  const st = reduceFrame(initialState(null, NOW), stateFrame({ view: view({ legal_actions: choose }) }), NOW);
  assert.deepEqual(st.chooser.choices, ['C', 'H']);
  assert.equal(st.chooser.forced, true);
  const chosen = reduceFrame({ ...st, chooser: null, choseAt: 5 }, stateFrame({ view: view({ legal_actions: choose }) }), NOW);
  assert.equal(chosen.chooser, null);
  const over = reduceFrame(st, stateFrame({ seq: 6 }), NOW);
  assert.equal(over.chooser, null);
});

test('chat lines are added once, the last 100 kept', () => {
  let st = initialState(null, NOW);
  const line = (i) => ({ seat: 0, name: 'Ana', text: `oi ${i}`, time: i });
  st = reduceFrame(st, { type: 'chat', table: 't1', lines: [line(1), line(2)] }, NOW);
  const same = reduceFrame(st, { type: 'chat', table: 't1', lines: [line(1), line(2)] }, NOW);
  assert.equal(same, st); // nothing new: nothing to render
  st = reduceFrame(st, { type: 'chat', table: 't1', lines: Array.from({ length: 120 }, (_, i) => line(i + 2)) }, NOW);
  assert.equal(st.chat.length, 100);
  assert.equal(st.chat[99].text, 'oi 121');
});

test('an unknown table is known as such; other errors change nothing', () => {
  const st = initialState(null, NOW);
  assert.equal(reduceFrame(st, { type: 'error', table: 't1', code: 'unknown_table' }, NOW).unknown, true);
  assert.equal(reduceFrame(st, { type: 'error', table: 't1', code: 'too_fast' }, NOW), st);
});

test('a cached picture is where a reload starts', () => {
  const st = initialState({ seq: 9, table_info: info(), view: view(), log: [{ segs: [], cls: '' }], turnKey: 'k', turnSince: 42 }, NOW);
  assert.equal(st.seq, 9);
  assert.equal(st.log.length, 1);
  assert.equal(st.turnSince, 42);
});

test('ace_with_company: the Ace waiting for its companion stays only while it may still be played with one', () => {
  const plays = [{ do: 'play', card: 'AH', with: '9H' }, { do: 'play', card: 'AH', with: 'JC', choose: 'D' }];
  let st = reduceFrame(initialState(null, NOW), stateFrame({ view: view({ hand: ['AH', '9H', 'JC'], legal_actions: plays }) }), NOW);
  assert.equal(st.companion, null);
  st = { ...st, companion: { card: 'AH', actions: plays }, chooser: { card: 'JC', ace: 'AH', choices: ['D'], actions: [plays[1]], forced: false } };
  const again = reduceFrame(st, stateFrame({ seq: 6, view: view({ hand: ['AH', '9H', 'JC'], legal_actions: plays }) }), NOW);
  assert.equal(again.companion.card, 'AH');
  assert.equal(again.chooser.card, 'JC'); // the Jack's suit, asked for the Ace's play
  const moved = reduceFrame(st, stateFrame({ seq: 7, view: view({ turn: 1, hand: ['AH', '9H', 'JC'], legal_actions: [] }) }), NOW);
  assert.equal(moved.companion, null);
  assert.equal(moved.chooser, null);
});

test('a match ends once: from a picture being played to one played out or ended, not on a later picture', () => {
  assert.equal(matchEnded({ status: 'playing' }, { status: 'over' }), true);
  assert.equal(matchEnded({ status: 'playing' }, { status: 'ended' }), true); // given up, an absence
  assert.equal(matchEnded({ status: 'over' }, { status: 'over' }), false); // a rematch vote after it
  assert.equal(matchEnded(null, { status: 'over' }), false); // the first picture: the table opened after the end
  assert.equal(matchEnded({ status: 'playing' }, { status: 'playing' }), false);
});

test('the call is worded as the catalog says of the table\'s ruleset, whatever its name', () => {
  const catalog = { rulesets: [{ name: 'cores', call: 'last' }, { name: 'plain', call: null }] };
  const played = { type: 'events', table: 't1', seq: 6, view: view(),
    events: [{ type: 'ActionTaken', action: { seat: 1, do: 'play', card: '9H', announce: 'mau' }, draws: [] }] };
  const said = (ruleset) => {
    const st = reduceFrame(initialState(null, NOW), { ...played, table_info: info({ ruleset }) }, NOW, catalog);
    return [st.call, st.log.at(-1).segs.at(-1).k];
  };
  assert.deepEqual(said('cores'), ['last', 'log.announce.last']);
  assert.deepEqual(said('plain'), [null, 'log.announce.mau']);
  assert.deepEqual(said('unknown'), [null, 'log.announce.mau']);
});
