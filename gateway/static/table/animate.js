// Moves made visible: the played card slides onto the pile from where it was, drawn cards come
// from the stock (into this hand, or as backs flying to an opponent's tile).

import { backSVG } from '../cards.js';
import { flyGhost, slideFrom } from '../dom.js';
import { CARD_ACTIONS } from './legal.js';

function rectOf(el, selector) {
  const node = el.querySelector(selector);
  return node ? node.getBoundingClientRect() : null;
}

/** Where the stock, the hand and every opponent's tile are now (before a render moves them). */
export function captureRects(el) {
  const rects = { stock: rectOf(el, '[data-testid="stock"]'), tiles: {}, hand: rectOf(el, '.hand') };
  for (const tile of el.querySelectorAll('[data-seat]')) rects.tiles[tile.dataset.seat] = tile.getBoundingClientRect();
  return rects;
}

/**
 * Animate a batch's moves from `before` (captureRects) to the rendered screen; `playRect`: where
 * this player's card was. Returns whether a card went onto the pile (`playRect` is spent then).
 */
export function animate(el, events, before, { me, playRect, design }) {
  const actions = events.filter((e) => e.type === 'ActionTaken');
  if (!actions.length) return false;
  const stock = rectOf(el, '[data-testid="stock"]') || before.stock;
  const top = el.querySelector('[data-testid="pile-top"]');
  const lastCard = [...actions].reverse().find((e) => CARD_ACTIONS.includes(e.action?.do));
  if (lastCard && top) {
    const seat = lastCard.action.seat;
    const from = seat === me ? (playRect || before.hand) : (before.tiles[seat] || rectOf(el, `[data-seat="${seat}"]`));
    slideFrom(top, from);
  }
  for (const ev of actions) {
    for (const d of ev.draws || []) {
      if (!d.count) continue;
      if (d.seat === me && Array.isArray(d.cards)) {
        const used = new Set();
        for (const c of d.cards) {
          const nodes = [...el.querySelectorAll(`.hand [data-card="${CSS.escape(c)}"]`)].filter((n) => !used.has(n));
          const node = nodes[nodes.length - 1];
          if (node) { used.add(node); slideFrom(node, stock, { duration: 450 }); }
        }
      } else {
        flyGhost(backSVG(design), stock, rectOf(el, `[data-seat="${d.seat}"]`));
      }
    }
  }
  return !!(lastCard && top);
}
