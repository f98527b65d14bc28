// The game region of the table screen: the felt with everyone at it, the actions legal now, the
// hand (or a spectator's note), and what opens over them (a round's review, a suit to choose).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { renderActions, renderGiveUp } from './actions.js';
import { renderAutoMode } from './automatic.js';
import { renderFelt } from './board.js';
import { renderChooser, renderCompanion } from './chooser.js';
import { renderHand } from './hand.js';
import { renderMenuButton } from './menu.js';
import { renderReview } from './review.js';

/** What the seated player may do under the felt: the actions, the hand, a choice in progress. */
function playerParts(p) {
  const { info, view: v } = p.st;
  if (!p.seated) return [h('p', { class: 'notice spectator-hand', testid: 'spectator-hand' }, t('table.spectator'))];
  return [
    info.status === 'playing' && !v.round_over ? renderActions(p) : null,
    renderHand(p),
    p.st.companion ? renderCompanion(p) : null,
    p.st.chooser ? renderChooser(p) : null,
  ];
}

/** The region's parts: a round's review first (the felt under it), else the felt, the actions and the hand. */
export function renderGame(p) {
  const { info } = p.st;
  const review = renderReview(p);
  const felt = renderFelt(p, renderMenuButton(p));
  const shown = review && !p.st.reviewHidden;
  return [
    ...(shown ? [review, felt] : [felt, review, ...playerParts(p)]),
    renderAutoMode(p), // automatic mode: its switch, or "Voltar a jogar"
    p.seated && info.status === 'playing' ? renderGiveUp(p) : null,
  ];
}
