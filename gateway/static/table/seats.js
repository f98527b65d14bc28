// The other seats around the table: name, cards in hand, points, dealer, a missed call (and its challenge).

import { backSVG } from '../cards.js';
import { turnsClockwise } from '../catalog.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { autoMark, presenceDot } from './automatic.js';

function miniBacks(n, design) {
  const backs = [];
  for (let i = 0; i < Math.min(n, 8); i += 1) backs.push(h('span', { class: 'mini-back', html: backSVG(design) }));
  return h('span', { class: 'mini-hand', 'aria-hidden': 'true' }, backs);
}

/**
 * The other seats from left to right as this viewer sees them across the table: in playing
 * order from the one after this viewer's (after seat 0 for a spectator) when seats go clockwise
 * (the next player at one's left), in the reverse order when they go counter-clockwise
 * (classic32's "o jogo anda para a direita": the next player at one's right).
 */
export function seatOrder(n, me, clockwise = true) {
  const start = me >= 0 ? me + 1 : 0;
  const order = [];
  for (let k = 0; k < n; k += 1) {
    const s = (start + k) % n;
    if (s !== me) order.push(s);
  }
  return clockwise ? order : order.reverse();
}

export function renderOpponents(p) {
  const { info, view: v } = p.st;
  const tiles = seatOrder(info.players.length, p.me, turnsClockwise(p.rs)).map((seat) => {
    const pl = info.players[seat] || {};
    const count = v.hand_sizes?.[seat] ?? 0;
    const onTurn = v.turn === seat && !v.round_over && info.status === 'playing';
    const inRound = !v.in_round || v.in_round[seat];
    const challenge = p.g.challenges.get(seat);
    const label = `${pl.name || t('seat', { n: seat })}: ${t('table.cards', { n: count })}`;
    return h('li', {
      class: `opponent${onTurn ? ' on-turn' : ''}${inRound ? '' : ' out-of-round'}`, testid: `opponent-${seat}`,
      'data-seat': String(seat), 'aria-label': label, 'aria-current': onTurn ? 'true' : null,
    },
    h('div', { class: 'opp-name' },
      onTurn ? h('span', { class: 'turn-dot', 'aria-hidden': 'true' }, '▶') : null,
      presenceDot(info, seat),
      h('span', { class: 'opp-name-text' }, pl.name || t('seat', { n: seat })),
      pl.bot ? h('span', { class: 'tag tag-bot' }, t('bot')) : null,
      autoMark(info, seat),
      info.options?.teams ? h('span', { class: 'tag' }, seat % 2 === (p.me >= 0 ? p.me % 2 : 0) ? '👥 A' : '👥 B') : null),
    h('div', { class: 'opp-cards' }, miniBacks(count, p.design),
      h('span', { class: 'opp-count', testid: `opponent-count-${seat}` }, String(count),
        h('span', { class: 'opp-count-word' }, ` ${t('table.cards', { n: count }).replace(/^\d+\s*/, '')}`))),
    h('div', { class: 'opp-meta' },
      h('span', { class: 'opp-score' }, t('table.points', { n: v.scores?.[seat] ?? 0 })),
      v.dealer === seat ? h('span', { class: 'tag', title: t('table.dealer') }, 'D') : null,
      v.missed_call === seat ? h('span', { class: 'tag tag-warn' }, t('table.missed')) : null),
    challenge ? h('button', {
      class: 'btn btn-warn btn-small', type: 'button', testid: `btn-challenge-${seat}`, 'data-focus': `challenge-${seat}`,
      onclick: () => p.act(challenge),
    }, info.ruleset === 'colors108' ? t('table.challenge_last') : t('table.challenge')) : null);
  });
  return h('ul', { class: 'opponents', testid: 'opponents', 'data-seating': turnsClockwise(p.rs) ? 'cw' : 'ccw' }, tiles);
}
