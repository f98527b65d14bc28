// The round review (Conferência da Rodada: every hand revealed with its points and the totals),
// the match's end (why, who won) and the rematch; or the button that brings the review back.

import { cardPoints, cardSVG, parseCard } from '../cards.js';
import { h } from '../dom.js';
import { cardLabel, listNames, t } from '../i18n.js';
import { matchStakeLine, renderPenaltyVote } from '../competitiveui.js';

const TITLE_ID = 'review-title';

function roundParts(p) {
  const { info, view: v, seed } = p.st;
  const parts = [];
  const winner = v.round_winner;
  const revealed = v.revealed_hands || [];
  const blocked = winner !== null && winner !== undefined && (revealed[winner] || []).length > 0;
  parts.push(h('h2', { id: TITLE_ID }, info.ruleset === 'candeias' ? t('review.title_candeias') : t('review.title'),
    ' · ', t('table.round_no', { n: v.rounds_played })));
  if (blocked) parts.push(h('p', { class: 'blocked', testid: 'table-blocked' }, t('review.blocked')));
  if (winner !== null && winner !== undefined) {
    parts.push(h('p', { class: 'review-headline', testid: 'review-headline' }, blocked ? t('review.blocked_win', { name: p.nameOf(winner) })
      : (winner === p.me ? t('review.you_went_out') : t('review.went_out', { name: p.nameOf(winner) }))));
    if (info.ruleset === 'candeias' && !blocked && parseCard(v.top)?.rank === 'J') parts.push(h('p', { class: 'doubled' }, t('review.doubled')));
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
  if (seed) parts.push(h('p', { class: 'muted seed', title: seed }, `${t('log.seed')} ${seed.slice(0, 16)}…`));
  return parts;
}

function rematch(p) {
  const { info } = p.st;
  const votes = info.rematch || [];
  if (info.rematch_closed) return [h('p', { class: 'muted', testid: 'rematch-closed' }, t('match.rematch_closed'))];
  const parts = [];
  if (votes.length) parts.push(h('p', { class: 'muted', testid: 'rematch-votes' }, t('match.rematch_votes', { names: listNames(votes.map(p.nameOf)) })));
  // open until every person answers: all accept (a new match starts) or one declines (closed for everyone)
  const decline = h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-rematch-no', 'data-focus': 'rematch-no',
    onclick: () => p.send({ rematch: { accept: false } }) }, t('match.rematch_no'));
  if (p.seated && !votes.includes(p.me)) {
    parts.push(h('div', { class: 'row' },
      h('button', { class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-rematch', 'data-focus': 'rematch',
        onclick: () => p.send({ rematch: { accept: true } }) }, t('match.rematch')), decline));
  } else if (p.seated) {
    parts.push(h('p', { class: 'muted', testid: 'rematch-waiting' }, t('match.rematch_waiting')), h('div', { class: 'row' }, decline));
  }
  return parts;
}

function matchParts(p) {
  const { info, view: v } = p.st;
  const by = info.ended_by;
  const ended = info.status === 'ended';
  const winners = info.winners || [];
  const parts = [h('h2', { class: 'match-title', id: v.round_over ? null : TITLE_ID }, t('match.over'))];
  if (ended) {
    const reason = info.end_reason || '';
    if (reason === 'expired') parts.push(h('p', {}, t('match.ended.expired')));
    else if (reason && by !== null && by !== undefined && by >= 0) parts.push(h('p', {}, t(`match.ended.${reason}`, { name: p.nameOf(by) })));
  }
  if (winners.length) {
    parts.push(h('p', { class: 'match-winner', testid: 'match-winner' }, winners.includes(p.me) && winners.length === 1
      ? t('match.you_won') : t('match.winner', { names: listNames(winners.map(p.nameOf)), n: winners.length })));
  }
  parts.push(matchStakeLine(p), renderPenaltyVote(p)); // ⚔ the pot, and "Penalizar quem saiu?"
  if (info.status === 'over') parts.push(...rematch(p));
  if (p.seated) parts.push(p.offerAccount()); // a guest's tables are kept only on this device: offer to keep them
  if (!p.replay) { // "Rever partida": the match step by step, as this person saw it (replay.js)
    parts.push(h('a', { href: `/m/${encodeURIComponent(p.tableId)}/rever?partida=${info.match_no || 0}`, 'data-link': true,
      class: 'btn btn-small', testid: 'btn-replay' }, `⏪ ${t('replay.open')}`));
  }
  parts.push(h('a', { href: '/', 'data-link': true, class: 'btn btn-ghost btn-small' }, t('match.home')));
  return parts;
}

/** The review, the button to show it again (hidden), or null while a round is played. */
export function renderReview(p) {
  const { info, view: v, reviewHidden } = p.st;
  const ended = info.status === 'ended';
  if (!v.round_over && !ended) return null;
  if (reviewHidden) {
    return h('button', { class: 'btn btn-small review-show', type: 'button', testid: 'btn-review-show',
      onclick: () => p.set({ reviewHidden: false }) }, t('review.show'));
  }
  const parts = v.round_over ? roundParts(p) : [];
  if (info.status === 'over' || ended) {
    parts.push(...matchParts(p));
  } else if (v.round_over && p.seated && info.status === 'playing') {
    parts.push(h('div', { class: 'row' }, h('button', {
      class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-next-round', 'data-focus': 'next-round',
      onclick: () => p.send({ next_round: {} }),
    }, t('review.next'))));
  }
  parts.push(h('button', { class: 'btn btn-ghost btn-small review-hide', type: 'button', testid: 'btn-review-hide',
    onclick: () => p.set({ reviewHidden: true }) }, t('review.hide')));
  return h('section', { class: 'review', testid: 'round-review', role: 'dialog', 'aria-labelledby': TITLE_ID }, parts);
}
