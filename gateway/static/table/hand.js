// This viewer's hand, in full colour: the cards that may be played stand out (and, on the player's own
// turn, the others step back); a tap plays, a mouse may drag a card onto the pile; arrows move along it.

import { cardSVG } from '../cards.js';
import { cardEffect } from '../catalog.js';
import { h } from '../dom.js';
import { cardLabel, t } from '../i18n.js';
import { dragCard, endsDrag } from './drag.js';
import { companionsOf } from './legal.js';

const KEYS = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];

function playable(p, name) {
  const { g } = p;
  if (p.st.companion) return companionsOf(p.st.companion.actions).has(name);
  if (p.st.doubleMode) return g.doubles.has(name);
  return g.plays.has(name) || g.burn.some((a) => a.card === name) || g.quick.some((a) => a.card === name);
}

function moveFocus(container, e) {
  if (!KEYS.includes(e.key)) return;
  const all = [...container.querySelectorAll('.hand-card')];
  const idx = all.indexOf(document.activeElement);
  if (idx < 0) return;
  e.preventDefault();
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? all.length - 1
    : (idx + (e.key === 'ArrowRight' ? 1 : -1) + all.length) % all.length;
  all[next].focus();
}

/** A card's look: lifted when it may be played now; dimmed only on one's own turn, when the choice is the player's. */
export function handCardClass({ picked, ok, myTurn }) {
  if (picked) return 'hand-card picked';
  if (ok) return 'hand-card playable';
  return myTurn ? 'hand-card dimmed' : 'hand-card';
}

export function renderHand(p) {
  const seen = {};
  const ace = p.st.companion?.card;
  const myTurn = p.st.view.turn === p.me && !p.st.view.round_over;
  const cards = (p.st.view.hand || []).map((name) => {
    seen[name] = (seen[name] || 0) + 1;
    const picked = name === ace && seen[name] === 1; // the Ace waiting for its companion
    const ok = playable(p, name);
    return h('button', {
      class: handCardClass({ picked, ok, myTurn }), type: 'button', testid: `card-${name}`,
      'data-card': name, 'data-focus': `card-${name}-${seen[name]}`, 'aria-disabled': ok || picked ? 'false' : 'true',
      'aria-pressed': picked ? 'true' : null,
      'aria-label': cardLabel(name),
      onclick: (e) => { if (!endsDrag()) p.onCard(name, e.currentTarget); },
      onpointerdown: ok ? (e) => {
        const btn = e.currentTarget; // the event's is gone by the drop
        dragCard(e, btn, () => p.onCard(name, btn));
      } : null,
    }, h('span', { class: 'card-face', 'aria-hidden': 'true', // the button's name is the card's spoken name
      html: cardSVG(name, p.design, { effect: cardEffect(p.rs, p.st.info.options, name) }) }));
  });
  const container = h('div', {
    class: `hand${p.st.doubleMode ? ' double-mode' : ''}${ace ? ' companion-mode' : ''}`, testid: 'hand', role: 'group', 'aria-label': t('table.my_hand'),
    style: { '--n': String(cards.length) }, // how much the cards overlap (styles.css)
    onkeydown: (e) => moveFocus(container, e),
    onscroll: () => markHiddenEnds(wrap, container),
  }, cards);
  const wrap = h('div', { class: 'hand-wrap' },
    h('h2', { class: 'sr-only' }, t('table.my_hand')),
    container);
  watchWidth(container);
  return wrap;
}

// One observer for the hand on screen, not one per render: each render's hand replaces the last one watched.
// Its first call comes once the hand is laid out, then at every change of width (a phone turned).
const widths = typeof ResizeObserver === 'undefined' ? null
  : new ResizeObserver((entries) => entries.forEach((e) => markHiddenEnds(e.target.parentElement, e.target)));
let watched = null;

function watchWidth(hand) {
  if (!widths) return;
  if (watched) widths.unobserve(watched);
  watched = hand;
  widths.observe(hand);
}

/** A hand wider than the screen scrolls: each end that hides cards is shaded, with an arrow, so the player knows. */
export function markHiddenEnds(wrap, hand) {
  const left = hand.scrollLeft > 1;
  const right = hand.scrollLeft + hand.clientWidth < hand.scrollWidth - 1;
  wrap.classList.toggle('more-left', left);
  wrap.classList.toggle('more-right', right);
}

/** A render that takes away the focused card (it was played): the focus stays on the hand, at the same place. */
export function keepHandFocus(el, render) {
  const index = [...el.querySelectorAll('.hand-card')].indexOf(document.activeElement);
  render();
  if (index < 0 || el.contains(document.activeElement)) return;
  const now = [...el.querySelectorAll('.hand-card')];
  now[Math.min(index, now.length - 1)]?.focus({ preventScroll: true });
}
