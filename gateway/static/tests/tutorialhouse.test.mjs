// Unit tests of tutorialhouse.js: which extra scenes the "?" tutorial shows at a table, from its
// options and its ruleset's description (shaped like GET /api/rulesets', services/rules/catalog.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseCard } from '../cards.js';
import { houseSteps, SCENES } from '../tutorialhouse.js';
import { houseOf } from './learndata.mjs';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const flag = (name, dflt, on, off, house = true) => ({ name, kind: 'flag', default: dflt, on, off, house });
const choice = (name, dflt, values, house = true) => ({ name, kind: 'choice', default: dflt, house, values: values.map((value) => ({ value })) });
const number = (name, values) => ({ name, kind: 'number', default: null, house: false, min: 1, max: null, ...(values ? { values: values.map((value) => ({ value })) } : {}) });
const TURN = number('turn_seconds', [null, 15, 30, 60, 120, 300]);
const HOUSE = (jackOnJack, call, hand) => [
  flag('seven_stacking', true, true, false), flag('eight_bounce', false, true, false), flag('nine_draws', 0, 3, 0),
  flag('jack_on_jack', jackOnJack, true, false), choice('mau_mau_call', call, ['none', 'always', 'jack_only']),
  choice('mau_penalty', 2, [2, 1]), choice('hand_size', hand, [5, 6, 7]), flag('ace_with_company', false, true, false),
  flag('seven_draws', 2, 2, 0),
];

// What the engine offers today (the defaults differ between rulesets: jack_on_jack, mau_mau_call, hand_size).
const RS = {
  classic32: { name: 'classic32', options: [choice('scoring', 'collect', ['collect', 'against'], false), number('target_points'), TURN, ...HOUSE(false, 'none', 5)] },
  classic52: {
    name: 'classic52',
    options: [choice('scoring', 'points', ['points', 'none'], false), number('target_points'), choice('deck', 52, [52, 32], false),
      choice('ace', 'none', ['none', 'draw_one', 'skip_all'], false), number('seven_chain_limit', [null, 1]), TURN,
      ...HOUSE(true, 'always', 5)],
  },
  candeias: { name: 'candeias', options: [TURN, ...HOUSE(true, 'none', 6).filter((o) => !['eight_bounce', 'ace_with_company'].includes(o.name))] },
  colors108: { name: 'colors108', options: [flag('quick', false, true, false, false), flag('teams', false, true, false, false), number('target_points'), TURN] },
};

const ids = (rs, options) => houseSteps(RS[rs], options, houseOf(rs)).map((s) => s.id);

test('a table with every rule at its default, or no options at all, adds no scene', () => {
  for (const rs of Object.keys(RS)) {
    assert.deepEqual(ids(rs, {}), []);
    assert.deepEqual(ids(rs, null), []);
    const defaults = Object.fromEntries(RS[rs].options.map((o) => [o.name, o.default]));
    assert.deepEqual(ids(rs, defaults), [], rs);
  }
  assert.deepEqual(houseSteps(null, { nine_draws: 3 }), []);
});

test('one scene per rule that is on, in the order the lobby lists them; rules off add nothing', () => {
  assert.deepEqual(ids('classic32', { nine_draws: 3, eight_bounce: true }), ['eight_bounce:true', 'nine_draws:3']);
  assert.deepEqual(ids('classic32', { nine_draws: 0, eight_bounce: false, ace_with_company: true }), ['ace_with_company:true']);
  assert.deepEqual(ids('classic32', { scoring: 'against', seven_stacking: false, mau_penalty: 1, hand_size: 7 }),
    ['scoring:against', 'seven_stacking:false', 'mau_penalty:1', 'hand_size:7']);
  assert.deepEqual(ids('classic52', { deck: 32, ace: 'skip_all', seven_chain_limit: 1, scoring: 'none' }),
    ['scoring:none', 'deck:32', 'ace:skip_all', 'seven_chain_limit:1']);
  assert.deepEqual(ids('colors108', { quick: true, teams: true }), ['quick:true', 'teams:true']);
});

test('the goal and the turn time change no rule of play: no scene', () => {
  assert.deepEqual(ids('classic32', { target_points: 150, turn_seconds: 30 }), []);
  assert.deepEqual(ids('colors108', { target_points: 200, turn_seconds: 60 }), []);
});

test('"on" is measured against the ruleset\'s own default', () => {
  // Jack on Jack: a house rule at classic32, the normal rule at classic52 and candeias (off is the change there)
  assert.deepEqual(ids('classic32', { jack_on_jack: true }), ['jack_on_jack:true']);
  assert.deepEqual(ids('classic52', { jack_on_jack: true }), []);
  assert.deepEqual(ids('classic52', { jack_on_jack: false }), ['jack_on_jack:false']);
  assert.deepEqual(ids('candeias', { jack_on_jack: false }), ['jack_on_jack:false']);
  // "Mau-Mau" when going out: classic52 asks it by default
  assert.deepEqual(ids('classic32', { mau_mau_call: 'always' }), ['mau_mau_call:always']);
  assert.deepEqual(ids('classic52', { mau_mau_call: 'always' }), []);
  assert.deepEqual(ids('classic52', { mau_mau_call: 'none' }), ['mau_mau_call:none']);
  // cards dealt: 6 is candeias' own
  assert.deepEqual(ids('candeias', { hand_size: 6 }), []);
  assert.deepEqual(ids('classic32', { hand_size: 6 }), ['hand_size:6']);
  const [deal] = houseSteps(RS.candeias, { hand_size: 5 }, houseOf('candeias'));
  assert.match(deal.pt[1], /5 cartas .*\(em vez de 6\)/);
  assert.equal(deal.scene.row.length, 5);
});

test('an option a ruleset does not take is ignored', () => {
  assert.deepEqual(ids('candeias', { eight_bounce: true, ace_with_company: true }), []);
  assert.deepEqual(ids('colors108', { nine_draws: 3 }), []);
});

test('a 7 that draws nothing has nothing to stack or to limit', () => {
  assert.deepEqual(ids('classic52', { seven_draws: 0, seven_stacking: false, seven_chain_limit: 1 }), ['seven_draws:0']);
  assert.deepEqual(ids('classic52', { seven_stacking: false, seven_chain_limit: 1 }), ['seven_stacking:false']);
});

test('the texts follow RULES.md and the table\'s own penalty', () => {
  const byId = (rs, options) => Object.fromEntries(houseSteps(RS[rs], options, houseOf(rs)).map((s) => [s.id, s]));
  const c32 = byId('classic32', { nine_draws: 3, eight_bounce: true, ace_with_company: true, mau_mau_call: 'jack_only', mau_penalty: 1 });
  assert.match(c32['nine_draws:3'].pt[1], /comprar 3 cartas e perder a vez\. Não dá para responder/);
  assert.match(c32['nine_draws:3'].en[1], /draw 3 cards and lose the turn\. A 9 cannot be answered/);
  assert.match(c32['eight_bounce:true'].pt[1], /outro 8 e passar o pulo adiante, ou tocar em PASSAR/);
  assert.match(c32['ace_with_company:true'].pt[1], /junto com mais uma carta da mão.*Ás sozinho não vale/);
  assert.match(c32['mau_mau_call:jack_only'].pt[1], /compra 1 carta de castigo na hora/);
  assert.match(byId('classic52', { mau_mau_call: 'jack_only' })['mau_mau_call:jack_only'].pt[1], /denunciado.*2 cartas/);
  assert.match(byId('candeias', { nine_draws: 3 })['nine_draws:3'].pt[1], /carta especial/);
  assert.doesNotMatch(c32['nine_draws:3'].pt[1], /especial/);
});

test('what a scene says differently at a ruleset is its learning data\'s, never its name\'s', () => {
  // the same options without the learning data's words: the plain wording, whatever the ruleset's name
  const plain = (rs, options) => Object.fromEntries(houseSteps(RS[rs], options).map((s) => [s.id, s]));
  assert.match(plain('classic52', { mau_mau_call: 'jack_only' })['mau_mau_call:jack_only'].pt[1], /castigo na hora/);
  assert.doesNotMatch(plain('candeias', { nine_draws: 3 })['nine_draws:3'].pt[1], /especial/);
  // and another ruleset given those words says them
  const said = houseSteps(RS.classic32, { nine_draws: 3, mau_mau_call: 'always' }, houseOf('classic52'));
  assert.match(said.find((s) => s.id === 'mau_mau_call:always').en[1], /may be challenged by any other player/);
  assert.match(houseSteps(RS.classic32, { nine_draws: 3 }, houseOf('candeias'))[0].en[1], /lose the turn\. A 9 cannot be answered: they tap DRAW, take the 3 and the turn moves on\. At Candeias the 9 becomes a special card\.$/);
});

// Every non-default value the engine offers has a scene, and every scene is drawable.
function everyChange() {
  const out = [];
  for (const [rs, desc] of Object.entries(RS)) {
    for (const o of desc.options) {
      if (o.name === 'target_points' || o.name === 'turn_seconds') continue;
      const values = o.kind === 'flag' ? [o.on, o.off] : (o.values || []).map((x) => x.value);
      for (const v of values) if (v !== o.default) out.push([rs, o.name, v]);
    }
  }
  return out;
}

test('every rule a table may change has its scene, with a title and a text in both languages', () => {
  const changes = everyChange();
  assert.ok(changes.length >= 25, `${changes.length}`);
  for (const [rs, name, v] of changes) {
    assert.ok(SCENES[name], name);
    const steps = houseSteps(RS[rs], { [name]: v }, houseOf(rs));
    assert.equal(steps.length, 1, `${rs} ${name}=${v}`);
    const [s] = steps;
    assert.equal(s.id, `${name}:${v}`);
    for (const lang of ['pt', 'en']) {
      assert.equal(s[lang].length, 2);
      assert.ok(s[lang][0].length > 3 && s[lang][1].length > 30, `${rs} ${name} ${lang}`);
    }
    assert.notEqual(s.pt[1], s.en[1]);
  }
});

test('every scene draws cards of its own deck (French 7 to Ace, colours at colors108)', () => {
  for (const [rs, name, v] of everyChange()) {
    const { scene } = houseSteps(RS[rs], { [name]: v }, houseOf(rs))[0];
    const names = [scene.top, ...(scene.hand || []), ...[].concat(scene.draw ?? []), ...(scene.row || []),
      ...(scene.points || []).map(([c]) => c)].filter(Boolean);
    if (!scene.teams) assert.ok(names.length > 0, `${rs} ${name}`);
    for (const c of names) {
      const card = parseCard(c);
      assert.ok(card, `${rs} ${name}: ${c}`);
      assert.equal(card.family, rs === 'colors108' ? 'colour' : 'french', `${rs} ${name}: ${c}`);
      if (card.family === 'french') assert.ok(['7', '8', '9', '10', 'J', 'Q', 'K', 'A'].includes(card.rank), `${rs} ${name}: ${c}`);
    }
    for (const c of [].concat(scene.play ?? [])) assert.ok(scene.hand.includes(c), `${rs} ${name}: ${c} is played from the hand`);
    if (Array.isArray(scene.play)) assert.equal(name, 'ace_with_company');
  }
});
