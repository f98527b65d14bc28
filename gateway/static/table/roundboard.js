// A round's board (Conferência da Rodada): every hand revealed (card by card: animate.js) with its points, the
// round's points and the totals. Shown alone at a round's end (review.js), and under the
// standings at the match's end (matchend.js), titled as the last round there.

import { cardPoints, cardSVG } from '../cards.js';
import { roundTitle } from '../catalog.js';
import { h } from '../dom.js';
import { cardLabel, t } from '../i18n.js';

/** The board's parts: `titleId` names the dialog's title (null: the board is under another). */
export function renderRoundBoard(p, { titleId = null, last = false } = {}) {
  const { info, view: v, seed } = p.st;
  const parts = [];
  const winner = v.round_winner;
  const revealed = v.revealed_hands || [];
  const blocked = winner !== null && winner !== undefined && (revealed[winner] || []).length > 0;
  const title = last ? t('review.last_round', { n: v.rounds_played })
    : [roundTitle(p.rs), ' · ', t('table.round_no', { n: v.rounds_played })];
  parts.push(h(last ? 'h3' : 'h2', { id: titleId, class: 'round-board-title' }, title));
  if (blocked) parts.push(h('p', { class: 'blocked', testid: 'table-blocked' }, t('review.blocked')));
  if (winner !== null && winner !== undefined) {
    parts.push(h('p', { class: 'review-headline', testid: 'review-headline' }, blocked ? t('review.blocked_win', { name: p.nameOf(winner) })
      : (winner === p.me ? t('review.you_went_out') : t('review.went_out', { name: p.nameOf(winner) }))));
    if (v.points_doubled) parts.push(h('p', { class: 'doubled' }, t('review.doubled')));
  }
  const rows = info.players.map((_, seat) => {
    if (v.in_round && !v.in_round[seat]) return null;
    const cards = revealed[seat] || [];
    const handPts = cards.reduce((sum, c) => sum + cardPoints(p.rs, c), 0);
    return h('tr', { class: seat === winner ? 'winner' : '', testid: `review-row-${seat}` },
      h('th', { scope: 'row' }, p.nameOf(seat)),
      h('td', { class: 'review-cards' }, cards.length
        ? cards.map((c) => h('span', { class: 'review-card' },
          h('span', { class: 'card-face mini-face', role: 'img', 'aria-label': cardLabel(c), html: cardSVG(c, p.design) }),
          h('small', {}, String(cardPoints(p.rs, c)))))
        : h('span', { class: 'muted' }, '—'),
      cards.length ? h('small', { class: 'muted hand-points' }, t('review.hand_points', { n: handPts })) : null),
      h('td', { class: 'num' }, v.round_points?.[seat] ? `+${v.round_points[seat]}` : '0'),
      h('td', { class: 'num total' }, String(v.scores?.[seat] ?? 0)));
  });
  parts.push(h('div', { class: 'review-table-wrap' }, h('table', { class: 'review-table', testid: 'review-table' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, ''), h('th', { class: 'num' }, t('review.round_points')), h('th', { class: 'num' }, t('review.total')))),
    h('tbody', {}, rows))));
  if (seed) parts.push(h('p', { class: 'muted seed' }, `${t('log.seed')} `, h('code', { class: 'seed-value', title: seed }, `${seed.slice(0, 16)}…`)));
  return parts;
}
