// The table's motion primitives, on the Web Animations API: a card (or a back) flying from one
// place to another, an element sliding in from where it was, a badge popping. Every one is short
// (MAX_MS, delays included), runs over the page without holding anything (a flying copy takes no
// pointer, the real element is already in place and clickable), and none runs in a hidden tab or
// with prefers-reduced-motion.

import { h, reducedMotion } from '../dom.js';

export const MAX_MS = 400; // the longest any move takes, its delay included
const EASE = 'cubic-bezier(.2,.8,.2,1)';

/** Whether nothing should move now. */
export const still = () => document.hidden || !!reducedMotion();

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** A span of time that keeps delay + duration within MAX_MS. */
function timing(duration, delay) {
  const d = Math.max(0, Math.min(delay, MAX_MS - 120));
  return { duration: Math.min(duration, MAX_MS - d), delay: d, easing: EASE, fill: 'backwards' };
}

/**
 * A copy of `html` (a card face or a back) flying from rect `from` to rect `to`, `width` px wide
 * where it lands; gone when it lands. `kind` names it for the eye and for tests (data-fly).
 */
export function fly(html, from, to, { width = 56, duration = 300, delay = 0, kind = 'card', extra = '' } = {}) {
  if (still() || !from || !to || !from.width || !to.width) return null;
  const end = centre(to);
  const start = centre(from);
  const node = h('div', { class: `fly-card${extra ? ` ${extra}` : ''}`, html, 'aria-hidden': 'true', 'data-fly': kind,
    style: { left: `${end.x - width / 2}px`, top: `${end.y - width * 0.7}px`, width: `${width}px` } });
  document.body.append(node);
  const scale = Math.min(1.2, Math.max(0.4, (from.width || width) / width));
  const anim = node.animate([
    { transform: `translate(${start.x - end.x}px, ${start.y - end.y}px) scale(${scale.toFixed(2)})`, opacity: 1 },
    { transform: 'none', opacity: 0.85 },
  ], timing(duration, delay));
  const done = () => node.remove();
  anim.onfinish = done;
  anim.oncancel = done;
  return anim;
}

/** `el`, already where it belongs, seen coming from rect `from` (FLIP). */
export function slideIn(el, from, { duration = 320, delay = 0, scale = true } = {}) {
  if (still() || !el || !from || !from.width) return null;
  const to = el.getBoundingClientRect();
  if (!to.width) return null;
  const a = centre(from);
  const b = centre(to);
  const s = scale ? Math.min(2, Math.max(0.3, from.width / to.width)) : 1;
  return el.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${s.toFixed(2)})` }, { transform: 'none' }],
    timing(duration, delay));
}

/** A badge that changed (a pending draw's count, the suit asked) grows and settles back. */
export function pop(el, { from = 1.6 } = {}) {
  if (still() || !el) return null;
  return el.animate([{ transform: `scale(${from})` }, { transform: 'scale(1.12)', offset: 0.6 }, { transform: 'none' }],
    timing(320, 0));
}
