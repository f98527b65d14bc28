// The replay's views that need nothing of its player (replay.js): every hand for staff, whose eyes it shows.

import { cardSVG } from './cards.js';
import { h } from './dom.js';
import { cardLabel, t } from './i18n.js';

/** Staff see every hand, at every step. */
export function allHands(p) {
  const hands = p.st.view?.hands;
  if (!hands) return null;
  return h('section', { class: 'replay-hands', testid: 'replay-hands', 'aria-label': t('replay.hands') },
    hands.map((cards, seat) => h('div', { class: 'replay-hand', testid: `replay-hand-${seat}` },
      h('span', { class: 'replay-hand-name' }, p.nameOf(seat)),
      h('span', { class: 'replay-hand-cards' }, cards.length ? cards.map((c) => h('span', {
        class: 'card-face mini-face', role: 'img', 'aria-label': cardLabel(c), 'data-card': c, html: cardSVG(c, p.design),
      })) : h('span', { class: 'muted' }, '—')))));
}

/** Whose eyes the replay shows: a seat's, a spectator's, or staff's. */
export function viewerLine(viewer) {
  const kind = viewer === 'staff' ? 'staff' : viewer === 'seat' ? 'seat' : 'spectator';
  return h('p', { class: `muted replay-who replay-who-${kind}`, testid: 'replay-who' }, t(`replay.as_${kind}`));
}
