// Unit tests of the table's shared reactions (table/reactions.js): which lines are new reactions, in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { setLang } from '../i18n.js';
import { newReactions, reactionText } from '../table/reactions.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const line = (time, seat, extra) => ({ time, seat, name: `P${seat}`, text: '', ...extra });

test('only the reactions a chat frame added are new, plain lines are not reactions', () => {
  const before = [line(1, 0, { reaction: 'aplausos' }), line(2, 1, { text: 'oi' })];
  const after = [...before, line(3, 1, { reaction: 'risos' }), line(4, 0, { text: 'boa' }), line(4, 0, { reaction: 'uau' })];
  assert.deepEqual(newReactions(before, after).map((l) => l.reaction), ['risos', 'uau']);
  assert.deepEqual(newReactions(after, after), []);
});

test('a reaction reads as its emoji and its name, in the language of the page', () => {
  setLang('pt-BR');
  assert.equal(reactionText(line(1, 0, { reaction: 'aplausos' })), '👏 Aplausos');
  setLang('en');
  assert.equal(reactionText(line(1, 0, { reaction: 'risos' })), '😂 Laughter');
  setLang('pt-BR');
  assert.equal(reactionText(line(1, 0, { text: 'oi' })), '');
  assert.equal(reactionText(line(1, 0, { reaction: 'unknown' })), '');
});
