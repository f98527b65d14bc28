// The table screen's wiring: the socket's frames of this table folded into its state
// (table/state.js), the player's clicks turned into commands, and the screen's regions
// (table/*.js: each a render function of the state) put in place. What may be done comes only
// from view.legal_actions.

import { loadTableCache, saveTableCache } from './api.js';
import { rulesetOf } from './catalog.js';
import { SEAT_REFUSALS } from './competitive.js';
import { h, keepFocus, mount } from './dom.js';
import { t } from './i18n.js';
import { playSound } from './sfx.js';
import { animate, captureRects, celebrateMatch, revealRound } from './table/animate.js';
import { chatSenders, renderChatFrame, renderChatLog } from './table/chat.js';
import { renderGame } from './table/game.js';
import { tableReactions } from './table/reactions.js';
import { renderHead } from './table/head.js';
import { keepHandFocus } from './table/hand.js';
import { buildRegions, unknownTable } from './table/layout.js';
import { CARD_ACTIONS } from './table/legal.js';
import { renderLobby } from './table/lobby.js';
import { formatMove, readMoves } from './table/notation.js';
import { renderLog } from './table/logpanel.js';
import { menuRegion } from './table/menuregion.js';
import { renderNotices } from './table/notices.js';
import { cardPlay } from './table/play.js';
import { renderScores } from './table/scores.js';
import { tableSounds } from './table/sounds.js';
import { initialState, legalOf, mySeat, reduceFrame } from './table/state.js';
import { turnTimer } from './table/timer.js';

const CACHED_LOG = 60; // log entries kept with the cached picture, for a reload

export function createTableScreen(ctx, tableId, invitation) {
  const el = h('div', { class: 'table-screen', testid: 'table-screen' });
  const cached = loadTableCache(tableId);
  const session = ctx.session();
  let st = initialState(cached && session && cached.identity === session.identity ? cached : null);
  let destroyed = false;
  let regions = null; // the skeleton, built once: the chat input survives every render
  let busy = false; // one command at a time
  let playRect = null; // where this player's card was, for its slide onto the pile
  let focusedChooser = null;
  const menu = menuRegion();
  const timer = turnTimer(el, () => st);
  const listeners = [];
  const sounds = tableSounds(playSound); // the moves heard live, not the past a subscription catches up
  const reactionLayer = h('div', { class: 'reaction-layer', 'aria-live': 'polite' });
  const reactions = tableReactions(reactionLayer, (seat) => st.info?.players?.[seat]?.name ?? t('seat', { n: seat }), playSound);

  const update = (patch) => { st = { ...st, ...patch }; };
  const set = (patch) => { update(patch); render(); };
  const cardEl = (name) => el.querySelector(`[data-testid="hand"] [data-card="${CSS.escape(name)}"]`);

  // -- the connection

  function on(type, fn) {
    ctx.conn.addEventListener(type, fn);
    listeners.push([type, fn]);
  }

  function subscribe() {
    if (!ctx.session()) return;
    sounds.subscribed();
    reactions.subscribed();
    ctx.conn.start();
    ctx.conn.subscribe(tableId, { seq: st.seq, hasPicture: !!st.info });
  }

  function onFrame(e) {
    const frame = readMoves(e.detail);
    if (frame.table !== tableId) return;
    const before = st;
    st = reduceFrame(st, frame, Date.now(), ctx.catalog);
    sounds.heard(before, st, frame);
    if (frame.type === 'chat') reactions.heard(before.chat, st.chat);
    if (st === before) return;
    if (frame.type === 'chat') {
      if (regions) renderChatLog(regions.chat, st.chat, mySeat(st));
      return;
    }
    if (frame.type === 'state' || frame.type === 'events') {
      saveTableCache(tableId, {
        identity: ctx.session()?.identity, seq: st.seq, table_info: st.info, view: st.view, log: st.log.slice(-CACHED_LOG),
        turnKey: st.turnKey, turnSince: st.turnSince,
      });
    }
    const rects = captureRects(el);
    render();
    if (animate(el, frame.events || [], rects, { me: mySeat(st), playRect, design: ctx.design, was: before.view })) playRect = null;
    revealRound(el, frame.events || []);
    celebrateMatch(el, before.info, st.info, mySeat(st));
  }
  for (const type of ['state', 'events', 'chat', 'error']) on(type, onFrame);
  on('status', (e) => { if (e.detail === 'open') { sounds.subscribed(); reactions.subscribed(); } }); // every table subscribed again

  // -- acting

  async function send(command, { card = false } = {}) {
    if (busy) return null;
    busy = true;
    try {
      const ack = await ctx.conn.command(tableId, command);
      if (!ack.ok) ctx.refusal(ack);
      return ack;
    } finally {
      busy = false;
      if (card) update({ announce: false });
    }
  }

  function act(action, fromEl = null) {
    const command = { move: formatMove(action) };
    playRect = fromEl ? fromEl.getBoundingClientRect() : null;
    const isCard = CARD_ACTIONS.includes(action.do);
    set({ chooser: null, companion: null, doubleMode: false, ...(isCard ? { announce: false } : {}) });
    return send(command, { card: isCard });
  }

  function focusChooser() {
    requestAnimationFrame(() => regions?.game.querySelector('.chooser button')?.focus());
  }
  const { onCard, onChoose } = cardPlay({ get: () => st, set, update, act, cardEl, toast: ctx.toast, focusChooser });

  async function join() {
    const ack = await send({ join: { invitation } });
    if (ack && !ack.ok && SEAT_REFUSALS.includes(ack.code)) set({ seatRefused: ack.code }); // ⚔
    if (ack && ack.ok && ack.seat === -1) {
      ctx.toast(t('join.full'), 'info');
      set({ joinDismissed: true });
    }
  }

  const { sendChat, sendReaction } = chatSenders(ctx, tableId);

  // -- rendering

  /** What every region renders from: the state (always the latest), who is who, and what it may do. */
  function props() {
    const me = mySeat(st);
    return {
      get st() { return st; },
      me, seated: me >= 0, g: legalOf(st), catalog: ctx.catalog, rs: rulesetOf(ctx.catalog, st.info.ruleset),
      design: ctx.design, setDesign: ctx.setDesign, tableId, invitation,
      nameOf: (seat) => (seat === me ? t('you') : st.info?.players?.[seat]?.name ?? t('seat', { n: seat })),
      set, remember: update, act, send, join, onCard, onChoose, cardEl, toast: ctx.toast, offerAccount: ctx.offerAccount,
      openAccount: ctx.openAccount, // a seat at a competitive table (⚔) needs an account
      focus: (testid) => el.querySelector(`[data-testid="${testid}"]`)?.focus(),
    };
  }

  function render() {
    if (destroyed) return;
    if (st.unknown) {
      regions = null;
      mount(el, unknownTable());
      return;
    }
    if (!regions) {
      regions = buildRegions(el, sendChat, sendReaction, reactionLayer);
      menu.reset();
    }
    if (!st.info) {
      mount(regions.head, h('p', { class: 'loading' }, t('loading')));
      regions.lobby.hidden = true;
      regions.game.hidden = true;
      regions.side.hidden = true;
      return;
    }
    ctx.setHelpRuleset(st.info.ruleset);
    regions.side.hidden = false;
    const p = props();
    keepHandFocus(el, () => keepFocus(el, () => {
      mount(regions.head, ...renderHead(p));
      mount(regions.notice, ...renderNotices(p));
      const lobby = st.info.status === 'lobby' || !st.view;
      regions.lobby.hidden = !lobby;
      regions.game.hidden = lobby;
      if (lobby) mount(regions.lobby, renderLobby(p));
      else showGame(p);
      const scores = renderScores(p);
      regions.scores.hidden = !scores;
      if (scores) mount(regions.scores, ...scores);
      if (lobby && st.menu) update({ menu: null }); // the pause menu: during a match only
      menu.draw(regions.menu, p);
    }));
    renderLog(regions.log, st.log);
    renderChatFrame(regions.chat, p.seated);
    renderChatLog(regions.chat, st.chat, p.me);
  }

  function showGame(p) {
    const { info, view: v } = st;
    mount(regions.game, ...renderGame(p));
    if (st.chooser?.forced && st.chooser !== focusedChooser) {
      focusedChooser = st.chooser;
      focusChooser();
    }
    timer.run(info.options?.turn_seconds && info.status === 'playing' && !v.round_over);
  }

  const onKey = (e) => {
    if (e.key === 'Escape' && st.doubleMode) set({ doubleMode: false });
    if (e.key === 'Escape' && st.companion && !st.menu) set({ companion: null });
  };
  document.addEventListener('keydown', onKey);

  subscribe();

  return {
    el,
    render,
    destroy() {
      destroyed = true;
      menu.close();
      timer.stop();
      document.removeEventListener('keydown', onKey);
      for (const [type, fn] of listeners) ctx.conn.removeEventListener(type, fn);
      ctx.conn.unsubscribe(tableId);
    },
  };
}
