// "Sua vez!" wherever the player is on the site (issue 15): what the turn watch knows of each
// table the player sits at, from the socket's frames (docs/protocol.md), and the words of the
// tab's title. Pure module: no DOM, no storage, no socket; unit-tested in node.

const CHAT_KEPT = 100; // chat lines remembered per table (the socket sends the last 100 on subscribe)

/** Whether the table waits for this viewer: a seated player on turn in a round under way, not in automatic mode. */
export function isMyTurn(info, view) {
  if (!info || !view || info.status !== 'playing' || view.round_over) return false;
  const me = info.my_seat;
  if (!(me >= 0) || (info.auto || []).includes(me)) return false; // the system plays an automatic seat at once
  return view.turn === me;
}

/** A table's entry after a `state` or `events` frame: {table_id, ruleset, status, seat, myTurn, onTurn, names,
 * seq, became}; `became` is true when the table turned to this viewer since the last picture (never on the first). */
export function entryAfter(prev, frame) {
  const info = frame.table_info || {};
  const view = frame.view || null;
  const myTurn = isMyTurn(info, view);
  const playing = info.status === 'playing' && view && !view.round_over;
  return {
    ...(prev || { unread: 0, chat: [] }),
    table_id: frame.table,
    ruleset: info.ruleset,
    status: info.status,
    seat: info.my_seat >= 0 ? info.my_seat : -1,
    myTurn,
    onTurn: playing && view.turn >= 0 ? view.turn : null,
    names: (info.players || []).map((p) => p?.name ?? ''),
    seq: frame.seq,
    known: true,
    became: !!prev?.known && !prev.myTurn && myTurn,
  };
}

/** The table's chat lines once a `chat` frame is added (a line sent again on a new subscription counted once). */
export function chatAfter(lines, added) {
  const key = (l) => `${l.time}|${l.seat}|${l.text}`;
  const seen = new Set(lines.map(key));
  const out = [...lines];
  for (const l of added) {
    if (seen.has(key(l))) continue;
    seen.add(key(l));
    out.push(l);
  }
  return out.slice(-CHAT_KEPT);
}

/** How many lines the player has not read: others' lines after `readAt` (ms; the last line seen at that table). */
export function unreadCount(lines, readAt, me) {
  return lines.filter((l) => l.time > (readAt || 0) && l.seat !== me).length;
}

/** The time of the last line (what reading the table's chat marks as read), 0 without lines. */
export function lastLineTime(lines) {
  return lines.reduce((m, l) => Math.max(m, l.time || 0), 0);
}

/** How many of the entries wait for the player. */
export function waitingCount(entries) {
  let n = 0;
  for (const e of entries) if (e.myTurn) n += 1;
  return n;
}

/** Which tables the watch follows: those under way or in their lobby, the most recently moved first, at most `max`. */
export function tablesToFollow(rows, max = 20) {
  return rows.filter((r) => r.status === 'playing' || r.status === 'lobby').slice(0, max).map((r) => r.table_id);
}

/** The tab's title with the count in front ("(2) Sua vez! · Ranking · Mau-Mau Online"); the bare title without. */
export function titleWith(base, n, prefix) {
  return n > 0 ? `${prefix} · ${base}` : base;
}

/** The title a screen set, without the count this module put in front of it. */
export function bareTitle(title) {
  return title.replace(/^\(\d+\+?\)[^·]*· /, '');
}

/** The badge's text on the icon: the count, "9+" past nine. */
export function badgeText(n) {
  return n > 9 ? '9+' : String(n);
}

/** The table shown at a path (/m/<table_id>), or null. */
export function tableOfPath(path) {
  const m = /^\/m\/([A-Za-z0-9-]{1,64})\/?$/.exec(path || '');
  return m ? m[1] : null;
}

/** The rows of "Minhas mesas": the gateway's list (GET /api/my-tables) with what the socket says now of the
 * tables it follows (status, whose turn, unread lines), and the tables the socket knows the list does not yet. */
export function mergedRows(rows, entries) {
  const live = new Map(entries.map((e) => [e.table_id, e]));
  const out = rows.map((r) => {
    const e = live.get(r.table_id);
    live.delete(r.table_id);
    if (!e) return { ...r, unread: 0, names: null };
    return { ...r, status: e.status, on_turn: e.onTurn, my_turn: e.myTurn, seat: e.seat >= 0 ? e.seat : r.seat,
      unread: e.unread || 0, names: e.names };
  });
  const fresh = [...live.values()].filter((e) => e.seat >= 0 && e.status).map((e) => ({
    table_id: e.table_id, ruleset: e.ruleset, status: e.status, seat: e.seat, on_turn: e.onTurn, my_turn: e.myTurn,
    last_move_at: null, unread: e.unread || 0, names: e.names,
  }));
  return [...fresh, ...out];
}

/** Keys of the turns already told (sound, notification), shared by the tabs: the newest `max`, with `key` added. */
export function remember(keys, key, max = 50) {
  return [...keys.filter((k) => k !== key), key].slice(-max);
}
