// Unit tests of the competitive tables' pure part (⚔: stake, chips, XP, the vote on the one who left):
// node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  chipsText, DEFAULT_STAKE, penaltyOf, SEAT_REFUSALS, signed, stakeOf, stakeProblem, STAKES, stakeText, xpText,
} from '../competitive.js';
import { errorText, t } from '../i18n.js';
import { parseRankingBy, parseRankingSearch, rankingPath } from '../rankings.js';
import { describeEvent, formatEntry } from '../table/eventlog.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const RULESETS = ['classic32', 'classic52', 'candeias', 'colors108'];
const said = (entries) => entries.map(formatEntry).join(' ');

test('a stake is said in chips, the way each language writes numbers', () => {
  assert.equal(stakeText(50, 'pt-BR'), '⚔ 50 fichas');
  assert.equal(stakeText(1000, 'pt-BR'), '⚔ 1.000 fichas');
  assert.equal(stakeText(1000, 'en'), '⚔ 1,000 chips');
  assert.equal(stakeText(0, 'pt-BR'), ''); // not competitive: no mark
  assert.equal(stakeText(undefined, 'pt-BR'), '');
  assert.equal(chipsText(1, 'pt-BR'), '1 ficha');
  assert.equal(chipsText(1, 'en'), '1 chip');
  assert.ok(STAKES.includes(DEFAULT_STAKE));
});

test('XP and chips changes carry their sign, negative included', () => {
  assert.equal(xpText(20, 'pt-BR'), '+20 XP');
  assert.equal(xpText(-20, 'pt-BR'), '−20 XP');
  assert.equal(xpText(0, 'en'), '0 XP');
  assert.equal(signed(-1050, 'pt-BR'), '−1.050');
  assert.equal(t('profile.chips_change', { s: signed(50, 'pt-BR'), n: 50 }, 'pt-BR'), '+50 fichas');
  assert.equal(t('profile.chips_change', { s: signed(-1, 'en'), n: 1 }, 'en'), '−1 chip');
});

test('the create form sends a stake only when the competitive box is ticked', () => {
  assert.equal(stakeOf({ competitive: true, stake: 100 }), 100);
  assert.equal(stakeOf({ competitive: false, stake: 100 }), 0);
  assert.equal(stakeOf({ competitive: true, stake: 0 }), 0);
  assert.equal(stakeOf({}), 0);
  assert.equal(stakeProblem(50, false), 'account_needed'); // a guest cannot
  assert.equal(stakeProblem(50, true), null);
  assert.equal(stakeProblem(0, true), 'bad_stake');
  assert.equal(stakeProblem(100001, true), 'bad_stake');
});

test('a refused seat says why in Portuguese first', () => {
  assert.equal(errorText('account_needed', 'pt-BR'), 'Mesas competitivas são só para quem tem conta');
  assert.equal(errorText('not_enough_chips', 'pt-BR'), 'Você não tem fichas suficientes para a aposta desta mesa');
  assert.equal(errorText('no_bots', 'pt-BR'), 'Mesas competitivas são só para pessoas: sem robôs');
  assert.match(errorText('not_enough_chips', 'en'), /enough chips/);
  assert.match(t('stake.refused.not_enough_chips', { chips: chipsText(500, 'pt-BR') }, 'pt-BR'), /a aposta é de 500 fichas/);
});

test('chips held by a seat at another table are a refusal of their own, in Portuguese first', () => {
  assert.equal(errorText('chips_reserved', 'pt-BR'), 'Suas fichas já estão reservadas em outra mesa competitiva');
  assert.match(t('stake.refused.chips_reserved', { chips: chipsText(1000, 'pt-BR') }, 'pt-BR'), /aposta de 1\.000 fichas/);
  assert.ok(SEAT_REFUSALS.includes('chips_reserved'));
});

test('the vote on the one who left: who may vote, the count, when it is over', () => {
  const info = (penalty, extra = {}) => ({ match_stake: 50, stake: 50, penalty, ...extra });
  const fresh = info({ leaver: 1, voters: [0, 2], votes: [], penalised: false });
  assert.deepEqual(penaltyOf(fresh, 0), {
    leaver: 1, voters: [0, 2], votes: [], yes: 0, no: 0, penalised: false, open: true, mayVote: true, myVote: null,
  });
  assert.equal(penaltyOf(fresh, 1).mayVote, false); // the one who left does not vote
  assert.equal(penaltyOf(fresh, 1).open, true);
  assert.equal(penaltyOf(fresh, -1).mayVote, false); // a spectator neither

  const one = info({ leaver: 1, voters: [0, 2], votes: [{ seat: 0, penalise: true }], penalised: false });
  assert.equal(penaltyOf(one, 0).mayVote, false);
  assert.equal(penaltyOf(one, 0).myVote, true);
  assert.equal(penaltyOf(one, 2).mayVote, true);

  const no = info({ leaver: 1, voters: [0, 2], votes: [{ seat: 0, penalise: false }], penalised: false });
  assert.equal(penaltyOf(no, 2).open, false); // one no of two: a majority of yes can no longer be
  assert.equal(penaltyOf(no, 2).mayVote, false);

  const done = info({ leaver: 0, voters: [1], votes: [{ seat: 1, penalise: true }], penalised: true });
  assert.equal(penaltyOf(done, 1).penalised, true);
  assert.equal(penaltyOf(done, 1).open, false);

  assert.equal(penaltyOf(info(null), 0), null); // nothing to vote
  assert.equal(penaltyOf(info(fresh.penalty, { match_stake: 0 }), 0), null); // played for nothing
  assert.equal(penaltyOf(null, 0), null);
});

test('the log says the votes and the penalty', () => {
  const names = ['Ana', 'Bia', 'Caio'];
  const ctx = { me: 0, names, view: null };
  assert.equal(said(describeEvent({ type: 'PenaltyVoted', seat: 2, penalise: true }, ctx)),
    'Caio votou para penalizar quem saiu.');
  assert.equal(said(describeEvent({ type: 'PenaltyVoted', seat: 0, penalise: false }, ctx)),
    'Você votou para não penalizar quem saiu.');
  assert.equal(said(describeEvent({ type: 'LeaverPenalised', seat: 1 }, ctx)), 'Bia foi penalizado: menos 10 XP.');
  assert.equal(said(describeEvent({ type: 'LeaverPenalised', seat: 0 }, ctx)), 'Você foi penalizado: menos 10 XP.');
});

test('the XP ranking keeps its address (por=xp), the wins ranking needs no word', () => {
  const q = { ruleset: 'candeias', category: 'official', period: 'week' };
  assert.equal(rankingPath(q), '/ranking?regra=candeias&modo=oficial&periodo=semana');
  assert.equal(rankingPath({ ...q, by: 'wins' }), '/ranking?regra=candeias&modo=oficial&periodo=semana');
  const xp = rankingPath({ ...q, by: 'xp' });
  assert.equal(xp, '/ranking?regra=candeias&modo=oficial&periodo=semana&por=xp');
  const search = xp.split('?')[1];
  assert.deepEqual(parseRankingSearch(search, RULESETS), q);
  assert.equal(parseRankingBy(search), 'xp');
  assert.equal(parseRankingBy(''), 'wins');
  assert.equal(parseRankingBy('?por=vitorias'), 'wins');
  assert.equal(parseRankingBy('?por=pontos'), 'wins');
  assert.deepEqual(['wins', 'xp'].map((b) => t(`ranking.by.${b}`, {}, 'pt-BR')), ['Vitórias', 'XP']);
});
