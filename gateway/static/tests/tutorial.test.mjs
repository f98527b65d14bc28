// The tutorial's steps as the learning data holds them (gateway/static/aprenda/data/<ruleset>.json,
// served by GET /api/tutorials), and what tutorial.js makes of them: node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseCard } from '../cards.js';
import { pointsShown, tutorialOf } from '../tutorial.js';
import { TUTORIALS } from './learndata.mjs';

test('every ruleset with learning data has its steps, each in both languages, its cards real cards', () => {
  // today's four at least; a new ruleset's data file is read here as it comes, with no name to add
  for (const rs of ['classic32', 'classic52', 'candeias', 'colors108']) assert.ok(tutorialOf(TUTORIALS, rs), rs);
  for (const { ruleset, steps } of TUTORIALS) {
    assert.ok(steps.length >= 3, ruleset);
    for (const s of steps) {
      for (const words of [s.pt, s.en]) assert.ok(words.length === 2 && words.every((w) => w.length > 0), ruleset);
      assert.ok(s.scene.points || s.scene.top, ruleset);
      const cards = [s.scene.top, ...(s.scene.hand || []), ...[].concat(s.scene.play ?? []), ...[].concat(s.scene.draw ?? []),
        ...(s.scene.points || [])];
      for (const c of cards.filter(Boolean)) assert.ok(parseCard(c), `${ruleset}: ${c}`);
    }
  }
});

test('a ruleset without a tutorial gets none: never another ruleset\'s', () => {
  assert.equal(tutorialOf(TUTORIALS, 'classic52').ruleset, 'classic52');
  assert.equal(tutorialOf(TUTORIALS, 'newcomer'), null); // a ruleset without learning data
  assert.equal(tutorialOf(null, 'classic32'), null); // the tutorials did not come
  assert.equal(tutorialOf([], undefined), null);
});

test('a points scene shows the catalog\'s points of a card, or the words given with it', () => {
  const points = { JH: 20, AS: 11 };
  assert.deepEqual(pointsShown(['JH', 'AS', 'ZZ'], points), [['JH', 20], ['AS', 11], ['ZZ', '']]);
  assert.deepEqual(pointsShown([['JH', '+20']], points), [['JH', '+20']]);
  assert.deepEqual(pointsShown(['JH'], undefined), [['JH', '']]); // no catalog: the card alone
});
