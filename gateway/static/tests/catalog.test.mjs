// Unit tests of catalog.js: the lobby's options and a table's rules in words, from a description
// shaped like GET /api/rulesets' (services/rules/catalog.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  cleanOptions, control, goalText, optionDefault, optionGroups, roundTitle, rulesetLabel, rulesetOf, tableRules, turnsClockwise, valueText,
} from '../catalog.js';

const l = (pt, en) => ({ 'pt-BR': pt, en });
const CATALOG = {
  rulesets: [
    {
      name: 'classic32', label: l('Clássico 32', 'Classic 32'), seats: { min: 2, max: 4 }, lowest_wins: false, rounds: null,
      goal: { 2: 200, 3: 300, 4: 400 }, points: { JH: 20 },
      options: [
        { name: 'target_points', label: l('Meta de pontos', 'Points goal'), kind: 'number', default: null, min: 1, max: null, house: false },
        { name: 'turn_seconds', label: l('Tempo de jogada', 'Turn time'), kind: 'number', default: null, min: 1, max: null, house: false,
          values: [{ value: null, label: l('sem limite', 'no limit') }, { value: 30, label: l('30 s', '30 s') }] },
        { name: 'nine_draws', label: l('O 9 faz o próximo comprar 3', 'A 9 makes the next player draw 3'), kind: 'flag',
          default: 0, on: 3, off: 0, house: true },
        { name: 'jack_on_jack', label: l('Valete sobre valete vale', 'Jack on Jack allowed'), kind: 'flag',
          default: false, on: true, off: false, house: true },
        { name: 'mau_penalty', label: l('Castigo por esquecer o Mau', 'Penalty for a missed "Mau"'), kind: 'choice',
          default: 2, house: true, values: [{ value: 2, label: l('2 cartas', '2 cards') }, { value: 1, label: l('1 carta', '1 card') }] },
      ],
    },
    { name: 'candeias', label: l('Candeias', 'Candeias'), seats: { min: 2, max: 5 }, lowest_wins: true, rounds: 5,
      goal: null, points: {}, options: [] },
    { name: 'classic52', label: l('Clássico 52', 'Classic 52'), seats: { min: 2, max: 10 }, lowest_wins: true, rounds: null,
      goal: { 2: 100, 3: 100 }, points: {}, options: [] },
  ],
};
const c32 = rulesetOf(CATALOG, 'classic32');

test('rulesets by id, named in the current language', () => {
  assert.equal(rulesetOf(CATALOG, 'nope'), null);
  assert.equal(rulesetOf(null, 'classic32'), null);
  assert.equal(rulesetLabel(CATALOG, 'classic32'), 'Clássico 32');
  assert.equal(rulesetLabel(CATALOG, 'nope'), 'nope');
});

test('options: their controls, groups and defaults', () => {
  assert.deepEqual(c32.options.map(control), ['number', 'select', 'check', 'check', 'select']);
  const { main, house } = optionGroups(c32);
  assert.deepEqual(main.map((o) => o.name), ['target_points', 'turn_seconds']);
  assert.deepEqual(house.map((o) => o.name), ['nine_draws', 'jack_on_jack', 'mau_penalty']);
  assert.equal(optionDefault(c32, 'jack_on_jack'), false);
  assert.equal(optionDefault(c32, 'mau_penalty'), 2);
  assert.equal(optionDefault(c32, 'turn_seconds'), null);
  assert.equal(optionDefault(c32, 'unknown'), null);
});

test('only what differs from the ruleset defaults is sent', () => {
  assert.deepEqual(cleanOptions(c32, { jack_on_jack: false, mau_penalty: 2, turn_seconds: null, nine_draws: 0 }), {});
  assert.deepEqual(cleanOptions(c32, { jack_on_jack: true, target_points: '150', turn_seconds: 30, mau_penalty: 1 }),
    { jack_on_jack: true, target_points: 150, turn_seconds: 30, mau_penalty: 1 });
  assert.deepEqual(cleanOptions(c32, { target_points: '0' }), {});
  assert.deepEqual(cleanOptions(c32, { target_points: '2.5', other: true }), {});
});

test('a table\'s rules in words: every option, the defaults included', () => {
  assert.deepEqual(tableRules(c32, { nine_draws: 3, target_points: 150, turn_seconds: 30, x: 1 }), {
    main: ['Tempo de jogada: 30 s'],
    house: ['✓ O 9 faz o próximo comprar 3', 'Castigo por esquecer o Mau: 2 cartas'],
    off: ['✗ Valete sobre valete vale'],
  });
  assert.deepEqual(tableRules(c32, {}), {
    main: ['Tempo de jogada: sem limite'], house: ['Castigo por esquecer o Mau: 2 cartas'],
    off: ['✗ O 9 faz o próximo comprar 3', '✗ Valete sobre valete vale'],
  });
  assert.deepEqual(tableRules(c32, { jack_on_jack: true, mau_penalty: 1 }).house,
    ['✓ Valete sobre valete vale', 'Castigo por esquecer o Mau: 1 carta']);
  assert.equal(valueText(c32.options[1], 45), '45');
  assert.deepEqual(tableRules(null, { nine_draws: 3 }), { main: [], house: [], off: [] });
});

test('which way the seats go: the catalog\'s turns', () => {
  assert.equal(turnsClockwise({ turns: 'clockwise' }), true);
  assert.equal(turnsClockwise({ turns: 'counter_clockwise' }), false);
  assert.equal(turnsClockwise(null), true);
});

test('the goal: the ruleset\'s default by seats, the table\'s own, rounds, or no points', () => {
  const info = (ruleset, options, players) => ({ ruleset, options, players: Array(players).fill({ name: 'x' }) });
  assert.equal(goalText(c32, info('classic32', {}, 3), {}), 'Meta: 300 pontos');
  assert.equal(goalText(c32, info('classic32', { target_points: 150 }, 3), {}), 'Meta: 150 pontos');
  const c52 = rulesetOf(CATALOG, 'classic52');
  assert.equal(goalText(c52, info('classic52', {}, 2), {}), 'Meta: 100 pontos (vence quem tiver menos)');
  assert.equal(goalText(c52, info('classic52', { scoring: 'none' }, 2), {}), 'Sem pontos');
  const cand = rulesetOf(CATALOG, 'candeias');
  assert.equal(goalText(cand, info('candeias', {}, 2), { rounds_played: 2, round_over: false }), 'Rodada 3 de 5');
  assert.equal(goalText(cand, info('candeias', {}, 2), { rounds_played: 5, round_over: true }), 'Rodada 5 de 5');
  assert.equal(goalText(null, info('x', {}, 2), {}), '');
});

test('a round-end board is titled by its ruleset\'s own words, else "Fim da rodada"', () => {
  assert.equal(roundTitle({ round_title: l('Conferência da Rodada', 'Round review') }), 'Conferência da Rodada');
  assert.equal(roundTitle({ round_title: null }), 'Fim da rodada');
  assert.equal(roundTitle(null), 'Fim da rodada');
});
