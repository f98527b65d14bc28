// The event log's wording: stored events as lines in the player's language (pt-BR, English).
// describeEvent keeps words out (segments of message keys and values), formatEntry words them at
// render time, so the log follows a change of language. Pure module, unit-tested in node.

import { cardShort, listNames, suitText, t } from '../i18n.js';

/** How a call is said at this table: its ruleset's one word (the catalog's `call`), else the word given ('mau', 'maumau'). */
export function callOf(call, announce) {
  return call ?? announce;
}

function announceKey(call, announce) {
  return `log.announce.${callOf(call, announce)}`;
}

/**
 * One part of a log entry: a key of the words and the values they take.
 * @typedef {{ k: string, v?: Record<string, any> }} Seg
 */

/** Why a seat drew, other than by drawing: a missed call (its own or denounced), a W+4 challenge's cost. */
function penaltyKey(a, seat) {
  if (a.do === 'challenge_wild') return seat === a.seat ? 'log.penalty_wrong_challenge' : 'log.penalty_bluff';
  if (a.do === 'challenge') return 'log.penalty_denounced';
  return 'log.penalty_call';
}

/**
 * What one draw of a stored action is: the action's own draw (`drew`), a penalty (penaltyKey says
 * which: a missed call, denounced, a W+4 challenge's cost) or a draw the action caused another seat (`other`).
 */
export function drawKind(a, d) {
  if (a.do === 'draw' && d.seat === a.seat) return 'drew';
  if (d.seat === a.seat || (a.do === 'challenge' && d.seat === a.target) || a.do === 'challenge_wild') return 'penalty';
  return 'other';
}

/**
 * One stored event as log entries: [{segs: [{k, v}], cls}] (formatted at render, in the current language).
 * `passed`: the event ended its batch and the turn is another seat's now (a draw that nothing may follow).
 */
export function describeEvent(ev, { me, names, call = null, view, passed = false }) {
  const who = (seat) => (seat === me ? { you: true, name: '' } : { you: false, name: names[seat] ?? `#${seat + 1}` });
  const out = [];
  /** @param {Seg[]} segs */
  const line = (segs, cls = '') => out.push({ segs, cls });
  switch (ev.type) {
    case 'TableCreated': line([{ k: 'log.created' }]); break;
    case 'PlayerJoined': line([{ k: ev.bot ? 'log.joined_bot' : 'log.joined', v: { name: ev.name } }]); break;
    case 'PlayerLeft': line([{ k: 'log.left', v: { name: names[ev.seat] ?? '' } }]); break;
    case 'MatchStarted': line([{ k: 'log.match_started', v: { n: ev.match_no } }], 'round'); break;
    case 'RoundDealt':
      line([{ k: 'log.dealt', v: { n: (view?.rounds_played ?? 0) + 1, dealer: ev.dealer === me ? null : names[ev.dealer], dealerYou: ev.dealer === me } }], 'round');
      break;
    case 'ActionTaken': {
      const a = ev.action || {};
      const p = who(a.seat);
      const you = p.you ? '_you' : '';
      if (ev.reshuffles) line([{ k: 'log.reshuffled' }]);
      if (a.do === 'play') {
        const segs = /** @type {Seg[]} */ ([{ k: `log.played${you}`, v: { name: p.name, card: a.card } }]);
        if (a.with) segs.push({ k: 'log.with', v: { card: a.with } }); // ace_with_company
        if (a.choose) segs.push({ k: 'log.chose', v: { suit: a.choose } });
        if (a.announce) segs.push({ k: announceKey(call, a.announce) });
        line(segs, p.you ? 'me' : '');
      } else if (a.do === 'double') {
        const segs = /** @type {Seg[]} */ ([{ k: `log.double${you}`, v: { name: p.name, card: (a.cards || [])[0] } }]);
        if (a.announce) segs.push({ k: announceKey(call, a.announce) });
        line(segs, p.you ? 'me' : '');
      } else if (a.do === 'burn' || a.do === 'quick') {
        const segs = /** @type {Seg[]} */ ([{ k: `log.${a.do}${you}`, v: { name: p.name, card: a.card } }]);
        if (a.announce) segs.push({ k: announceKey(call, a.announce) });
        line(segs, p.you ? 'me' : '');
      } else if (a.do === 'choose') {
        line([{ k: 'log.choose', v: { name: p.you ? null : p.name, nameYou: p.you, suit: a.choose } }]);
      } else if (a.do === 'pass') {
        line([{ k: p.you ? 'log.pass_you' : 'log.pass', v: { name: p.name } }]);
      } else if (a.do === 'challenge') {
        line([{ k: 'log.challenge', v: { name: p.you ? null : p.name, nameYou: p.you, target: a.target === me ? null : names[a.target], targetYou: a.target === me } }], 'warn');
      } else if (a.do === 'challenge_wild') {
        line([{ k: 'log.liar', v: { name: p.you ? null : p.name, nameYou: p.you } }], 'warn');
      }
      for (const d of ev.draws || []) {
        const q = who(d.seat);
        const y = q.you ? '_you' : '';
        const v = { name: q.name, n: d.count, cards: q.you && d.cards && d.cards.length ? d.cards : null };
        const kind = drawKind(a, d);
        if (kind === 'drew') {
          const segs = /** @type {Seg[]} */ ([{ k: d.count ? `log.drew${y}` : 'log.drew_none', v: { ...v, name: q.you ? null : q.name, nameYou: q.you } }]);
          // the engine moved on: a card drawn that nothing may follow, or a pending draw taken (which ends the turn)
          if (passed) segs.push({ k: d.count === 1 ? 'log.turn_passed' : 'log.turn_ends' });
          line(segs, q.you ? 'me' : '');
        } else if (kind === 'penalty') {
          line([{ k: `${penaltyKey(a, d.seat)}${y}`, v: { ...v, call: call ?? 'mau' } }], 'warn');
        } else {
          line([{ k: `log.drew${y}`, v }], q.you ? 'me' : '');
        }
      }
      break;
    }
    case 'RoundEnded': {
      const revealed = view?.revealed_hands?.[ev.winner];
      const blocked = Array.isArray(revealed) && revealed.length > 0;
      const w = ev.winner === me ? null : names[ev.winner];
      line([{ k: blocked ? 'log.round_blocked' : 'log.round_won', v: { name: w, nameYou: ev.winner === me } }], 'round');
      if (ev.match_over) {
        line([{ k: 'log.match_won', v: { seats: ev.match_winners || [], names: (ev.match_winners || []).map((s) => (s === me ? null : names[s])) } }], 'round');
      }
      break;
    }
    case 'MatchEnded': {
      const name = ev.by_seat === me ? null : names[ev.by_seat];
      if (ev.reason === 'gave_up') line([{ k: 'log.gave_up', v: { name, nameYou: ev.by_seat === me } }], 'round');
      else if (ev.reason === 'absence') line([{ k: 'log.absence_end', v: { name, nameYou: ev.by_seat === me } }], 'round');
      else line([{ k: 'log.expired' }], 'round');
      break;
    }
    case 'RematchVoted':
      line([{ k: ev.accept ? 'log.rematch_yes' : 'log.rematch_no', v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }]);
      break;
    case 'AbsenceNoticed':
      line([{ k: 'log.absent', v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }], 'warn');
      break;
    case 'RematchClosed': line([{ k: 'log.rematch_closed' }]); break;
    case 'SeatMoved': // teams, in the lobby: the two players changed places (names: as they sit now)
      line([{ k: 'log.seat_moved', v: { a: names[ev.to] ?? '', b: names[ev.seat] ?? '' } }]);
      break;
    case 'TurnTimedOut':
      line([{ k: 'log.timed_out', v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }], 'warn');
      break;
    case 'AutoModeChanged': {
      if (ev.on && ev.reason === 'away') { // a timed table: the seat's player away a minute, a stand-in plays
        line([ev.seat === me ? { k: 'log.auto_away_you' } : { k: 'log.auto_away', v: { name: names[ev.seat] ?? '' } }], 'warn');
        break;
      }
      const key = !ev.on ? 'log.auto_off' : ev.reason === 'timeouts' ? 'log.auto_timeouts' : 'log.auto_on';
      line([{ k: key, v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }], ev.on ? 'warn' : '');
      break;
    }
    // presence: a seated person with no page of the site open, and back (docs/protocol.md)
    case 'PlayerAway':
      line([{ k: 'log.away', v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }], 'presence');
      break;
    case 'PlayerBack':
      line([{ k: 'log.back', v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }], 'presence');
      break;
    // ⚔ the vote on the one who left a competitive match (docs/rankings.md)
    case 'PenaltyVoted':
      line([{ k: ev.penalise ? 'log.penalty_yes' : 'log.penalty_no', v: { name: ev.seat === me ? null : names[ev.seat], nameYou: ev.seat === me } }]);
      break;
    case 'LeaverPenalised':
      line([{ k: ev.seat === me ? 'log.penalised_you' : 'log.penalised', v: { name: names[ev.seat] ?? '' } }], 'warn');
      break;
    case 'MatchAnnulled': // staff upheld a dispute (docs/disputes.md)
      line([{ k: 'log.annulled', v: { n: ev.match_no } }], 'warn');
      break;
    default: break;
  }
  return out;
}

/** A log entry in the current language. */
/** @param {{ segs: Seg[] }} entry */
export function formatEntry(entry) {
  return entry.segs.map(({ k, v = {} }) => {
    const vars = { ...v };
    if (v.nameYou) vars.name = t('you');
    if (v.targetYou) vars.target = t('you_obj');
    if (v.dealerYou) vars.dealer = t('you');
    if (v.card) vars.card = cardShort(v.card);
    if (v.suit) vars.suit = suitText(v.suit);
    if (Array.isArray(v.cards)) vars.cards = v.cards.map((c) => cardShort(c)).join(', ');
    if (Array.isArray(v.names)) {
      vars.names = listNames(v.names.map((n) => n ?? t('you')));
      vars.n = v.names.length;
    }
    return t(k, vars);
  }).join('');
}
