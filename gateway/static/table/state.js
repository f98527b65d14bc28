// What the table screen knows, and what each frame of the socket does to it (docs/protocol.md).
// Pure module: reduceFrame(state, frame) returns a new state and never touches its input, the
// DOM or storage, so it is unit-tested in node. The screen's own choices (the call toggled, a
// suit being chosen, the review hidden…) live here too: a frame may end them.

import { rulesetOf } from '../catalog.js';
import { describeEvent } from './eventlog.js';
import { companionsOf, groupLegal } from './legal.js';

const LOG_LIMIT = 150;
const CHAT_LIMIT = 100;
const CLOCK_TRUST_MS = 120000; // a server time this close to ours is taken as the turn's start

/** The state before any frame: from this tab's cached picture of the table, if any. */
export function initialState(cached = null, now = Date.now()) {
  const st = {
    info: null, view: null, seq: 0, log: [], chat: [], unknown: false, seed: '',
    call: null, // the one word this table's ruleset calls (the catalog's), set with each picture
    turnKey: '', turnSince: now,
    announce: false, chooser: null, choseAt: null, doubleMode: false, giveupConfirm: false, reviewHidden: false,
    joinDismissed: false, botLevel: '',
    companion: null, // ace_with_company: {card: the Ace, actions: its plays} while its companion is picked
    menu: null, // the pause menu (table/menu.js): null, 'main', 'rules' or 'leave'
  };
  if (!cached) return st;
  return forcedChoice({
    ...st, info: cached.table_info, view: cached.view, seq: cached.seq, log: cached.log || [],
    turnKey: cached.turnKey || '', turnSince: cached.turnSince || now,
  });
}

/** The seat of this viewer (-1: watching). */
export function mySeat(st) {
  return st.info && st.info.my_seat >= 0 ? st.info.my_seat : -1;
}

/** Whether the match ended between two pictures of the table (it was being played): its moment, once. */
export function matchEnded(before, info) {
  return before?.status === 'playing' && ['over', 'ended'].includes(info?.status);
}

/** What the legal actions of the state's view allow. */
export function legalOf(st) {
  return groupLegal(st.view?.legal_actions || []);
}

/**
 * The state after one frame of this table: `state`, `events`, `chat` or `error`. `catalog` (GET
 * /api/rulesets) says how the table's ruleset words its calls (`st.call`).
 */
export function reduceFrame(st, frame, now = Date.now(), catalog = null) {
  switch (frame.type) {
    case 'state': return picture(st, frame, [], now, catalog);
    case 'events': return picture(st, frame, frame.events || [], now, catalog);
    case 'chat': return chat(st, frame.lines || []);
    case 'error': return frame.code === 'unknown_table' ? { ...st, unknown: true } : st;
    default: return st;
  }
}

function picture(before, frame, events, now, catalog) {
  let st = { ...before, info: frame.table_info, view: frame.view, seq: frame.seq, unknown: false };
  st.call = rulesetOf(catalog, st.info.ruleset)?.call ?? null;
  const me = mySeat(st);
  const namesBefore = (before.info?.players || []).map((p) => p.name);
  const namesNow = (st.info.players || []).map((p) => p.name);
  const log = [...before.log];
  for (const ev of events) {
    // someone who left keeps their name in the line saying so
    const names = namesNow.map((n, i) => n ?? namesBefore[i]);
    if (ev.type === 'PlayerLeft') names[ev.seat] = namesBefore[ev.seat];
    const passed = ev === events[events.length - 1] && st.view?.turn !== ev.action?.seat;
    log.push(...describeEvent(ev, { me, names, call: st.call, view: st.view, passed }));
    if (ev.type === 'RoundDealt') st = { ...st, reviewHidden: false, announce: false, seed: '' };
    if (ev.type === 'RoundEnded') st = { ...st, seed: ev.seed || '' };
  }
  st.log = log.slice(-LOG_LIMIT);
  // a choice in progress stays only while its moves are still legal
  const g = legalOf(st);
  if (st.chooser && !st.chooser.forced && !g.plays.has(st.chooser.ace || st.chooser.card)) st.chooser = null;
  if (st.companion && !companionsOf(g.plays.get(st.companion.card)).size) st.companion = null;
  if (st.doubleMode && !g.doubles.size) st.doubleMode = false;
  if (!g.announces.size && !(st.view && st.view.turn === me)) st.announce = false;
  const turnKey = `${st.view?.turn}/${st.view?.round_over}/${st.view?.rounds_played}`;
  if (turnKey !== st.turnKey) {
    // the turn began with the last stored event (server time, trusted only when close to ours)
    const last = events.length ? events[events.length - 1].time : 0;
    st.turnKey = turnKey;
    st.turnSince = last && Math.abs(now - last) < CLOCK_TRUST_MS ? Math.min(now, last) : now;
  }
  return forcedChoice(st);
}

// classic52: the dealer picks the suit a Jack starter asks; offered until chosen or the table moves
function forcedChoice(st) {
  const g = legalOf(st);
  if (g.choose.length && !st.chooser && st.choseAt !== st.seq) {
    return { ...st, chooser: { card: null, choices: g.choose.map((a) => a.choose), actions: g.choose, forced: true } };
  }
  if (!g.choose.length && st.chooser?.forced) return { ...st, chooser: null };
  return st;
}

function chat(st, lines) {
  const key = (line) => `${line.time}|${line.seat}|${line.text}|${line.reaction || ''}`;
  const seen = new Set(st.chat.map(key));
  const added = [];
  for (const line of lines) {
    if (seen.has(key(line))) continue; // sent again on a new subscription
    seen.add(key(line));
    added.push(line);
  }
  if (!added.length) return st;
  return { ...st, chat: [...st.chat, ...added].slice(-CHAT_LIMIT) };
}
