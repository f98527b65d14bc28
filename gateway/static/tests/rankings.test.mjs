// Unit tests of the rankings', profiles' and avatars' pure parts: node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AVATAR_IDS, avatarSVG, isAvatar, nameColour } from '../avatars.js';
import { errorText, t } from '../i18n.js';
import {
  categoryMark, matchSummary, parseProfilePath, parseRankingSearch, percent, periodCaption, profilePath, rankingPath,
  sameName, sinceText,
} from '../rankings.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const RULESETS = ['classic32', 'classic52', 'candeias', 'colors108'];

test('a ranking address says its ruleset, category and period in Portuguese, and reads back', () => {
  assert.equal(rankingPath({ ruleset: 'candeias', category: 'official', period: 'today' }),
    '/ranking?regra=candeias&modo=oficial&periodo=hoje');
  assert.equal(rankingPath({ ruleset: 'classic32', category: 'training', period: 'month' }),
    '/ranking?regra=classic32&modo=treino&periodo=mes');
  for (const category of ['official', 'training']) {
    for (const period of ['today', 'week', 'month', 'season', 'all']) {
      const q = { ruleset: 'colors108', category, period };
      assert.deepEqual(parseRankingSearch(rankingPath(q).split('?')[1], RULESETS), q);
    }
  }
});

test('a ranking address with nothing or nonsense in it shows the first ruleset, OFICIAL, Hoje', () => {
  const first = { ruleset: 'classic32', category: 'official', period: 'today' };
  assert.deepEqual(parseRankingSearch('', RULESETS), first);
  assert.deepEqual(parseRankingSearch('?regra=poker&modo=x&periodo=ontem', RULESETS), first);
  assert.deepEqual(parseRankingSearch('?periodo=historico', RULESETS), { ...first, period: 'all' });
});

test('a profile address holds any name, encoded', () => {
  assert.equal(profilePath('Zoë Maria'), '/jogador/Zo%C3%AB%20Maria');
  assert.equal(parseProfilePath('/jogador/Zo%C3%AB%20Maria'), 'Zoë Maria');
  assert.equal(parseProfilePath(profilePath('a/b?c#d')), 'a/b?c#d');
  assert.equal(parseProfilePath('/jogador/Ana/'), 'Ana');
  assert.equal(parseProfilePath('/jogador/'), null);
  assert.equal(parseProfilePath('/jogador/%E0%A4%A'), null); // broken encoding
  assert.equal(parseProfilePath('/jogador/%20'), null);
  assert.equal(parseProfilePath('/m/abc'), null);
});

test('names are one account whatever their case and accents', () => {
  assert.ok(sameName('Zoë', 'ZOE'));
  assert.ok(sameName('ana  maria', 'Ana Maria'));
  assert.ok(!sameName('Ana', 'Anna'));
  assert.ok(!sameName('', ''));
  assert.ok(!sameName(undefined, 'Ana'));
});

test('official and training are marked as the seeds write them', () => {
  assert.deepEqual(categoryMark('official', 'pt-BR'), { icon: '👥', text: 'OFICIAL' });
  assert.deepEqual(categoryMark('training', 'pt-BR'), { icon: '🤖', text: 'TREINO' });
  assert.deepEqual(categoryMark('training', 'en'), { icon: '🤖', text: 'TRAINING' });
  assert.equal(categoryMark('', 'pt-BR'), null);
  assert.equal(categoryMark(undefined, 'pt-BR'), null);
});

test('the periods in the players’ words, Hoje to Histórico', () => {
  assert.deepEqual(['today', 'week', 'month', 'season', 'all'].map((p) => t(`ranking.period.${p}`, {}, 'pt-BR')),
    ['Hoje', 'Semana', 'Mês', 'Temporada', 'Histórico']);
  assert.equal(periodCaption('today', '2026-12-01', 'pt-BR'), '1 de dezembro de 2026');
  assert.equal(periodCaption('today', '2026-12-01', 'en'), '1 December 2026');
  assert.equal(periodCaption('week', '2026-W49', 'pt-BR'), 'semana 49 de 2026');
  assert.equal(periodCaption('month', '2026-11', 'pt-BR'), 'novembro de 2026');
  assert.equal(periodCaption('season', '2026-T4', 'pt-BR'), 'temporada 4 de 2026 (out–dez)');
  assert.equal(periodCaption('season', '2027-T1', 'en'), 'season 1 of 2027 (Jan–Mar)');
  assert.equal(periodCaption('all', 'all', 'pt-BR'), 'desde o começo');
  assert.equal(periodCaption('today', '', 'pt-BR'), ''); // not loaded yet
});

test('win rates, wins and the member’s date', () => {
  assert.equal(percent(0.667, 'pt-BR').replace(/\s/gu, ' '), '67%');
  assert.equal(percent(1, 'en'), '100%');
  assert.equal(percent(0, 'pt-BR'), '0%');
  assert.equal(t('ranking.wins_n', { n: 1 }, 'pt-BR'), '1 vitória');
  assert.equal(t('ranking.wins_n', { n: 3 }, 'pt-BR'), '3 vitórias');
  assert.equal(t('ranking.position', { n: 1 }, 'pt-BR'), '1º');
  assert.equal(t('ranking.position', { n: 3 }, 'en'), '#3');
  assert.equal(sinceText('2026-12-01T15:00:00+00:00', 'pt-BR'), 'Joga desde dezembro de 2026');
  assert.equal(sinceText('nonsense', 'pt-BR'), '');
  assert.equal(errorText('unknown_player', 'pt-BR'), 'Esse jogador não existe');
});

test('a match of the history: result, opponents, and how it ended, said of this player', () => {
  const players = [{ seat: 0, name: 'Ana', bot: false, won: true }, { seat: 1, name: 'Rui', bot: false, won: false },
    { seat: 2, name: 'Tito', bot: true, won: false }];
  const m = { table_id: 't1', match_no: 1, seat: 1, won: false, left: true, end_reason: 'gave_up', players };
  assert.deepEqual(matchSummary(m, 'pt-BR'), { result: 'lost', opponents: 'contra Ana e Tito (robô)', ended: 'desistiu' });
  assert.deepEqual(matchSummary({ ...m, seat: 0, won: true, left: false }, 'pt-BR'),
    { result: 'won', opponents: 'contra Rui e Tito (robô)', ended: 'o adversário desistiu' });
  assert.equal(matchSummary({ ...m, end_reason: 'played', left: false }, 'pt-BR').ended, 'jogada até o fim');
  assert.equal(matchSummary({ ...m, end_reason: 'absence' }, 'pt-BR').ended, 'encerrada pela ausência');
  assert.equal(matchSummary({ ...m, end_reason: 'absence', left: false }, 'en').ended, "ended by an opponent's absence");
  assert.equal(matchSummary({ ...m, end_reason: 'expired', left: false }, 'pt-BR').ended, 'mesa expirada');
  assert.equal(matchSummary({ ...m, end_reason: 'something new' }, 'pt-BR').ended, 'jogada até o fim');
  assert.equal(matchSummary({ ...m, players: [players[1]] }, 'pt-BR').opponents, '');
});

test('about a dozen avatars, named as the accounts service takes them, each labelled in both languages', () => {
  assert.ok(AVATAR_IDS.length >= 12);
  assert.equal(new Set(AVATAR_IDS).size, AVATAR_IDS.length);
  for (const id of AVATAR_IDS) {
    assert.match(id, /^[a-z0-9-]{1,32}$/);
    assert.ok(isAvatar(id));
    assert.notEqual(t(`avatar.${id}`, {}, 'pt-BR'), `avatar.${id}`);
    assert.notEqual(t(`avatar.${id}`, {}, 'en'), t(`avatar.${id}`, {}, 'pt-BR'));
  }
  assert.ok(!isAvatar('') && !isAvatar('nope'));
});

test('avatars are plain SVG: no style attribute (the CSP), no text, no ids to collide on a page', () => {
  for (const id of [...AVATAR_IDS, '', 'unknown-one']) {
    const svg = avatarSVG(id, 'Ana');
    assert.match(svg, /^<svg [^>]*viewBox="0 0 64 64"[^>]*>.*<\/svg>$/s);
    assert.doesNotMatch(svg, /style=|<text|\sid=|<script|NaN|undefined/);
  }
  assert.notEqual(avatarSVG('gato'), avatarSVG('coruja'));
  assert.equal(avatarSVG('', 'Ana'), avatarSVG('nope', 'ANA')); // the plain one, a colour of the name
  assert.notEqual(avatarSVG('', 'Carmen', true), avatarSVG('', 'Carmen')); // a bot's is a robot, not a person
  assert.equal(avatarSVG('gato', 'Carmen', true), avatarSVG('gato')); // a drawing chosen is shown as chosen
  assert.doesNotMatch(avatarSVG('', 'Carmen', true), /style=|<text|\sid=|NaN|undefined/);
  assert.equal(nameColour('Ana'), nameColour('ana'));
  assert.match(nameColour('Zoë'), /^#[0-9a-f]{6}$/);
});
