// Which sounds a table's moves make, as they arrive: the names sfx.js plays ('card', 'draw',
// 'shuffle', 'turn', the calls 'mau' / 'maumau' / 'last', 'penalty', 'round_won' / 'round_lost',
// 'match_won' / 'match_lost'). Pure module, unit-tested in node: the DOM and the audio are sfx.js's.
//
// Only moves heard live sound: after every subscription (a table opened, the socket back after a
// drop) the gateway first sends the picture (a `state`, or the batches missed, as `events`
// frames), then the table's chat (docs/protocol.md); what comes before that chat frame is the
// past caught up, and makes no sound (a table opened must not play fifty).

import { callOf, drawKind } from './eventlog.js';
import { CARD_ACTIONS } from './legal.js';
import { mySeat } from './state.js';

/** Whether `seat` is this viewer's side: their own seat or their partner's (teams); anyone's for a spectator. */
function ours(st, seat) {
  const me = mySeat(st);
  if (me < 0 || seat === me) return true;
  return (st.info?.partners || []).some((pair) => pair.includes(me) && pair.includes(seat));
}

/** Whether the table turned to this player with this frame (a player in automatic mode is not told). */
function turnedToMe(before, after) {
  const me = mySeat(after);
  const v = after.view;
  if (me < 0 || !v || v.turn !== me || v.round_over || after.info?.status !== 'playing') return false;
  if ((after.info.auto || []).includes(me)) return false;
  return after.turnKey !== before.turnKey;
}

function actionCues(st, ev, add) {
  const a = ev.action || {};
  if (ev.reshuffles) add('shuffle');
  if (CARD_ACTIONS.includes(a.do)) add('card');
  if (a.announce) add(callOf(st.call, a.announce));
  for (const d of ev.draws || []) if (d.count) add(drawKind(a, d) === 'penalty' ? 'penalty' : 'draw');
}

/**
 * The sounds of one batch of events, in their order, from the state before it to the state after
 * it (table/state.js); the same sound twice in a row is heard once.
 */
export function cuesOf(before, after, events) {
  const out = [];
  const add = (name) => { if (out[out.length - 1] !== name) out.push(name); };
  for (const ev of events || []) {
    if (ev.type === 'RoundDealt') add('shuffle');
    else if (ev.type === 'ActionTaken') actionCues(after, ev, add);
    else if (ev.type === 'RoundEnded') {
      add(ours(after, ev.winner) ? 'round_won' : 'round_lost');
      if (ev.match_over) add((ev.match_winners || []).some((s) => ours(after, s)) ? 'match_won' : 'match_lost');
    } else if (ev.type === 'MatchEnded' && (ev.winners || []).some((s) => ours(after, s)) && mySeat(after) >= 0) {
      add('match_won'); // the others gave up, or one was absent
    }
  }
  if (turnedToMe(before, after)) add('turn');
  return out;
}

/**
 * A table screen's ears: `subscribed()` at every (re)subscription, `heard(before, after, frame)`
 * for every frame of the table; `play(name)` is called for each sound of the frames heard live.
 */
export function tableSounds(play) {
  let live = false;
  return {
    subscribed() { live = false; },
    heard(before, after, frame) {
      if (frame.type === 'chat' || frame.type === 'error') {
        live = true; // the subscription's past is all in: what comes now is news
        return [];
      }
      const cues = live && frame.type === 'events' ? cuesOf(before, after, frame.events) : [];
      for (const name of cues) play(name);
      return cues;
    },
  };
}
