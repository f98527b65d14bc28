// Unit tests of what a card shows and says: its spoken name (i18n.js cardLabel), its kind, what it does
// at a table (catalog.js cardEffect over the catalog's `effects`) and its face (cards.js: the court
// figures, the effect's band).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cardKind, cardSVG, FIGURES, showFigures } from '../cards.js';
import { cardEffect } from '../catalog.js';
import { cardLabel } from '../i18n.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const l = (pt, en) => ({ 'pt-BR': pt, en });
const CLASSIC = {
  name: 'classic52',
  effects: { 7: l('+2', '+2'), 8: l('Pula a vez', 'Skip'), J: l('Escolhe o naipe', 'Choose suit') },
  option_effects: { nine_draws: { 3: { 9: l('+3', '+3') } }, seven_draws: { 0: { 7: null } },
    ace: { skip_all: { A: l('Joga de novo', 'Play again') } } },
};

test('every French card has a spoken name in pt-BR and English', () => {
  assert.equal(cardLabel('JH', 'pt-BR'), 'Valete de copas');
  assert.equal(cardLabel('7S', 'pt-BR'), 'Sete de espadas');
  assert.equal(cardLabel('10D', 'pt-BR'), 'Dez de ouros');
  assert.equal(cardLabel('AC', 'pt-BR'), 'Ás de paus');
  assert.equal(cardLabel('QS', 'en'), 'Queen of spades');
  assert.equal(cardLabel('2H', 'en'), 'Two of hearts');
});

test('every colour card has a spoken name in pt-BR and English', () => {
  assert.equal(cardLabel('W+4', 'pt-BR'), 'Curinga +4');
  assert.equal(cardLabel('W', 'en'), 'Wild');
  assert.equal(cardLabel('R7', 'pt-BR'), 'Sete vermelho');
  assert.equal(cardLabel('B+2', 'pt-BR'), 'Compre 2 azul');
  assert.equal(cardLabel('Gskip', 'en'), 'Green skip');
  assert.equal(cardLabel('', 'pt-BR'), 'Carta virada');
});

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

test('court cards show their letter until the first screen is in, then their figure, in every deck design', () => {
  assert.doesNotMatch(cardSVG('KH'), /<image/);
  assert.match(cardSVG('KH'), />K<\/text>/);
  showFigures();
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
