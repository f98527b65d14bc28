// The felt: an oval table with the seats around its rim (table/seats.js), the stock, the pile and
// the turn in its middle (table/centre.js), the direction and the menu in its lower corners (the
// rim's top is the seats').

import { h } from '../dom.js';
import { renderCentre, renderDirection } from './centre.js';
import { renderSeats } from './seats.js';

/** The felt with everyone at it; `corner`: what goes in its lower right corner (the menu), if anything. */
export function renderFelt(p, corner = null) {
  const n = p.st.info.players.length;
  return h('div', { class: `felt-wrap${n > 6 ? ' crowded' : ''}`, testid: 'felt', 'data-seats': String(n) },
    h('div', { class: 'felt', 'aria-hidden': 'true' }),
    renderSeats(p),
    renderCentre(p),
    h('div', { class: 'felt-corner felt-corner-left' }, renderDirection(p)),
    corner ? h('div', { class: 'felt-corner felt-corner-right' }, corner) : null);
}
