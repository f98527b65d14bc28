// The replay viewer's pure logic ("Rever partida", /m/<table>/rever): the steps of
// GET /api/tables/{id}/replay folded into the table screen's own state (table/state.js's
// reduceFrame, as if each step were an events frame), and the player's controls: one step back
// or forward, the slider, play/pause and the speed. No DOM, no timers: unit-tested in node.

import { readMoves } from './table/notation.js';
import { initialState, reduceFrame } from './table/state.js';

export const SPEEDS = [1, 2, 4];
export const STEP_MS = 1400; // one step's time at 1×
const LOG_KEPT = 150; // as the table keeps

/**
 * Each step as the table screen would have drawn it: {seq, st (the table's state after it), lines (the
 * log entries this step added, formatted at render), words (the server's words, English)}.
 */
export function buildSteps(tableId, steps, catalog = null) {
  let st = initialState(null, 0);
  return steps.map((s) => {
    const frame = readMoves({ type: 'events', table: tableId, seq: s.seq, table_info: s.table_info, view: s.view, events: s.events || [] });
    const mine = reduceFrame({ ...st, log: [] }, frame, 0, catalog); // the log of this step alone
    st = { ...mine, log: [...st.log, ...mine.log].slice(-LOG_KEPT) };
    return { seq: s.seq, st, lines: mine.log, words: s.words || [], events: frame.events };
  });
}

/**
 * Where the viewer opens: the first dealt step of match `matchNo` (the profile's "Rever partida"),
 * else the first dealt step of the table, else the first step.
 */
export function startIndex(steps, matchNo = 0) {
  let from = 0;
  if (matchNo > 0) {
    const started = steps.findIndex((s) => (s.events || []).some((e) => e.type === 'MatchStarted' && e.match_no === matchNo));
    if (started >= 0) from = started;
  }
  const dealt = steps.findIndex((s, i) => i >= from && s.view);
  return dealt >= 0 ? dealt : from;
}

/** The step at a table's stream sequence (the staff's disputed moment): the last one stored at or before it; -1: none. */
export function momentIndex(steps, seq) {
  return seq > 0 ? steps.findLastIndex((s) => s.seq <= seq) : -1;
}

const clamp = (i, count) => Math.max(0, Math.min(count - 1, Math.trunc(Number(i) || 0)));

/** The player: where it is among `count` steps, whether it plays, at which speed. */
export function initialPlayer(count, index = 0) {
  return { count, index: count ? clamp(index, count) : 0, playing: false, speed: 1 };
}

export const atEnd = (p) => p.index >= p.count - 1;

/** To step `i` (the slider): playing stops at the last step. */
export function seek(p, i) {
  if (!p.count) return p;
  const index = clamp(i, p.count);
  return { ...p, index, playing: p.playing && index < p.count - 1 };
}

export const forward = (p) => seek(p, p.index + 1);

/** One step back: a person looking back wants the picture to stay there. */
export const back = (p) => ({ ...seek(p, p.index - 1), playing: false });

/** Play or pause; play at the last step starts again from the first. */
export function togglePlay(p) {
  if (p.playing) return { ...p, playing: false };
  if (p.count < 2) return p;
  return { ...p, index: atEnd(p) ? 0 : p.index, playing: true };
}

export function setSpeed(p, speed) {
  return SPEEDS.includes(speed) ? { ...p, speed } : p;
}

/** What a tick of the clock does while playing: the next step, stopping at the last. */
export function tick(p) {
  return p.playing ? forward(p) : p;
}

/** Milliseconds until the next tick. */
export function delay(p) {
  return STEP_MS / p.speed;
}
