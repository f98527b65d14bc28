// Moves made visible: the played card slides onto the pile from where it was, drawn cards come
// from the stock (into this hand, or as backs flying to an opponent's tile); a round's end turns
// the hands over card by card, a match's end has its moment. Only looks: nothing here waits, every
// button works at once, and nothing moves in a hidden tab or with prefers-reduced-motion.

import { backSVG } from '../cards.js';
import { flyGhost, reducedMotion, slideFrom } from '../dom.js';
import { CARD_ACTIONS } from './legal.js';
import { matchEnded } from './state.js';

const REVEAL_STEP_MS = 110; // one card after the other…
const REVEAL_CARD_MS = 280; // …each turned over in this (a step stays under 400 ms)
const REVEAL_ALL_MS = 1800; // a crowded round turns its cards faster, not for longer

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

const still = () => document.hidden || reducedMotion();

/** A round ended in this batch: each row's cards turn over one by one, then its points show. */
export function revealRound(el, events) {
  if (!events.some((e) => e.type === 'RoundEnded') || still()) return;
  const rows = [...el.querySelectorAll('[data-testid="round-review"] [data-testid^="review-row-"]')];
  const count = el.querySelectorAll('[data-testid="round-review"] .review-card').length;
  const step = Math.min(REVEAL_STEP_MS, REVEAL_ALL_MS / Math.max(count, 1));
  let at = 0;
  const show = (node, delay) => node.animate?.([{ opacity: 0, transform: 'translateY(-8px) rotateY(80deg)' }, { opacity: 1, transform: 'none' }],
    { duration: REVEAL_CARD_MS, delay, easing: 'cubic-bezier(.2,.8,.2,1)', fill: 'backwards' });
  for (const row of rows) {
    for (const card of row.querySelectorAll('.review-card')) show(card, step * at++);
    for (const points of row.querySelectorAll('.hand-points, td.num')) show(points, step * at);
  }
}

/**
 * The match ended in this frame (it was being played before it): the winner's moment, and
 * `mm:match-end` on the table's element for whoever marks it too (a sound): its detail says the
 * table, the match, the winners and whether this viewer is one of them (docs/protocol.md).
 */
export function celebrateMatch(el, before, info, me) {
  if (!matchEnded(before, info)) return;
  const winners = info.winners || [];
  el.dispatchEvent(new CustomEvent('mm:match-end', { bubbles: true,
    detail: { table: info.table_id, match_no: info.match_no, winners, won: winners.includes(me), seated: me >= 0 } }));
  const board = el.querySelector('[data-testid="round-review"]');
  const top = board?.getBoundingClientRect().top ?? 0;
  if (board && (top < 0 || top > innerHeight / 2)) board.scrollIntoView({ block: 'start' }); // the winner in view
  if (!still()) el.querySelector('[data-testid="match-hero"]')?.classList.add('celebrate');
}
