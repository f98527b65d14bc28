// The seats around the felt (table/felt.js places them): each with its avatar in a ring that
// lights on its turn (and empties with a timed turn's time), its name, a fan of card backs with
// their count, points, dealer, a missed call (and its challenge). The viewer's own seat is the
// plate at the bottom; a spectator's bottom seat is seat 0's, drawn like the others.

import { loadAccount } from '../api.js';
import { avatarEl } from '../avatars.js';
import { backSVG } from '../cards.js';
import { turnsClockwise } from '../catalog.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { autoMark, presenceDot } from './automatic.js';
import { seatOrder, seatSpots } from './felt.js';

const FAN = 5; // backs drawn at most: the number says the rest

/** A fan of `n` card backs (at most FAN), spread like cards held in a hand. */
export function fanBacks(n, design) {
  const shown = Math.min(n, FAN);
  const backs = [];
  for (let i = 0; i < shown; i += 1) {
    backs.push(h('span', { class: 'fan-back', html: backSVG(design), style: { '--tilt': `${(i - (shown - 1) / 2) * 11}deg` } }));
  }
  return h('span', { class: 'seat-fan', 'aria-hidden': 'true' }, backs);
}

const spotStyle = (spot) => ({ '--x': String(spot.x / 100), '--y': String(spot.y / 100) }); // fractions: styles.css

/** Whether `seat` is the one to play now. */
function onTurnNow(info, v, seat) {
  return v.turn === seat && !v.round_over && info.status === 'playing';
}

/** The avatar a seat shows: this device's account's own for this player, a robot's for a bot, else the plain one of the name. */
export function seatAvatar(p, seat, size) {
  const pl = p.st.info.players[seat] || {};
  return avatarEl(seat === p.me ? (loadAccount()?.avatar || '') : '', pl.name || '', size, Boolean(pl.bot));
}

/** The avatar in its ring: lit on the seat's turn; `--left` (the timer) empties it at a timed table. */
function ring(p, seat, on) {
  return h('span', { class: `seat-ring${on ? ' lit' : ''}` }, seatAvatar(p, seat, 'md'));
}

// who dealt: a little deck of two cards, no letter (a "D" says dealer in English only)
const DECK_ICON = '<svg viewBox="0 0 16 14" width="14" height="12" aria-hidden="true">'
  + '<rect x="1" y="3" width="8" height="10" rx="1.5" fill="#b03a2e" stroke="#fff" stroke-width="1"/>'
  + '<rect x="6" y="1" width="8" height="10" rx="1.5" fill="#1d4e89" stroke="#fff" stroke-width="1"/></svg>';

/** Under the name: the points, what the seat is (a bot, automatic, a team) and what it did (dealt, missed the call). */
function seatMeta(p, seat) {
  const { info, view: v } = p.st;
  const pl = info.players[seat] || {};
  return h('div', { class: 'opp-meta' },
    h('span', { class: 'opp-score' }, t('table.points', { n: v.scores?.[seat] ?? 0 })),
    pl.bot ? h('span', { class: 'tag tag-bot' }, t('bot')) : null,
    autoMark(info, seat),
    info.options?.teams ? h('span', { class: 'tag' }, seat % 2 === (p.me >= 0 ? p.me % 2 : 0) ? '👥 A' : '👥 B') : null,
    v.dealer === seat ? h('span', { class: 'tag tag-dealer', testid: `dealer-${seat}`, role: 'img', 'aria-label': t('table.dealer'),
      title: t('table.dealer'), html: DECK_ICON }) : null,
    v.missed_call === seat ? h('span', { class: 'tag tag-warn' }, t('table.missed')) : null);
}

function challengeButton(p, seat) {
  const challenge = p.g.challenges.get(seat);
  if (!challenge) return null;
  return h('button', {
    class: 'btn btn-warn btn-small', type: 'button', testid: `btn-challenge-${seat}`, 'data-focus': `challenge-${seat}`,
    onclick: () => p.act(challenge),
  }, p.st.call === 'last' ? t('table.challenge_last') : t('table.challenge'));
}

/** Another seat at the rim: `spot` is where (felt.js). */
function opponentSeat(p, spot) {
  const { info, view: v } = p.st;
  const { seat } = spot;
  const pl = info.players[seat] || {};
  const name = pl.name || t('seat', { n: seat });
  const count = v.hand_sizes?.[seat] ?? 0;
  const onTurn = onTurnNow(info, v, seat);
  const inRound = !v.in_round || v.in_round[seat];
  return h('li', {
    class: `opponent${onTurn ? ' on-turn' : ''}${inRound ? '' : ' out-of-round'}${spot.bottom ? ' seat-bottom' : ''}${spot.x > 50 ? ' seat-right' : ''}`,
    testid: `opponent-${seat}`, 'data-seat': String(seat), 'aria-label': `${name}: ${t('table.cards', { n: count })}`,
    'aria-current': onTurn ? 'true' : null, style: spotStyle(spot),
  },
  h('div', { class: 'seat-body' }, ring(p, seat, onTurn),
    h('div', { class: 'opp-cards' }, fanBacks(count, p.design),
      h('span', { class: 'opp-count', testid: `opponent-count-${seat}` }, String(count),
        h('span', { class: 'sr-only' }, ` ${t('table.cards', { n: count }).replace(/^\d+\s*/, '')}`)))),
  h('div', { class: 'opp-name' }, presenceDot(info, seat), h('span', { class: 'opp-name-text' }, name)),
  seatMeta(p, seat),
  challengeButton(p, seat));
}

/** This player's own place at the bottom of the rim: their hand is drawn under the felt. */
function mySeatPlate(p) {
  const { info, view: v } = p.st;
  const onTurn = onTurnNow(info, v, p.me);
  return h('div', {
    class: `my-seat${onTurn ? ' on-turn' : ''}`, testid: 'my-seat', 'data-seat': String(p.me),
    'aria-current': onTurn ? 'true' : null,
  }, ring(p, p.me, onTurn),
  h('div', { class: 'my-seat-text' }, h('span', { class: 'opp-name-text' }, t('you')), seatMeta(p, p.me)));
}

/**
 * Every seat around the felt. The list holds the other seats from left to right across the
 * table (`seatOrder`), so a screen reader goes round the table the way the eye does.
 */
export function renderSeats(p) {
  const { info } = p.st;
  const cw = turnsClockwise(p.rs);
  const spots = new Map(seatSpots(info.players.length, p.me, cw).map((s) => [s.seat, s]));
  const order = p.me >= 0 ? seatOrder(info.players.length, p.me, cw) : [0, ...seatOrder(info.players.length, 0, cw)];
  const list = h('ul', { class: 'opponents', testid: 'opponents', 'data-seating': cw ? 'cw' : 'ccw', 'data-seats': String(info.players.length) },
    order.map((seat) => opponentSeat(p, spots.get(seat))));
  return p.me >= 0 ? [list, mySeatPlate(p)] : [list];
}
