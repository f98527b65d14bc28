// Unit tests of the table's sounds: which moves make which sound (table/sounds.js), that only the
// moves heard live sound, the device's volume (sound.js), the voice of the calls (sfx.js) and the
// call's hint, seen once per device (table/callhint.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callHintSeen, markCallHintSeen } from '../table/callhint.js';
import { pickVoice, SOUNDS } from '../sfx.js';
import { DEFAULT_VOLUME, parseVolume, setVolume, volume } from '../sound.js';
import { cuesOf, tableSounds } from '../table/sounds.js';
import { initialState, reduceFrame } from '../table/state.js';

const NOW = 1_000_000;
const info = (extra = {}) => ({
  table_id: 't1', ruleset: 'classic32', options: {}, seats: 2, status: 'playing', my_seat: 0,
  players: [{ name: 'Ana', bot: false }, { name: 'Tito', bot: true }], ...extra,
});
const view = (extra = {}) => ({ turn: 1, round_over: false, rounds_played: 0, legal_actions: [], hand: ['7H'], ...extra });
const stateFrame = (extra = {}) => ({ type: 'state', table: 't1', seq: 5, table_info: info(), view: view(), ...extra });
const eventsFrame = (events, extra = {}) => ({ type: 'events', table: 't1', seq: 6, table_info: info(), view: view(), events, ...extra });
const act = (action, extra = {}) => ({ type: 'ActionTaken', action, draws: [], ...extra });

const CATALOG = { rulesets: [{ name: 'classic32', call: null }, { name: 'colors108', call: 'last' }] }; // GET /api/rulesets' calls

/** The sounds of `frame` after the picture `first` (the state before it, then the state after it). */
function cues(frame, first = stateFrame()) {
  const before = reduceFrame(initialState(null, NOW), first, NOW, CATALOG);
  return cuesOf(before, reduceFrame(before, frame, NOW, CATALOG), frame.events);
}

test('a card played by the other seat, and the table turns to me: the card, then my turn', () => {
  assert.deepEqual(cues(eventsFrame([act({ do: 'play', seat: 1, card: '9H' })], { view: view({ turn: 0 }) })), ['card', 'turn']);
});

test('my own card played, the turn going on to the other seat: the card alone', () => {
  const first = stateFrame({ view: view({ turn: 0 }) });
  assert.deepEqual(cues(eventsFrame([act({ do: 'play', seat: 0, card: '9H' })]), first), ['card']);
});

test('a draw sounds as a draw; the stock made again from the pile first sounds as a shuffle', () => {
  const draw = act({ do: 'draw', seat: 1 }, { draws: [{ seat: 1, count: 1 }] });
  assert.deepEqual(cues(eventsFrame([draw])), ['draw']);
  assert.deepEqual(cues(eventsFrame([{ ...draw, reshuffles: 1 }])), ['shuffle', 'draw']);
});

test('a deal is a shuffle; the round begun on my turn is my turn too', () => {
  const frame = eventsFrame([{ type: 'RoundDealt', dealer: 1 }], { view: view({ turn: 0, rounds_played: 1 }) });
  assert.deepEqual(cues(frame), ['shuffle', 'turn']);
});

test('a card played with the call sounds the call in the ruleset\'s word', () => {
  assert.deepEqual(cues(eventsFrame([act({ do: 'play', seat: 1, card: '9H', announce: 'mau' })])), ['card', 'mau']);
  const colors = { table_info: info({ ruleset: 'colors108' }) };
  assert.deepEqual(cues(eventsFrame([act({ do: 'play', seat: 1, card: 'R5', announce: 'mau' })], colors),
    stateFrame(colors)), ['card', 'last']);
});

test('the cards drawn for a call forgotten are a penalty, not a draw', () => {
  const forgot = act({ do: 'play', seat: 1, card: '9H' }, { draws: [{ seat: 1, count: 2 }] });
  assert.deepEqual(cues(eventsFrame([forgot])), ['card', 'penalty']);
});

test('a round and the match won by me, or lost to the other seat', () => {
  const end = (winner) => eventsFrame([{ type: 'RoundEnded', winner, match_over: true, match_winners: [winner] }],
    { view: view({ round_over: true }) });
  assert.deepEqual(cues(end(0)), ['round_won', 'match_won']);
  assert.deepEqual(cues(end(1)), ['round_lost', 'match_lost']);
});

test('at a teams table my partner\'s round is won by my side', () => {
  const teams = { table_info: info({ seats: 4, partners: [[0, 2], [1, 3]] }) };
  const frame = eventsFrame([{ type: 'RoundEnded', winner: 2, match_over: false }], { ...teams, view: view({ round_over: true }) });
  assert.deepEqual(cues(frame, stateFrame(teams)), ['round_won']);
});

test('no turn is told to a seat in automatic mode (the system plays it at once)', () => {
  const auto = { table_info: info({ auto: [0] }) };
  const frame = eventsFrame([act({ do: 'play', seat: 1, card: '9H' })], { ...auto, view: view({ turn: 0 }) });
  assert.deepEqual(cues(frame, stateFrame(auto)), ['card']);
});

test('the same sound twice in a row in one batch is heard once', () => {
  const draws = act({ do: 'draw', seat: 1 }, { draws: [{ seat: 1, count: 1 }] });
  assert.deepEqual(cues(eventsFrame([draws, draws, draws])), ['draw']);
});

test('every sound the table names has its notes', () => {
  for (const name of ['card', 'draw', 'shuffle', 'turn', 'mau', 'maumau', 'last', 'penalty', 'round_won', 'round_lost',
    'match_won', 'match_lost']) {
    assert.ok(SOUNDS[name]?.length, name);
  }
});

/** The frames of one subscription through tableSounds: the names played. */
function heard(frames, ears = tableSounds((name) => played.push(name)), played = []) {
  let st = initialState(null, NOW);
  for (const f of frames) {
    const before = st;
    st = reduceFrame(st, f, NOW);
    ears.heard(before, st, f);
  }
  return played;
}

test('the batches a subscription catches up, before its chat frame, make no sound', () => {
  const chat = { type: 'chat', table: 't1', lines: [] };
  const played = heard([stateFrame(), eventsFrame([act({ do: 'play', seat: 1, card: '9H' })], { view: view({ turn: 0 }) }), chat]);
  assert.deepEqual(played, []);
});

test('after the chat frame each batch sounds as it comes; a new subscription is quiet again until its chat', () => {
  const played = [];
  const ears = tableSounds((name) => played.push(name));
  const chat = { type: 'chat', table: 't1', lines: [] };
  heard([stateFrame(), chat, eventsFrame([act({ do: 'play', seat: 1, card: '9H' })], { view: view({ turn: 0 }) })], ears, played);
  assert.deepEqual(played, ['card', 'turn']);
  ears.subscribed(); // the socket came back: the missed batches are replayed
  heard([stateFrame({ seq: 6 }), eventsFrame([act({ do: 'draw', seat: 1 }, { draws: [{ seat: 1, count: 1 }] })], { seq: 7 })], ears, played);
  assert.deepEqual(played, ['card', 'turn']);
});

test('the volume is kept on the device, within 0–100; anything unreadable is the default', () => {
  const kept = new Map();
  globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
  try {
    assert.equal(volume(), DEFAULT_VOLUME);
    setVolume(35);
    assert.equal(kept.get('mm.volume'), '35');
    assert.equal(parseVolume(kept.get('mm.volume')), 35);
    assert.equal(parseVolume('loud'), DEFAULT_VOLUME);
    assert.equal(parseVolume('250'), 100);
    assert.equal(parseVolume('-3'), 0);
  } finally {
    delete globalThis.localStorage;
  }
});

test('the calls are spoken by a Brazilian voice, else a Portuguese one, else not at all', () => {
  const v = (lang, name = lang) => ({ lang, name });
  assert.equal(pickVoice([v('en-US'), v('pt-PT'), v('pt-BR', 'Luciana')]).name, 'Luciana');
  assert.equal(pickVoice([v('en-US'), v('pt_PT')]).lang, 'pt_PT');
  assert.equal(pickVoice([v('en-US'), v('es-ES')]), null);
  assert.equal(pickVoice([]), null);
});

test('the call\'s hint, once seen, is seen on this device for good', () => {
  const kept = new Map();
  globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
  try {
    assert.equal(callHintSeen(), false);
    markCallHintSeen();
    assert.equal(kept.get('mm.hint.call'), 'seen');
    assert.equal(callHintSeen(), true);
  } finally {
    delete globalThis.localStorage;
  }
});
