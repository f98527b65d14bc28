// The middle of the felt: the stock, the pile, the suit or colour asked, a stacked draw, and the
// turn under them (whose turn, the timer, the last thing that happened); the direction in a corner.

import { backSVG, cardSVG, COLOURS, parseCard, suitSVG } from '../cards.js';
import { cardEffect, roundTitle, turnsClockwise } from '../catalog.js';
import { h } from '../dom.js';
import { cardLabel, suitText, t } from '../i18n.js';
import { formatEntry } from './eventlog.js';
import { isClockwise } from './legal.js';

/** What the pile asks now: a colour or a suit, and whether it differs from the top card's (a Jack's, a wild's choice). */
function askedOf(v) {
  const topCard = parseCard(v.top);
  const colour = 'RGBY'.includes(v.follow) && topCard?.family === 'colour';
  const differs = !!topCard && (topCard.family === 'french' ? topCard.suit !== v.follow : topCard.colour !== v.follow);
  return { colour, differs };
}

const askedMark = (v, colour, design, size) => (colour ? h('span', { class: 'swatch', style: { background: COLOURS[v.follow] } })
  : h('span', { class: 'follow-suit', html: suitSVG(v.follow, design, size) }));

function follow(v, design) {
  const { colour, differs } = askedOf(v);
  const words = colour
    ? t(differs ? 'table.follow_color' : 'table.follow_color_plain', { color: suitText(v.follow) })
    : t(differs ? 'table.follow_suit' : 'table.follow_suit_plain', { suit: suitText(v.follow) });
  return h('div', { class: `follow${differs ? ' follow-changed' : ''}`, testid: 'follow', 'data-follow': v.follow },
    askedMark(v, colour, design, 22), h('span', {}, words));
}

/** A suit or colour asked, other than the top card's, also marked on the pile's corner. */
function pileAsked(v, design) {
  const { colour, differs } = askedOf(v);
  return v.follow && differs ? h('span', { class: 'pile-asked', 'aria-hidden': 'true' }, askedMark(v, colour, design, 26)) : null;
}

function stockOf(p) {
  const v = p.st.view;
  const canDraw = !!p.g.draw && !v.round_over;
  return h(canDraw ? 'button' : 'div', {
    class: `stock${canDraw ? ' can-act' : ''}`, testid: 'stock', type: canDraw ? 'button' : null, 'data-focus': 'stock',
    'aria-label': `${t('table.stock')}: ${t('table.stock_count', { n: v.stock })}`,
    onclick: canDraw ? () => p.act(p.g.draw) : null,
  }, h('span', { class: 'card-face', 'aria-hidden': 'true', html: v.stock > 0 ? backSVG(p.design) : '' }),
  h('span', { class: 'stock-count', testid: 'stock-count' }, String(v.stock)));
}

/** The direction of play, in a corner of the felt. Clockwise seen from above: the next player sits at one's left. */
export function renderDirection(p) {
  const cw = isClockwise(turnsClockwise(p.rs), p.st.view.direction);
  const words = `${t('table.direction')}: ${cw ? t('table.cw') : t('table.ccw')}`;
  const side = cw ? t('table.to_left') : t('table.to_right');
  return h('div', { class: 'direction', testid: 'direction', 'data-direction': cw ? 'cw' : 'ccw', title: `${words} (${side})` },
    h('span', { class: `dir-arrow${cw ? '' : ' ccw'}`, 'aria-hidden': 'true' }, cw ? '↻' : '↺'),
    h('span', { class: 'dir-words' }, words), h('span', { class: 'dir-side' }, ` · ${side}`));
}

/** The middle of the felt: the stock and the pile (the suit or colour asked on it, a pending draw's count), the turn. */
export function renderCentre(p) {
  const v = p.st.view;
  const top = v.top;
  const pile = h('div', { class: 'pile', 'aria-label': t('table.pile') },
    h('div', { class: 'card-face pile-top', testid: 'pile-top', 'data-card': top || '', role: 'img',
      'aria-label': t('table.top', { card: cardLabel(top) }),
      html: top ? cardSVG(top, p.design, { effect: cardEffect(p.rs, p.st.info.options, top) }) : '' }),
    pileAsked(v, p.design),
    v.pending_draw > 0 ? h('div', { class: 'pending', testid: 'pending-draw', 'data-count': String(v.pending_draw),
      title: t('table.pending', { n: v.pending_draw }) }, // on the pile: its count, big; the words for a screen reader
    h('span', { 'aria-hidden': 'true' }, `+${v.pending_draw}`), h('span', { class: 'sr-only' }, t('table.pending', { n: v.pending_draw }))) : null);
  return h('div', { class: 'centre' },
    h('div', { class: 'piles' }, stockOf(p), pile),
    v.follow ? follow(v, p.design) : null,
    renderTurn(p));
}

export function renderTurn(p) {
  const { info, view: v, log } = p.st;
  let text;
  let mine = false;
  if (info.status === 'ended') text = t('status.ended');
  else if (v.round_over) text = info.status === 'over' ? t('match.over') : roundTitle(p.rs);
  else if (info.status !== 'playing') text = t(`status.${info.status}`);
  else if (v.turn === p.me) { text = v.phase === 'choose' ? t('table.turn.choose_you') : t('table.turn.you'); mine = true; }
  else text = t('table.turn.of', { name: p.nameOf(v.turn) });
  const last = log[log.length - 1];
  return h('div', { class: `turn-bar${mine ? ' my-turn' : ''}` },
    h('p', { class: 'turn-indicator', testid: 'turn-indicator', 'data-turn': v.turn === null ? '' : String(v.turn), 'aria-live': 'polite' },
      text, info.options?.turn_seconds && !v.round_over && info.status === 'playing'
        ? h('span', { class: 'turn-timer', testid: 'turn-timer' }) : null),
    last ? h('p', { class: 'last-event muted', testid: 'last-event' }, formatEntry(last)) : null);
}

/** The seconds left of the turn's time, as the timer shows them. */
export function timerText(turnSeconds, turnSince, now) {
  return `⏱ ${Math.max(0, Math.ceil(turnSeconds - (now - turnSince) / 1000))}s`;
}
