// The home screen's side of the Aprenda pages' links: node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { learnHref, linkedRequest } from '../lobby.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const IDS = ['classic32', 'classic52', 'candeias', 'colors108'];

test('"Jogar esta regra" and the tutorial link: a known ruleset, the help only with one, a known language', () => {
  assert.deepEqual(linkedRequest('?regra=candeias&lang=pt-BR', IDS), { ruleset: 'candeias', help: false, lang: 'pt-BR' });
  assert.deepEqual(linkedRequest('?regra=colors108&ajuda=1&lang=en', IDS), { ruleset: 'colors108', help: true, lang: 'en' });
  assert.deepEqual(linkedRequest('?regra=poker&ajuda=1&lang=de', IDS), { ruleset: null, help: false, lang: null });
  assert.deepEqual(linkedRequest('', IDS), { ruleset: null, help: false, lang: null });
});

test('the pages in each language', () => {
  assert.equal(learnHref('index'), '/static/aprenda/index.html');
  assert.equal(learnHref('classic52', 'pt-BR'), '/static/aprenda/classic52.html');
  assert.equal(learnHref('classic52', 'en'), '/static/aprenda/en/classic52.html');
});
