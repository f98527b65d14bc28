// Unit tests of what a card shows: its kind, what it does at a table (catalog.js cardEffect over the
// catalog's `effects`) and its face (cards.js: the court figures, the effect's band).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cardKind, cardSVG, FIGURES } from '../cards.js';
import { cardEffect } from '../catalog.js';

const l = (pt, en) => ({ 'pt-BR': pt, en });
const CLASSIC = {
  name: 'classic52',
  effects: { 7: l('+2', '+2'), 8: l('Pula a vez', 'Skip'), J: l('Escolhe o naipe', 'Choose suit') },
  option_effects: { nine_draws: { 3: { 9: l('+3', '+3') } }, seven_draws: { 0: { 7: null } },
    ace: { skip_all: { A: l('Joga de novo', 'Play again') } } },
};

test("a card's kind is what the catalog's effects are keyed by", () => {
  assert.deepEqual(['7H', '10S', 'JD', 'R+2', 'Yskip', 'W', 'W+4', 'B0'].map(cardKind),
    ['7', '10', 'J', '+2', 'skip', 'W', 'W+4', '0']);
  assert.equal(cardKind('XX'), null);
});

test("what a card does comes from the catalog, with the table's options laid over it", () => {
  assert.equal(cardEffect(CLASSIC, {}, '7H'), '+2');
  assert.equal(cardEffect(CLASSIC, {}, '9H'), '');
  assert.equal(cardEffect(CLASSIC, { nine_draws: 3 }, '9H'), '+3');
  assert.equal(cardEffect(CLASSIC, { seven_draws: 0 }, '7C'), ''); // the 7 made a plain card
  assert.equal(cardEffect(CLASSIC, { ace: 'skip_all' }, 'AS'), 'Joga de novo');
  assert.equal(cardEffect(CLASSIC, { ace: 'none' }, 'AS'), '');
  assert.equal(cardEffect(null, {}, '7H'), '');
});

test('court cards show their figure, in every deck design', () => {
  for (const design of ['classic', 'fourcolor', 'night', 'tropical']) {
    assert.match(cardSVG('KH', design), new RegExp(`<image class="card-figure" href="${FIGURES}KH\\.svg"`));
    assert.match(cardSVG('JS', design), /href="[^"]*JS\.svg"/);
  }
  assert.doesNotMatch(cardSVG('10H'), /<image/);
  assert.doesNotMatch(cardSVG('AH'), /<image/);
});

test("a special card's face carries what it does; a plain one nothing", () => {
  assert.match(cardSVG('7H', 'classic', { effect: '+2' }), /<g class="card-effect">.*>\+2<\/text><\/g>/);
  assert.match(cardSVG('R+2', 'classic', { effect: 'A & <b>' }), />A &amp; &lt;b&gt;</);
  assert.doesNotMatch(cardSVG('7H'), /card-effect/);
});
