// The turn watch: on every page of the site, the tab's socket follows the tables the player sits
// at (subscribe frames, docs/protocol.md: the tables under way or in their lobby among GET
// /api/my-tables, and any table the player sits at that a screen opened), and tells from their
// frames which wait for the player ("Sua vez!": the title, the tab's icon, "Minhas mesas"), with
// a beep and a notification when one turns to the player, and which have chat lines the player
// has not read. Following a table marks the player present there (gateway/presence.py): someone
// on another page of the site is told when it is their turn, so they are not "away".

import { beep, notify, notifyOn, showWaiting } from './alerts.js';
import { api, loadTableCache } from './api.js';
import { rulesetLabel } from './catalog.js';
import { listNames, t } from './i18n.js';
import {
  chatAfter, entryAfter, lastLineTime, mergedRows, remember, tableOfPath, tablesToFollow, unreadCount, waitingCount,
} from './turns.js';

const FOLLOW_MAX = 20; // tables followed at once (a socket follows at most 100)
const REFRESH_MS = 30000; // GET /api/my-tables again while the tab is visible (new tables; the socket says the rest)
const TOLD_KEY = 'mm.turn.told'; // the turns already told by some tab of this browser
const READ_KEY = (id) => `mm.read.${id}`;
const ALERT_DELAY_MS = 250; // a tab showing the table claims its turn first (no beep for what one is looking at)

function ls() { try { return window.localStorage; } catch { return null; } }

function readAt(id) {
  const v = Number(ls()?.getItem(READ_KEY(id)));
  return Number.isFinite(v) && v > 0 ? v : null;
}

function setReadAt(id, time) {
  try { ls()?.setItem(READ_KEY(id), String(time)); } catch { /* this page only */ }
}

/** Claim a turn's telling for this tab: false when another tab (or this one) told it already. */
function claim(key) {
  const store = ls();
  if (!store) return true;
  let keys = [];
  try { keys = JSON.parse(store.getItem(TOLD_KEY) || '[]'); } catch { keys = []; }
  if (!Array.isArray(keys)) keys = [];
  if (keys.includes(key)) return false;
  try { store.setItem(TOLD_KEY, JSON.stringify(remember(keys, key))); } catch { /* told here anyway */ }
  return true;
}

export function createTurnWatch(ctx) {
  const conn = ctx.conn;
  const entries = new Map(); // table id -> entry (turns.js), the tables the player sits at
  const listeners = new Set();
  let rows = [];
  let loaded = false;
  let error = null;
  let lastRefresh = 0;
  let refreshing = null;
  let stale = false; // the session was refused (ended elsewhere): no more asking until it changes
  let shownSig = '';

  const visible = () => document.visibilityState !== 'hidden';
  const shownTable = () => tableOfPath(location.pathname);

  function changed() {
    const seated = [...entries.values()].filter((e) => e.seat >= 0);
    showWaiting(waitingCount(seated));
    const sig = JSON.stringify([loaded, error, rows.length, rows.map((r) => r.table_id),
      seated.map((e) => [e.table_id, e.status, e.myTurn, e.onTurn, e.unread, e.names])]);
    if (sig === shownSig) return;
    shownSig = sig;
    for (const fn of listeners) fn();
  }

  function follow(id) {
    if (conn.followed.has(id) || conn.followed.size >= FOLLOW_MAX) return;
    conn.follow(id);
  }

  function drop(id) {
    conn.unfollow(id);
    entries.delete(id);
  }

  /** The table's entry, seeded from this tab's cached picture (a reload resumes without a new state frame). */
  function entryOf(id) {
    let e = entries.get(id);
    if (e) return e;
    const cached = loadTableCache(id);
    if (cached?.table_info && cached.table_info.my_seat >= 0 && cached.identity === ctx.session()?.identity) {
      e = { ...entryAfter(null, { table: id, seq: cached.seq, table_info: cached.table_info, view: cached.view }), became: false };
      entries.set(id, e);
    }
    return e || null;
  }

  function onPicture(f) {
    const before = entryOf(f.table);
    const e = entryAfter(before, f);
    if (e.seat < 0) { // not (or no longer) seated there: not the watch's
      if (before) drop(f.table);
      return;
    }
    entries.set(f.table, e);
    if (e.status === 'playing' || e.status === 'lobby') follow(f.table);
    else if (conn.followed.has(f.table)) conn.unfollow(f.table); // over or ended: nothing will wait for the player
    if (e.became) tell(e);
    changed();
  }

  function onChat(f) {
    const e = entryOf(f.table);
    if (!e) return;
    e.chat = chatAfter(e.chat || [], f.lines || []);
    if (readAt(f.table) === null) setReadAt(f.table, lastLineTime(e.chat) || 1); // first sight: the past is read
    if (f.table === shownTable() && visible()) setReadAt(f.table, Math.max(readAt(f.table) || 0, lastLineTime(e.chat)));
    e.unread = unreadCount(e.chat, readAt(f.table), e.seat);
    changed();
  }

  /** The table on screen, in a visible tab: its chat is read. */
  function markShownRead() {
    const id = shownTable();
    const e = id && entries.get(id);
    if (!e || !visible()) return;
    setReadAt(id, Math.max(readAt(id) || 0, lastLineTime(e.chat || [])));
    e.unread = 0;
    changed();
  }

  /** A table turned to the player: a beep, and a notification when the tab is hidden (once per turn, in one tab). */
  function tell(e) {
    const key = `${e.table_id}:${e.seq}`;
    if (visible() && shownTable() === e.table_id) { // looking at it: nothing to tell
      claim(key);
      return;
    }
    setTimeout(() => {
      const now = entries.get(e.table_id);
      if (!now?.myTurn || !claim(key)) return;
      beep();
      if (!visible() && notifyOn()) {
        const others = now.names.filter((_, i) => i !== now.seat && now.names[i]);
        notify(t('turn.notify_title'),
          t('turn.notify_body', { ruleset: rulesetLabel(ctx.catalog, now.ruleset), names: listNames(others) }),
          `mm-turn-${now.table_id}`, () => ctx.navigate(`/m/${now.table_id}`));
      }
    }, ALERT_DELAY_MS);
  }

  function onFrame(ev) {
    const f = ev.detail;
    if (!f || typeof f.table !== 'string') return;
    if (f.type === 'state' || f.type === 'events') onPicture(f);
    else if (f.type === 'chat') onChat(f);
    else if (f.type === 'error' && f.code === 'unknown_table' && entries.has(f.table)) {
      drop(f.table);
      changed();
    }
  }

  for (const type of ['state', 'events', 'chat', 'error']) conn.addEventListener(type, onFrame);

  /** Ask the gateway for the player's tables (new ones since), and follow those under way. */
  function refresh() {
    if (!ctx.session()) return Promise.resolve();
    if (refreshing) return refreshing;
    refreshing = (async () => {
      try {
        const data = await api.myTables();
        rows = data.tables || [];
        error = null;
      } catch (e) {
        error = e.code || 'unavailable';
        if (e.code === 'no_session') stale = true;
      }
      loaded = true;
      lastRefresh = Date.now();
      const wanted = new Set(tablesToFollow(rows, FOLLOW_MAX));
      for (const id of [...conn.followed]) { // the list moves on: tables over, or pushed out by newer ones
        const e = entries.get(id);
        if (!wanted.has(id) && !(e && (e.status === 'playing' || e.status === 'lobby'))) drop(id);
      }
      for (const id of wanted) follow(id);
      if (ctx.session()) conn.start();
      changed();
    })().finally(() => { refreshing = null; });
    return refreshing;
  }

  /** Ask again by itself (a timer, the tab shown again, the socket back): only with the socket open, so an
   * offline page logs no failed request, and not after the session was refused. */
  function autoRefresh() {
    if (visible() && ctx.session() && conn.status === 'open' && !stale) refresh();
  }

  /** Another person plays on this device now (signed in or out): start again. */
  function reset() {
    stale = false;
    for (const id of [...conn.followed]) conn.unfollow(id);
    entries.clear();
    rows = [];
    loaded = false;
    error = null;
    changed();
    refresh();
  }

  setInterval(autoRefresh, REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (!visible()) return;
    markShownRead();
    if (Date.now() - lastRefresh > REFRESH_MS / 3) autoRefresh();
  });
  conn.addEventListener('status', () => { // back after a drop: tables may have come meanwhile
    if (conn.status === 'open' && loaded && Date.now() - lastRefresh > REFRESH_MS) autoRefresh();
  });

  return {
    /** Ask the gateway for the player's tables now (a new session, the home page, "Atualizar"). */
    refresh() { stale = false; return refresh(); },
    reset,
    /** The screen changed: the table now shown has its chat read. */
    routed() { markShownRead(); },
    /** "Minhas mesas": {loading, error, rows} with what the socket says now. */
    mine() {
      return { loading: !loaded, error, rows: mergedRows(rows, [...entries.values()]) };
    },
    waiting() { return waitingCount([...entries.values()].filter((e) => e.seat >= 0)); },
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}
