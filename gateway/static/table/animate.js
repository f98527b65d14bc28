// Moves made visible (table/motion.js moves them): the deal at a round's start, the played card
// sliding onto the pile from its seat, drawn cards flying from the stock to the seat (penalty
// cards marked), a reshuffle sweeping the pile into the stock, a pending draw's count growing and
// the suit or colour asked showing on the pile; a round's end turns the hands over card by card, a
// match's end has its moment. Only looks: nothing here waits, every button works at once, and
// nothing moves in a hidden tab or with prefers-reduced-motion.

import { backSVG } from '../cards.js';
import { drawKind } from './eventlog.js';
import { CARD_ACTIONS } from './legal.js';
import { fly, pop, slideIn, still } from './motion.js';
import { matchEnded } from './state.js';

const REVEAL_STEP_MS = 110; // one card after the other…
const REVEAL_CARD_MS = 280; // …each turned over in this (a step stays under 400 ms)
const REVEAL_ALL_MS = 1800; // a crowded round turns its cards faster, not for longer

function rectOf(el, selector) {
  const node = el.querySelector(selector);
  return node ? node.getBoundingClientRect() : null;
}

/** Where the stock, the pile, the hand and every seat are now (before a render moves them). */
export function captureRects(el) {
  const rects = { stock: rectOf(el, '[data-testid="stock"]'), pile: rectOf(el, '[data-testid="pile-top"]'), tiles: {}, hand: rectOf(el, '.hand') };
  for (const tile of el.querySelectorAll('[data-seat]')) rects.tiles[tile.dataset.seat] = tile.getBoundingClientRect();
  return rects;
}

const seatRect = (el, seat) => rectOf(el, `[data-seat="${seat}"]`);

/** The cards of this hand that a batch brought in (the last copies of each name), from the stock. */
function handCardsOf(el, cards) {
  const used = new Set();
  const nodes = [];
  for (const c of cards) {
    const all = [...el.querySelectorAll(`.hand .hand-card[data-card="${CSS.escape(c)}"]`)].filter((n) => !used.has(n));
    const node = all[all.length - 1];
    if (node) { used.add(node); nodes.push(node); }
  }
  return nodes;
}

/** A round dealt: a back flies to each seat in turn, and this hand's cards come in one after the other. */
function deal(el, ev, stock, { me, design }) {
  const seats = [...el.querySelectorAll('[data-seat]')].map((n) => Number(n.dataset.seat)).filter((s) => s !== me);
  const step = Math.min(40, 160 / Math.max(seats.length, 1));
  seats.forEach((seat, i) => fly(backSVG(design), stock, seatRect(el, seat), { width: 34, duration: 240, delay: i * step, kind: 'deal' }));
  handCardsOf(el, ev.hand || []).forEach((node, i) => slideIn(node, stock, { duration: 240, delay: 60 + i * 20 }));
}

/** The draws of one stored action: into this hand, or as backs to the seat; penalty cards marked. */
function draws(el, ev, stock, { me, design }) {
  for (const d of ev.draws || []) {
    if (!d.count) continue;
    const penalty = drawKind(ev.action, d) === 'penalty';
    if (d.seat === me && Array.isArray(d.cards)) {
      handCardsOf(el, d.cards).forEach((node, i) => slideIn(node, stock, { duration: 300, delay: i * 30 }));
    } else {
      const to = seatRect(el, d.seat);
      for (let i = 0; i < Math.min(d.count, 4); i += 1) {
        fly(backSVG(design), stock, to, { width: 34, delay: i * 40, kind: penalty ? 'penalty' : 'draw', extra: penalty ? 'fly-penalty' : '' });
      }
    }
  }
}

/** The pile turned over into the stock: a few backs sweep from the pile to the stock. */
function reshuffle(el, before, stock, design) {
  const from = rectOf(el, '[data-testid="pile-top"]') || before.pile;
  for (let i = 0; i < 3; i += 1) fly(backSVG(design), from, stock, { width: 48, duration: 260, delay: i * 50, kind: 'reshuffle' });
}

/** A pending draw that grew (a 7 on a 7) and a suit or colour newly asked pop on the pile. */
function badges(el, was) {
  const pending = el.querySelector('[data-testid="pending-draw"]');
  if (pending && Number(pending.dataset.count) > (was?.pending_draw || 0)) pop(pending);
  const asked = el.querySelector('[data-testid="follow"].follow-changed');
  if (asked && asked.dataset.follow !== (was?.follow || '')) {
    pop(asked, { from: 1.4 });
    pop(el.querySelector('.pile-asked'), { from: 2.2 });
  }
}

/**
 * Animate a batch's moves from `before` (captureRects) to the rendered screen; `playRect`: where
 * this player's card was; `was`: the view before the batch. Returns whether a card went onto the
 * pile (`playRect` is spent then).
 */
export function animate(el, events, before, { me, playRect, design, was = null }) {
  if (!before) return false;
  const stock = rectOf(el, '[data-testid="stock"]') || before.stock;
  const dealt = events.find((e) => e.type === 'RoundDealt');
  if (dealt) deal(el, dealt, stock, { me, design });
  const actions = events.filter((e) => e.type === 'ActionTaken');
  const top = el.querySelector('[data-testid="pile-top"]');
  const lastCard = [...actions].reverse().find((e) => CARD_ACTIONS.includes(e.action?.do));
  if (lastCard && top) {
    const seat = lastCard.action.seat;
    slideIn(top, seat === me ? (playRect || before.hand) : (before.tiles[seat] || seatRect(el, seat)));
  }
  for (const ev of actions) {
    if (ev.reshuffles) reshuffle(el, before, stock, design);
    draws(el, ev, stock, { me, design });
  }
  badges(el, was);
  return !!(lastCard && top);
}

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
