// The log's words for automatic mode and the seat moves of duplas (issue 14), in pt-BR.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { describeEvent, formatEntry } from '../table/eventlog.js';

const names = ['Ana', 'Bia', 'Carmen', 'Tito'];
const fmt = (ev, me = 0) => describeEvent(ev, { me, names, call: 'last', view: null }).map(formatEntry);

test('automatic mode is worded in the log', () => {
  globalThis.localStorage = undefined;
  assert.deepEqual(fmt({ type: 'TurnTimedOut', seat: 1 }), ['Bia ficou sem tempo: o sistema jogou.']);
  assert.deepEqual(fmt({ type: 'AutoModeChanged', seat: 1, on: true, reason: 'timeouts' }),
    ['Bia ficou sem tempo duas vezes seguidas: modo automático 🤖 ligado.']);
  assert.deepEqual(fmt({ type: 'AutoModeChanged', seat: 0, on: true, reason: 'chosen' }), ['Você ligou o modo automático 🤖.']);
  assert.deepEqual(fmt({ type: 'AutoModeChanged', seat: 0, on: false, reason: 'returned' }), ['Você voltou a jogar.']);
});

test('a seat move is worded with the names as they sit now', () => {
  globalThis.localStorage = undefined;
  // seat 1's player went to seat 2 (Carmen, after the move) and seat 2's to seat 1 (Bia)
  assert.deepEqual(fmt({ type: 'SeatMoved', seat: 1, to: 2 }), ['Carmen e Bia trocaram de lugar.']);
});
