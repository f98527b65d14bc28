// The board that covers the table at a round's end (roundboard.js, and PRÓXIMA RODADA) or at the
// match's end (matchend.js: its own screen); or, put away, the button that brings it back. One
// dialog for both (`round-review`), so "Ver a mesa" works alike.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { renderMatchEnd } from './matchend.js';
import { renderRoundBoard } from './roundboard.js';

const TITLE_ID = 'review-title';

/** The review, the button to show it again (hidden), or null while a round is played. */
export function renderReview(p) {
  const { info, view: v, reviewHidden } = p.st;
  const matchOver = info.status === 'over' || info.status === 'ended';
  if (!v.round_over && !matchOver) return null;
  if (reviewHidden) {
    return h('button', { class: 'btn btn-small review-show', type: 'button', testid: 'btn-review-show',
      onclick: () => p.set({ reviewHidden: false }) }, t('review.show'));
  }
  const parts = matchOver ? [renderMatchEnd(p, TITLE_ID)] : renderRoundBoard(p, { titleId: TITLE_ID });
  if (!matchOver && p.seated && info.status === 'playing') {
    parts.push(h('div', { class: 'row' }, h('button', {
      class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-next-round', 'data-focus': 'next-round',
      onclick: () => p.send({ next_round: {} }),
    }, t('review.next'))));
  }
  parts.push(h('button', { class: 'btn btn-ghost btn-small review-hide', type: 'button', testid: 'btn-review-hide',
    onclick: () => p.set({ reviewHidden: true }) }, t('review.hide')));
  return h('section', { class: `review${matchOver ? ' review-match' : ''}`, testid: 'round-review', role: 'dialog', 'aria-labelledby': TITLE_ID }, parts);
}
