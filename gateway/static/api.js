// The gateway's protocol (docs/protocol.md): the HTTP API and the tab's one WebSocket.
// A guest's session (device token + name) lives in localStorage, an account's in an HttpOnly
// cookie; the last seq and picture of each table in memory and sessionStorage, so a reload
// resumes with `since`.

const TOKEN_KEY = 'mm.token';
const NAME_KEY = 'mm.name';
const IDENTITY_KEY = 'mm.identity';
// The page cannot read the HttpOnly cookie: this remembers whose it is (identity and name, no
// secret), so the header and the screens know at once, and GET /api/me is asked only when
// there may be a session to ask about.
const ACCOUNT_KEY = 'mm.account';
const TABLE_KEY = (id) => `mm.table.${id}`;

function ls() { try { return window.localStorage; } catch { return null; } }
function ss() { try { return window.sessionStorage; } catch { return null; } }

/** The guest of this device (its token kept even while an account is signed in: signing out returns to it). */
function loadGuest() {
  const token = ls()?.getItem(TOKEN_KEY);
  if (!token) return null;
  return { token, name: ls().getItem(NAME_KEY) || '', identity: ls().getItem(IDENTITY_KEY) || '' };
}

/** The account signed in on this device, as last told by the gateway, or null. */
export function loadAccount() {
  try {
    const a = JSON.parse(ls()?.getItem(ACCOUNT_KEY) || 'null');
    return a && typeof a.identity === 'string' && typeof a.name === 'string' ? a : null;
  } catch { return null; }
}

function saveAccount(a) {
  if (a) ls()?.setItem(ACCOUNT_KEY, JSON.stringify({ identity: a.identity, name: a.name, avatar: a.avatar || '' }));
  else ls()?.removeItem(ACCOUNT_KEY);
}

/** Calls `fn` when another tab signs in or out: the cookie is the browser's, not the tab's. */
export function onAccountElsewhere(fn) {
  window.addEventListener('storage', (e) => { if (e.key === ACCOUNT_KEY) fn(); });
}

/** Who plays on this device: the account signed in ({account: true}), else the guest, else nobody (null). */
export function loadSession() {
  const account = loadAccount();
  return account ? { ...account, account: true } : loadGuest();
}

function saveSession(s) {
  ls()?.setItem(TOKEN_KEY, s.token);
  ls()?.setItem(NAME_KEY, s.name);
  ls()?.setItem(IDENTITY_KEY, s.identity);
}

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = 0) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, with too_many_requests
  }
}

// Header values are byte strings: send the name's UTF-8 bytes, which the server reads as UTF-8.
function headerName(name) {
  return Array.from(new TextEncoder().encode(name), (b) => String.fromCharCode(b)).join('');
}

/** The guest's Bearer token and name, sent beside an account's cookie too (registering converts this guest). */
function guestHeaders(headers) {
  const s = loadGuest();
  if (s) {
    headers.Authorization = `Bearer ${s.token}`;
    if (s.name) headers['X-Player-Name'] = headerName(s.name);
  }
  return headers;
}

// The requests that may change this browser's session cookie (a sign-in, a new password), while in flight.
const changing = new Set();

/** Once the session-changing requests now in flight have their answers (and so their cookies). */
export function sessionSettled() {
  return Promise.allSettled([...changing]);
}

function http(method, path, body) {
  const call = request(method, path, body);
  if (method !== 'GET') {
    changing.add(call);
    call.finally(() => changing.delete(call)).catch(() => {});
  }
  return call;
}

async function request(method, path, body) {
  const headers = guestHeaders({ Accept: 'application/json' });
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    // the account's session cookie (HttpOnly) goes with every call; a guest's token goes in the header
    res = await fetch(path, {
      method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || (res.status >= 500 ? 'unavailable' : 'bad_request'), err.message,
      Number(res.headers.get('Retry-After')) || 0);
  }
  return data;
}

export const api = {
  async createSession(name) {
    const data = await http('POST', '/api/session', { name });
    const s = { token: data.token, identity: data.identity, name: data.name || name };
    saveSession(s);
    return s;
  },
  async rename(name) {
    if (loadAccount()) {
      const data = await http('PATCH', '/api/me', { name }); // a taken name is refused: the caller says so
      saveAccount(data);
      return loadSession();
    }
    const s = loadGuest();
    if (!s) return api.createSession(name);
    s.name = name;
    saveSession(s);
    try {
      const data = await http('PATCH', '/api/session', { name });
      if (data && data.name) { s.name = data.name; saveSession(s); }
    } catch { /* the name also travels with every request */ }
    return s;
  },
  /** `more`: the table's other choices, e.g. `{open: true}` (listed: anyone may sit without the invitation). */
  createTable: (ruleset, options, seats, watch = false, more = {}) =>
    http('POST', '/api/tables', { ruleset, options, seats, watch, ...more }),
  table: (id) => http('GET', `/api/tables/${encodeURIComponent(id)}`),
  join: (id, invitation) => http('POST', `/api/tables/${encodeURIComponent(id)}/join`, { invitation }),
  bots: (id, level = '') => http('POST', `/api/tables/${encodeURIComponent(id)}/bots`, { level }),
  start: (id) => http('POST', `/api/tables/${encodeURIComponent(id)}/start`),
  myTables: () => http('GET', '/api/my-tables'),
  /** "Rever partida": the table's history as steps, as this person saw it (docs/protocol.md). */
  replay: (id, relato = '') => http('GET', `/api/tables/${encodeURIComponent(id)}/replay${relato ? `?relato=${encodeURIComponent(relato)}` : ''}`),
  /** Ask the gateway who this device is (only when it may have a session: a 401 is a console error). */
  async me() {
    if (!loadSession()) return null;
    try {
      const data = await http('GET', '/api/me');
      saveAccount(data.account ? data : null);
    } catch (e) {
      if (e.code !== 'no_session') throw e; // unreachable: keep what the device knew
      saveAccount(null);
    }
    return loadSession();
  },
  async register(name, password) {
    saveAccount(await http('POST', '/api/accounts', { name, password }));
    return loadSession();
  },
  async login(name, password) {
    saveAccount(await http('POST', '/api/login', { name, password }));
    return loadSession();
  },
  async logout() {
    await http('POST', '/api/logout');
    saveAccount(null);
    return loadSession();
  },
  rulesets: () => http('GET', '/api/rulesets'),
  tutorials: () => http('GET', '/api/tutorials'), // every ruleset's tutorial steps, from its learning data
  // the rankings and the profiles (public), the account's own settings
  rankings: ({ ruleset, category, period, page = 0, by = 'wins' }) => // by: 'wins' or 'xp' (⚔ competitive tables)
    http('GET', `/api/rankings?${new URLSearchParams({ ruleset, category, period, by, page: String(page) })}`),
  player: (name) => http('GET', `/api/players/${encodeURIComponent(name)}`),
  /** Change the account's name, avatar or password ({password, old_password}): what it is now. */
  async updateMe(changes) {
    const data = await http('PATCH', '/api/me', changes);
    saveAccount(data);
    return data;
  },
  /** End every session of the account, on every device. */
  async logoutEverywhere() {
    await http('POST', '/api/logout', { everywhere: true });
    saveAccount(null);
    return loadSession();
  },
  // playing with strangers: the open tables and the quick match ("Jogar agora")
  openTables: () => http('GET', '/api/open-tables'),
  /** {ruleset, seats, turn_seconds} → {ticket, status: 'waiting'|'matched', table_id} */
  quickMatch: (choice) => http('POST', '/api/quick-match', choice),
  /** Where the ticket is: answered as soon as it is no longer waiting, or after `wait` seconds (at most 10). */
  quickMatchStatus: (ticket, wait = 0) => http('GET', `/api/quick-match/${encodeURIComponent(ticket)}?wait=${wait}`),
  cancelQuickMatch: (ticket) => http('DELETE', `/api/quick-match/${encodeURIComponent(ticket)}`),
  /** The same, from a page going away (pagehide, another screen): the request outlives the page. */
  leaveQuickMatch(ticket) {
    try {
      fetch(`/api/quick-match/${encodeURIComponent(ticket)}`, {
        method: 'DELETE', keepalive: true, credentials: 'same-origin', headers: guestHeaders({ Accept: 'application/json' }),
      }).catch(() => { /* gone with the page: the ticket is dropped 20 s after its last question anyway */ });
    } catch { /* idem */ }
  },
};

/** A client-unique id for a command (re-sent as is after a reconnect: stored once). */
export function newId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The last picture of a table this tab saw: {seq, table_info, view, log}. */
export function loadTableCache(id) {
  try {
    const raw = ss()?.getItem(TABLE_KEY(id));
    return raw ? JSON.parse(raw) : null;
  } catch { return null; }
}

export function saveTableCache(id, cache) {
  try { ss()?.setItem(TABLE_KEY(id), JSON.stringify(cache)); } catch { /* full: keep it in memory */ }
}

const ACK_TIMEOUT = 30000; // the gateway sends a command again through a stream's election for up to 20 s
const RESUBSCRIBE_AFTER = 2000; // ms
const PING_EVERY = 15000;
const SILENCE_LIMIT = 45000; // three pings unanswered: the connection is dead though the browser has not noticed
export const SESSION_ENDED = 4001; // the gateway's close code: this account session ended (gateway/revocation.py)

/** Whether a socket that last heard anything at `lastHeard` (ms) is to be given up at `now`. */
export function isSilent(lastHeard, now, limit = SILENCE_LIMIT) {
  return now - lastHeard > limit;
}

/**
 * The tab's one WebSocket. Emits: 'status' ('connecting' | 'open' | 'reconnecting'),
 * 'state', 'events', 'chat', 'error', 'welcome' (the frames, as received), and 'session_ended'
 * (the account session is over: the socket stays closed until it is started again).
 */
export class Connection extends EventTarget {
  constructor() {
    super();
    this.ws = null;
    this.status = 'idle';
    this.attempt = 0;
    this.tables = new Map(); // table id -> {seq, hasPicture}
    // who holds each table: the screen showing it (subscribe) and the turn watch following it (follow);
    // the table is unsubscribed only when neither holds it any more
    this.shown = new Set();
    this.followed = new Set();
    this.pending = new Map(); // command id -> {frame, resolve, timer}
    this.retryTimer = null;
    this.pingTimer = null;
  }

  start() {
    if (this.ws || this.retryTimer) return;
    this._open();
  }

  stop() {
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.retryTimer = null;
    if (this.ws) {
      this.ws.stopped = true; // its late onclose must not reconnect
      this.ws.close();
    }
    this.ws = null;
  }

  /** After a rename (the name travels in the socket's URL), signing in or out: a socket for who plays now. */
  restart() {
    this.stop();
    this.start();
  }

  _emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  /** From now on (and after every reconnection), each change of an open table's lobby line: 'open_table' events. */
  watchOpenTables() {
    if (this.openTables) return;
    this.openTables = true;
    if (this.ws && this.ws.readyState === 1) this._send({ type: 'open_tables' });
  }

  _setStatus(status) {
    this.status = status;
    this._emit('status', status);
  }

  _open() {
    const s = loadSession();
    if (!s) return;
    if (!s.account && this.guestCookie !== s.token) {
      // a guest's socket is its device token's cookie (HttpOnly): no token in any URL
      fetch('/api/session/cookie', { method: 'POST', headers: { Authorization: `Bearer ${s.token}` } })
        .then((r) => { if (r.ok) this.guestCookie = s.token; })
        .catch(() => {})
        .finally(() => this._connect(s));
      return;
    }
    this._connect(s);
  }

  _connect(s) {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = s.account ? '' : `?${new URLSearchParams({ name: s.name || '' })}`;
    this._setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    /** @type {WebSocket & { stopped?: boolean, lastHeard?: number }} */
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws${q}`);
    } catch {
      this._retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws.stopped) return;
      this.attempt = 0;
      this._setStatus('open');
      this._send({ type: 'hello', v: 1 });
      if (this.openTables) this._send({ type: 'open_tables' });
      for (const [table, t] of this.tables) this._subscribeFrame(table, t);
      for (const p of this.pending.values()) this._send(p.frame);
      ws.lastHeard = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this._keepAlive(ws), PING_EVERY);
    };
    ws.onmessage = (msg) => {
      if (ws.stopped) return;
      ws.lastHeard = Date.now();
      let frame;
      try { frame = JSON.parse(msg.data); } catch { return; }
      this._onFrame(frame);
    };
    ws.onclose = (ev) => {
      if (ws.stopped || this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      // signed out elsewhere, or a new password: the page must learn who it is now, not reconnect as before
      if (ev.code === SESSION_ENDED) this._emit('session_ended');
      else this._retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /** Ping the server; a socket that heard nothing for too long is dropped and opened again. */
  _keepAlive(ws) {
    if (this.ws !== ws) return;
    if (!isSilent(ws.lastHeard, Date.now())) {
      this._send({ type: 'ping' });
      return;
    }
    ws.stopped = true; // its late onclose must not reconnect a second time
    clearInterval(this.pingTimer);
    this.ws = null;
    ws.close();
    this._retry();
  }

  _retry() {
    this.attempt += 1;
    this._setStatus('reconnecting');
    const base = Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = base / 2 + Math.random() * base / 2;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this._open(); }, delay);
  }

  _send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  _subscribeFrame(table, t) {
    const frame = { type: 'subscribe', table };
    if (t.hasPicture && t.seq > 0) frame.since = t.seq;
    this._send(frame);
  }

  /** Watch a table (the screen showing it); `since` only when this tab still holds the picture at that seq. */
  subscribe(table, { seq = 0, hasPicture = false } = {}) {
    const t = { seq, hasPicture: hasPicture && seq > 0 };
    this.shown.add(table);
    this.tables.set(table, t);
    this._subscribeFrame(table, t);
  }

  unsubscribe(table) {
    this.shown.delete(table);
    if (!this.followed.has(table)) this._drop(table);
  }

  /** Follow a table in the background (the turn watch: "Sua vez!" on every page); its frames come as ever. */
  follow(table) {
    this.followed.add(table);
    if (this.tables.has(table)) return; // shown already: its frames come
    const t = { seq: 0, hasPicture: false };
    this.tables.set(table, t);
    this._subscribeFrame(table, t);
  }

  unfollow(table) {
    this.followed.delete(table);
    if (!this.shown.has(table)) this._drop(table);
  }

  _drop(table) {
    if (!this.tables.delete(table)) return;
    this._send({ type: 'unsubscribe', table });
  }

  lastSeq(table) { return this.tables.get(table)?.seq ?? 0; }

  /** Send a command and wait for its ack: resolves {ok, code?, message?, seqs?, seat?}. */
  command(table, command) {
    const id = newId();
    const frame = { type: 'command', table, id, command };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, code: 'unavailable', message: 'no answer' });
      }, ACK_TIMEOUT);
      this.pending.set(id, { frame, resolve, timer });
      this._send(frame); // when closed, sent again on reconnect with the same id
    });
  }

  _onFrame(frame) {
    switch (frame.type) {
      case 'ack': {
        const p = this.pending.get(frame.id);
        if (p) {
          clearTimeout(p.timer);
          this.pending.delete(frame.id);
          p.resolve(frame);
        }
        break;
      }
      case 'state':
      case 'events': {
        const t = this.tables.get(frame.table);
        if (!t) return; // unsubscribed meanwhile
        if (frame.type === 'events' && t.hasPicture && frame.seq <= t.seq) return; // seen already
        t.seq = frame.seq;
        t.hasPicture = true;
        this._emit(frame.type, frame);
        break;
      }
      case 'chat':
        if (this.tables.has(frame.table)) this._emit('chat', frame);
        break;
      case 'error':
        if (frame.code === 'unavailable' && this.tables.has(frame.table)) {
          // the gateway could not follow the table just now (NATS away): ask again, quietly
          setTimeout(() => {
            const t = this.tables.get(frame.table);
            if (t) this._subscribeFrame(frame.table, t);
          }, RESUBSCRIBE_AFTER);
          break;
        }
        this._emit('error', frame);
        break;
      case 'welcome':
        this._emit('welcome', frame);
        break;
      case 'open_table':
        this._emit('open_table', frame.table);
        break;
      default:
        break;
    }
  }
}
