// Unit tests of the client's pure parts: node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isSilent } from '../api.js';
import { backSVG, cardPoints, cardSVG, DESIGN_IDS, parseCard } from '../cards.js';
import { cardShort, errorText, listNames, pick, STRINGS, suitText, t, timeAgo } from '../i18n.js';
import { parseTableLink } from '../lobby.js';
import { describeEvent, formatEntry } from '../table/eventlog.js';
import { handCardClass } from '../table/hand.js';
import { companionsOf, groupLegal, isClockwise, pickAnnounce } from '../table/legal.js';
import { seatOrder } from '../table/felt.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

test('every pt-BR string has an English twin and vice versa', () => {
  const pt = Object.keys(STRINGS['pt-BR']);
  const en = Object.keys(STRINGS.en);
  assert.deepEqual(pt.filter((k) => !en.includes(k)), []);
  assert.deepEqual(en.filter((k) => !pt.includes(k)), []);
});

test('refusal codes in Portuguese and English', () => {
  assert.equal(errorText('not_your_turn', 'pt-BR'), 'Não é a sua vez');
  assert.equal(errorText('illegal_card', 'pt-BR'), 'Essa carta não pode ser jogada agora');
  assert.equal(errorText('not_your_turn', 'en'), 'It is not your turn');
  assert.match(errorText('weird_code', 'pt-BR'), /weird_code/);
  for (const code of ['bad_request', 'unknown_table', 'table_exists', 'bad_options', 'bad_invitation', 'not_seated',
    'wrong_seat', 'not_creator', 'table_full', 'match_started', 'not_enough_players', 'creator_stays', 'not_playing',
    'round_in_play', 'no_rematch', 'not_absent', 'table_closed', 'not_your_turn', 'illegal_card', 'illegal_action',
    'card_not_in_hand', 'round_over', 'conflict_retry_exhausted', 'unavailable', 'too_long', 'empty', 'too_fast']) {
    assert.doesNotMatch(errorText(code, 'pt-BR'), /Algo deu errado/, code);
  }
});

test('cards in words and symbols', () => {
  assert.equal(cardShort('7H', 'pt-BR'), '7♥');
  assert.equal(cardShort('10S', 'en'), '10♠');
  assert.equal(cardShort('R7', 'pt-BR'), '7 vermelho');
  assert.equal(cardShort('Gskip', 'en'), 'green skip');
  assert.equal(cardShort('W+4', 'pt-BR'), 'curinga +4');
  assert.equal(suitText('H', 'pt-BR'), '♥ copas');
  assert.equal(suitText('B', 'en'), 'blue');
  assert.equal(listNames(['Ana', 'Tito', 'Luna'], 'pt-BR'), 'Ana, Tito e Luna');
  assert.equal(t('table.draw_n', { n: 4 }, 'pt-BR'), 'COMPRAR 4');
  assert.equal(timeAgo(Date.now() - 5 * 60000, Date.now(), 'pt-BR'), 'há 5 min');
});

test('card names parse and draw', () => {
  assert.deepEqual(parseCard('10S'), { family: 'french', rank: '10', suit: 'S' });
  assert.deepEqual(parseCard('Y+2'), { family: 'colour', colour: 'Y', value: '+2' });
  assert.deepEqual(parseCard('W+4'), { family: 'colour', colour: null, value: 'W+4' });
  assert.equal(parseCard('1H'), null);
  assert.equal(parseCard('<script>'), null);
  const ranks = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
  const names = [];
  for (const s of 'CDHS') for (const r of ranks) names.push(r + s);
  for (const c of 'RGBY') for (const v of ['0', '5', '9', 'skip', 'rev', '+2']) names.push(c + v);
  names.push('W', 'W+4');
  for (const design of DESIGN_IDS) {
    for (const n of names) {
      const svg = cardSVG(n, design);
      assert.match(svg, /^<svg [^>]*viewBox="0 0 100 140"/);
      assert.ok(svg.endsWith('</svg>'));
      assert.doesNotMatch(svg, /undefined|NaN/, `${n} ${design}`);
    }
    assert.match(backSVG(design), /data-back/);
  }
});

test('display points are the ruleset\'s own (GET /api/rulesets)', () => {
  const rs = { points: { JH: 20, W: 50 } };
  assert.equal(cardPoints(rs, 'JH'), 20);
  assert.equal(cardPoints(rs, 'W'), 50);
  assert.equal(cardPoints(rs, '7H'), 0);
  assert.equal(cardPoints(null, 'JH'), 0);
});

test('labels in the current language, pt-BR when the other is missing', () => {
  assert.equal(pick({ 'pt-BR': 'Baralho', en: 'Deck' }, 'en'), 'Deck');
  assert.equal(pick({ 'pt-BR': 'Baralho' }, 'en'), 'Baralho');
  assert.equal(pick(undefined, 'en'), '');
});

test('table links', () => {
  globalThis.location = { origin: 'http://x.test' };
  assert.equal(parseTableLink('http://x.test/m/abc123?c=tok'), '/m/abc123?c=tok');
  assert.equal(parseTableLink('/m/abc123'), '/m/abc123');
  assert.equal(parseTableLink('http://x.test/other'), null);
});

test('direction: as the table\'s seats go (the catalog\'s turns), reversed by a reverse', () => {
  assert.equal(isClockwise(true, 1), true); // classic52
  assert.equal(isClockwise(true, -1), false);
  assert.equal(isClockwise(false, 1), false); // classic32, candeias, colors108
  assert.equal(isClockwise(false, -1), true);
});

test('the other seats from left to right: the next player at one\'s left clockwise, at one\'s right counter-clockwise', () => {
  assert.deepEqual(seatOrder(4, 1), [2, 3, 0]);
  assert.deepEqual(seatOrder(4, 1, true), [2, 3, 0]);
  assert.deepEqual(seatOrder(4, 1, false), [0, 3, 2]);
  assert.deepEqual(seatOrder(3, -1, false), [2, 1, 0]); // a spectator
  assert.deepEqual(seatOrder(2, 0, false), [1]);
});

test('ace_with_company: an Ace\'s plays by companion', () => {
  const plays = [
    { do: 'play', card: 'AH', with: '9H' }, { do: 'play', card: 'AH', with: '9H', announce: 'mau' },
    { do: 'play', card: 'AH', with: 'JC', choose: 'C' }, { do: 'play', card: 'AH', with: 'JC', choose: 'D' },
  ];
  const by = companionsOf(plays);
  assert.deepEqual([...by.keys()], ['9H', 'JC']);
  assert.equal(by.get('JC').length, 2);
  assert.equal(pickAnnounce(by.get('9H'), true).announce, 'mau');
  assert.equal(companionsOf([{ do: 'play', card: '9H' }]).size, 0);
  assert.equal(companionsOf(undefined).size, 0);
});

test('legal actions grouped, calls picked from them', () => {
  const legal = [
    { do: 'play', card: 'JH', choose: 'C' }, { do: 'play', card: 'JH', choose: 'D' },
    { do: 'play', card: '9H', announce: 'mau' }, { do: 'play', card: '9H' },
    { do: 'draw' }, { do: 'challenge', target: 2 }, { do: 'double', cards: ['5H', '5H'] },
  ];
  const g = groupLegal(legal);
  assert.equal(g.plays.get('JH').length, 2);
  assert.ok(g.draw && !g.pass);
  assert.ok(g.challenges.has(2));
  assert.ok(g.doubles.has('5H'));
  assert.deepEqual([...g.announces], ['mau']);
  assert.deepEqual(pickAnnounce(g.plays.get('9H'), true), { do: 'play', card: '9H', announce: 'mau' });
  assert.deepEqual(pickAnnounce(g.plays.get('9H'), false), { do: 'play', card: '9H' });
  assert.deepEqual(pickAnnounce([{ do: 'play', card: '8H' }], true), { do: 'play', card: '8H' });
});

test('events become log lines', () => {
  const names = ['Ana', 'Carmen', 'Tito'];
  const fmt = (ev, me = 0, view = null) => describeEvent(ev, { me, names, view }).map(formatEntry);
  globalThis.localStorage = undefined;
  assert.deepEqual(fmt({ type: 'ActionTaken', action: { seat: 1, do: 'play', card: '7H' }, draws: [], reshuffles: 0 }),
    ['Carmen jogou 7♥']);
  assert.deepEqual(fmt({ type: 'ActionTaken', action: { seat: 0, do: 'draw' }, draws: [{ seat: 0, count: 2, cards: ['8C', '9D'] }], reshuffles: 0 }),
    ['Você comprou 2 cartas: 8♣, 9♦.']);
  assert.deepEqual(fmt({ type: 'ActionTaken', action: { seat: 1, do: 'play', card: 'JC', choose: 'S', announce: 'mau' }, draws: [], reshuffles: 0 }),
    ['Carmen jogou J♣ e pediu ♠ espadas — "Mau!"']);
  assert.deepEqual(fmt({ type: 'ActionTaken', action: { seat: 2, do: 'play', card: '9C' }, draws: [{ seat: 2, count: 2 }], reshuffles: 0 }),
    ['Tito jogou 9♣', 'Tito esqueceu de dizer “Mau”: +2 cartas de castigo.']);
  assert.deepEqual(fmt({ type: 'ActionTaken', action: { seat: 0, do: 'play', card: '9C' }, draws: [{ seat: 0, count: 2, cards: ['7H', 'AS'] }], reshuffles: 0 }),
    ['Você jogou 9♣', 'Você esqueceu de dizer “Mau”: +2 cartas de castigo: 7♥, A♠.']);
  assert.deepEqual(fmt({ type: 'ActionTaken', action: { seat: 1, do: 'challenge', target: 0 }, draws: [{ seat: 0, count: 2, cards: ['7H', 'AS'] }], reshuffles: 0 }),
    ['Carmen denunciou você: esqueceu de avisar!', 'Você não avisou a tempo: +2 cartas de castigo: 7♥, A♠.']);
  assert.deepEqual(fmt({ type: 'RoundEnded', winner: 1, round_points: [0, 30, 0], scores: [0, 30, 0], match_over: false, match_winners: [] },
    0, { revealed_hands: [['7H'], ['8C'], ['9D']] }), ['A MESA TRAVOU — Carmen vence a rodada.']);
  assert.deepEqual(fmt({ type: 'RoundEnded', winner: 0, round_points: [30, 0, 0], scores: [230, 0, 0], match_over: true, match_winners: [0] },
    0, { revealed_hands: [[], ['8C'], ['9D']] }), ['Você bateu e venceu a rodada!', 'Você venceu a partida!']);
});

test('a penalty says its cause in the words of its ruleset', () => {
  const names = ['Ana', 'Bia'];
  const fmt = (call, ev) => describeEvent(ev, { me: 0, names, call, view: null }).map(formatEntry);
  const missed = { type: 'ActionTaken', action: { seat: 1, do: 'play', card: '5H' }, draws: [{ seat: 1, count: 2 }], reshuffles: 0 };
  assert.equal(fmt('maumau', missed)[1], 'Bia esqueceu de dizer “Mau-Mau”: +2 cartas de castigo.');
  assert.equal(fmt('last', missed)[1], 'Bia esqueceu de dizer “Última”: +2 cartas de castigo.');
  const wild = (seat) => ({ type: 'ActionTaken', action: { seat: 0, do: 'challenge_wild' }, draws: [{ seat, count: seat === 0 ? 6 : 4 }], reshuffles: 0 });
  assert.equal(fmt('last', wild(1))[1], 'Bia foi pego no blefe do +4: +4 cartas.');
  assert.equal(fmt('last', wild(0))[1], 'Você gritou mentira sem razão: +6 cartas.');
});

test('a socket silent for three pings is given up, not before', () => {
  assert.equal(isSilent(0, 45000), false);
  assert.equal(isSilent(0, 45001), true);
  assert.equal(isSilent(1000, 20000), false);
});

test('the hand keeps its colour while others play; on its own turn what cannot be played steps back', () => {
  assert.equal(handCardClass({ picked: false, ok: false, myTurn: false }), 'hand-card');
  assert.equal(handCardClass({ picked: false, ok: false, myTurn: true }), 'hand-card dimmed');
  assert.equal(handCardClass({ picked: false, ok: true, myTurn: false }), 'hand-card playable'); // a quick play, out of turn
  assert.equal(handCardClass({ picked: true, ok: false, myTurn: true }), 'hand-card picked');
});

test('a draw that the turn does not survive says so', () => {
  const names = ['Ana', 'Bia'];
  const fmt = (ev, passed) => describeEvent(ev, { me: 0, names, view: null, passed }).map(formatEntry);
  const drew = (count) => ({ type: 'ActionTaken', action: { seat: 0, do: 'draw' }, draws: [{ seat: 0, count, cards: count === 1 ? ['9S'] : ['9S', '8C'] }], reshuffles: 0 });
  assert.deepEqual(fmt(drew(1), true), ['Você comprou 1 carta: 9♠. Não serviu: a vez passou.']);
  assert.deepEqual(fmt(drew(1), false), ['Você comprou 1 carta: 9♠.']); // it fits: the choice is the player's
  assert.deepEqual(fmt(drew(2), true), ['Você comprou 2 cartas: 9♠, 8♣. A vez passou.']); // a 7's draw taken
});

test('a goal of one point is one "ponto", of more "pontos", in both languages', () => {
  assert.equal(t('table.goal', { n: 1 }, 'pt-BR'), 'Meta: 1 ponto');
  assert.equal(t('table.goal', { n: 400 }, 'pt-BR'), 'Meta: 400 pontos');
  assert.equal(t('table.goal_low', { n: 1 }, 'en'), 'Goal: 1 point (lowest total wins)');
});
