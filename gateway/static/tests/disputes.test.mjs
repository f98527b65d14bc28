// Unit tests of the disputes' words in the client (docs/disputes.md): node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_REPORT } from '../disputes.js';
import { errorText, setLang, t } from '../i18n.js';
import { describeEvent, formatEntry } from '../table/eventlog.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const said = (entries) => entries.map(formatEntry).join(' ');

test('an annulled match is said in the table log, in both languages', () => {
  const ctx = { me: 0, names: ['Ana', 'Bia'], view: null };
  const entries = describeEvent({ type: 'MatchAnnulled', match_no: 2 }, ctx);
  assert.equal(said(entries), 'A equipe anulou a partida 2: ela não conta nos rankings, no XP nem nas fichas.');
  assert.equal(entries[0].cls, 'warn');
  setLang('en');
  try {
    assert.equal(said(entries), 'The staff annulled match 2: it counts in no ranking, XP or chips.');
  } finally {
    setLang('pt-BR');
  }
});

test('the disputes refusals and the report limit have words', () => {
  for (const code of ['not_staff', 'unknown_dispute', 'dispute_closed', 'bad_verdict', 'no_match', 'match_in_play', 'annulled',
    'not_at_table', 'staff_seated']) {
    assert.doesNotMatch(errorText(code), /Algo deu errado/, code);
  }
  assert.equal(MAX_REPORT, 500);
  assert.match(t('dispute.help', { n: MAX_REPORT }), /500 caracteres/);
});

test('the desk says why fair play marked a match, in both languages', () => {
  assert.equal(t('staff.mark.short_give_up'), 'Desistência antes de 3 jogadas');
  assert.equal(t('staff.mark.pair_bound'), 'A mesma dupla passou do limite do dia');
  setLang('en');
  try {
    assert.equal(t('staff.mark.short_give_up'), 'Given up before 3 moves');
  } finally {
    setLang('pt-BR');
  }
});
