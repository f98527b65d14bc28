// Entry point: routing (/ and /m/<table_id>?c=<invitation>), the top bar (with the account's
// corner), the connection banner, toasts, the deck design and the tutorial. Each screen lives in
// its own module.

import { accountOffer, openAccountDialog } from './accountui.js';
import { api, Connection, loadSession, onAccountElsewhere, sessionSettled } from './api.js';
import { DEFAULT_DESIGN, DESIGN_IDS, showFigures } from './cards.js';
import { rulesetLabel } from './catalog.js';
import { h, mount } from './dom.js';
import { ownBuild, watchFreshness } from './freshness.js';
import { errorText, initLang, onLangChange, t } from './i18n.js';
import { createHome, nameForm } from './lobby.js';
import { parseProfilePath } from './rankings.js';
import { registerServiceWorker } from './shell.js';
// "Sua vez!" on every page: the tables the player sits at, followed over the socket; the top bar's 🔊
import { unlockAudioOnGesture } from './alerts.js';
import { unlockSfxOnGesture } from './sfx.js';
import { onSoundChange } from './sound.js';
// the top bar: one row, the less used of its tools behind ☰ on a phone
import { renderTools as drawTools } from './topbar.js';
import { createTurnWatch } from './turnwatch.js';

const DESIGN_KEY = 'mm.deck';

// Every screen but the lobby is a chunk of the build of its own (docs/client.md), fetched when first
// opened: the lobby's first screen loads only what it shows.
const SCREENS = {
  table: () => import('./table.js').then((m) => (c, r) => m.createTableScreen(c, r.tableId, r.invitation)),
  ranking: () => import('./rankingpage.js').then((m) => (c) => m.createRankingScreen(c)), // /ranking
  profile: () => import('./profile.js').then((m) => (c, r) => m.createProfileScreen(c, r.player)), // /jogador/<name>
  // disputes: the staff's desk (/staff) and "Meus relatos" (/relatos)
  staff: () => import('./disputes.js').then((m) => (c, r) => m.createStaffScreen(c, r.dispute)),
  reports: () => import('./disputes.js').then((m) => (c) => m.createMyReportsScreen(c)),
  // "Rever partida": a table's history step by step (/m/<table>/rever)
  replay: () => import('./replay.js').then((m) => (c, r) => m.createReplayScreen(c, r.tableId, r)),
};

// A table and its replay are a player's: opened with no session (an invitation's first visit), the page
// asks the name with the lobby's own form and fetches the screen's chunk only behind it, so that the
// first screen a guest sees costs what the lobby's costs.
const NAME_FIRST = { table: 'name.needed_for_table', replay: 'replay.name_needed' };
/** What the screen `name` asks first (the name form's note), or '' when it may be shown at once. */
const nameFirst = (name) => (loadSession() ? '' : NAME_FIRST[name] || '');

const conn = new Connection();
const freshness = watchFreshness(conn, ownBuild(import.meta.url));
const renderTools = () => drawTools(ctx);
let screen = null;
let helpRuleset = null; // the ruleset of the screen shown (a table's, the create form's); else the catalog's first

function savedDesign() {
  try {
    const d = localStorage.getItem(DESIGN_KEY);
    return DESIGN_IDS.includes(d) ? d : DEFAULT_DESIGN;
  } catch { return DEFAULT_DESIGN; }
}

const ctx = {
  conn,
  catalog: null, // GET /api/rulesets, asked once before the first screen
  design: savedDesign(),
  session: () => loadSession(),
  navigate(path, { replace = false } = {}) {
    if (freshness.stale) { // a new build is served: the next screen comes from it
      if (replace) location.replace(path);
      else location.assign(path);
      return;
    }
    if (replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    route();
  },
  toast(text, kind = 'info') { toast(text, kind); },
  /** The deck design chosen (the top bar's picker, the pause menu): kept on this device, every card drawn again. */
  setDesign(id) {
    if (!DESIGN_IDS.includes(id)) return;
    ctx.design = id;
    try { localStorage.setItem(DESIGN_KEY, id); } catch { /* private mode */ }
    renderTools();
    screen?.render();
  },
  refusal(ack) { toast(errorText(ack.code || 'unknown'), 'error'); },
  setHelpRuleset(rs) { helpRuleset = rs || null; },
  openHelp(rs) {
    const ruleset = rs || helpRuleset || ctx.catalog?.rulesets[0]?.name;
    import('./tutorial.js').then((m) => m.openTutorial(ruleset, ctx.design, (id) => rulesetLabel(ctx.catalog, id)));
  },
  sessionChanged() { conn.restart(); renderTools(); ctx.turns.refresh(); },
  openAccount(mode) { openAccountDialog(ctx, mode); },
  offerAccount() { return accountOffer(ctx); },
  /** Signed in or out: this device plays as someone else now, so every screen starts again. */
  accountChanged(text) {
    conn.stop();
    renderTools();
    ctx.turns.reset();
    route();
    if (text) toast(text, 'info');
  },
};

ctx.turns = createTurnWatch(ctx); // "Sua vez!": the title, the tab's icon, "Minhas mesas", the beep

function toast(text, kind) {
  const box = document.getElementById('toasts');
  const item = h('div', { class: `toast toast-${kind}` }, text);
  box.append(item);
  setTimeout(() => item.classList.add('toast-out'), 3200);
  setTimeout(() => item.remove(), 3700);
}

// An account's session can end elsewhere (signed out everywhere, 30 days gone by) while this
// page still shows it; the socket then cannot open again. Ask who this device is before
// retrying forever.
let asking = null;
function askWhoWhenStuck() {
  if (asking || conn.attempt < 2 || !loadSession()?.account) return;
  asking = api.me()
    .then((s) => { if (!s?.account) ctx.accountChanged(errorText('no_account')); })
    .catch(() => { /* unreachable: the socket's retries go on */ })
    .finally(() => { asking = null; });
}

function renderBanner() {
  const banner = document.getElementById('connection-banner');
  const status = conn.status;
  const show = status === 'reconnecting' || (status === 'connecting' && conn.attempt > 0);
  banner.hidden = !show;
  banner.dataset.status = status;
  banner.textContent = show ? t('conn.reconnecting') : '';
}

function parseRoute() {
  const replay = /^\/m\/([A-Za-z0-9-]{1,64})\/rever\/?$/.exec(location.pathname);
  if (replay) {
    const q = new URLSearchParams(location.search);
    return { name: 'replay', tableId: replay[1], match: Number(q.get('partida')) || 0, relato: q.get('relato') || '', moment: Number(q.get('lance')) || 0 };
  }
  const m = /^\/m\/([A-Za-z0-9-]{1,64})\/?$/.exec(location.pathname);
  if (m) return { name: 'table', tableId: m[1], invitation: new URLSearchParams(location.search).get('c') || '' };
  if (/^\/ranking\/?$/.test(location.pathname)) return { name: 'ranking' };
  if (/^\/staff\/?$/.test(location.pathname)) return { name: 'staff', dispute: new URLSearchParams(location.search).get('relato') || '' };
  if (/^\/relatos\/?$/.test(location.pathname)) return { name: 'reports' };
  const player = parseProfilePath(location.pathname);
  if (player) return { name: 'profile', player };
  return { name: 'home' };
}

let routed = 0; // the latest route(): a screen still loading when another is asked is not shown

async function route() {
  if (!ctx.catalog) return; // the first screen waits for the rulesets
  const app = document.getElementById('app');
  const r = parseRoute();
  const turn = ++routed;
  const note = nameFirst(r.name);
  if (note) {
    showNameFirst(app, note);
    requestAnimationFrame(() => setTimeout(() => SCREENS[r.name]().catch(() => null))); // after the first paint
    return;
  }
  const make = SCREENS[r.name] ? await SCREENS[r.name]() : null;
  if (turn !== routed) return;
  screen?.destroy?.();
  if (make) {
    screen = make(ctx, r);
  } else {
    if (location.pathname !== '/') history.replaceState(null, '', '/');
    helpRuleset = null;
    screen = createHome(ctx);
  }
  mount(app, screen.el);
  screen.render();
  if (loadSession()) conn.start();
  ctx.turns.routed();
}

/** The name form as a screen of its own; a name given, the screen asked is shown. */
function showNameFirst(app, note) {
  screen?.destroy?.();
  const el = h('div', { class: 'name-first' });
  screen = { el, render: () => mount(el, nameForm(ctx, { title: t('name.title'), note: t(note), onDone: route })) };
  mount(app, el);
  screen.render();
}

function boot() {
  initLang();
  renderTools();
  onLangChange(() => { renderTools(); renderBanner(); screen?.render(); });
  conn.addEventListener('status', renderBanner);
  conn.addEventListener('status', askWhoWhenStuck);
  conn.addEventListener('session_ended', async () => {
    // a new password asked on this page ends this session before its answer brings the next one's cookie
    await sessionSettled();
    const was = loadSession()?.identity;
    let now;
    try {
      now = await api.me();
    } catch {
      conn.restart(); // unreachable: the socket's own retries find out
      return;
    }
    // a new session of the same account (its password changed on this page): only the socket is new
    if (now?.account && now.identity === was) conn.restart();
    else ctx.accountChanged(now?.account ? '' : errorText('no_account'));
  });
  conn.addEventListener('error', (e) => {
    const f = /** @type {CustomEvent} */ (e).detail;
    if (f.code === 'unknown_table' || f.code === 'too_fast') return; // the screens handle these
    toast(errorText(f.code), 'error');
  });
  window.addEventListener('popstate', route);
  document.addEventListener('click', (e) => {
    const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest('a[data-link]'));
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin) return;
    e.preventDefault();
    ctx.navigate(url.pathname + url.search);
  });
  onAccountElsewhere(() => ctx.accountChanged());
  unlockAudioOnGesture(); // the beep needs the page's first tap or key
  unlockSfxOnGesture(); // so do the table's sounds
  onSoundChange(() => renderTools());
  // the court cards' figures once the first screen is in: then every card is drawn again
  window.addEventListener('load', () => { showFigures(); screen?.render(); }, { once: true });
  // who this device is (an account's cookie outlives the page) before the first screen
  const asked = api.me().catch(() => null).finally(renderTools);
  const first = parseRoute().name;
  if (!nameFirst(first)) SCREENS[first]?.(); // the first screen's chunk, while the rulesets are asked
  loadCatalog(asked);
  registerServiceWorker(); // the page installable, and a clear page when offline
}

// Every screen needs the rulesets; while the gateway does not give them, say so and ask again.
async function loadCatalog(asked, attempt = 0) {
  try {
    ctx.catalog = await api.rulesets();
  } catch {
    mount(document.getElementById('app'),
      h('p', { class: 'notice notice-warn', testid: 'rulesets-unavailable', role: 'alert' }, errorText('unavailable')));
    setTimeout(() => loadCatalog(asked, attempt + 1), Math.min(15000, 1000 * 2 ** attempt));
    return;
  }
  await asked;
  route();
  ctx.turns.refresh(); // the tables the player sits at, followed on every page
}

boot();
