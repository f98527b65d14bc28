// QUAL NAIPE? / QUAL COR?: the suit or colour a Jack or a wild asks (or the dealer's, for a Jack starter);
// and, at ace_with_company tables, the Ace waiting for the card that goes with it.

import { cardSVG, COLOURS, suitSVG } from '../cards.js';
import { h } from '../dom.js';
import { cardLabel, suitText, t } from '../i18n.js';

export function renderChooser(p) {
  const c = p.st.chooser;
  const colours = c.choices.every((x) => 'RGBY'.includes(x)); // the French suits are C D H S
  const close = () => p.set({ chooser: null });
  const buttons = c.choices.map((x) => h('button', {
    class: `btn choose-btn${colours ? ' choose-colour' : ''}`, type: 'button', testid: colours ? `color-${x}` : `suit-${x}`,
    'aria-label': suitText(x), onclick: () => p.onChoose(x),
  }, colours ? h('span', { class: 'swatch', style: { background: COLOURS[x] } }) : h('span', { html: suitSVG(x, 'classic', 34) }),
  h('span', { class: 'choose-name' }, colours ? suitText(x) : t(`suit.${x}`))));
  return h('div', {
    class: 'chooser', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'chooser-title', testid: colours ? 'color-chooser' : 'suit-chooser',
    onkeydown: (e) => { if (e.key === 'Escape' && !c.forced) close(); },
  },
  h('h3', { id: 'chooser-title' }, colours ? t('table.which_color') : t('table.which_suit')),
  c.card ? h('div', { class: 'chooser-card card-face', html: cardSVG(c.card, p.design) }) : null,
  h('div', { class: 'chooser-buttons' }, buttons),
  c.forced ? null : h('button', { class: 'btn btn-ghost btn-small', type: 'button', testid: 'btn-choose-cancel', onclick: close }, t('cancel')));
}

/** ace_with_company: the Ace picked, its companion to pick from the hand (the cards that fit stand out). */
export function renderCompanion(p) {
  const c = p.st.companion;
  return h('div', { class: 'companion', role: 'status', testid: 'companion-picker', 'data-card': c.card },
    h('div', { class: 'chooser-card card-face', html: cardSVG(c.card, p.design) }),
    h('p', {}, h('strong', {}, t('table.companion_title')), ' ', t('table.companion_hint', { card: cardLabel(c.card) })),
    h('button', { class: 'btn btn-ghost btn-small', type: 'button', testid: 'btn-companion-cancel', 'data-focus': 'companion-cancel',
      onclick: () => p.set({ companion: null }) }, t('cancel')));
}
