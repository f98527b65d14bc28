// The table screen's wiring: the socket's frames of this table folded into its state
// (table/state.js), the player's clicks turned into commands, and the screen's regions
// (table/*.js: each a render function of the state) put in place. What may be done comes only
// from view.legal_actions.

import { loadTableCache, saveTableCache } from './api.js';
import { rulesetOf } from './catalog.js';
import { SEAT_REFUSALS } from './competitive.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, t } from './i18n.js';
import { nameForm } from './lobby.js';
import { playSound } from './sfx.js';
import { renderActions, renderGiveUp } from './table/actions.js';
import { renderAutoMode } from './table/automatic.js';
import { animate, captureRects, celebrateMatch, revealRound } from './table/animate.js';
import { renderCentre, renderTurn, timerText } from './table/centre.js';
import { buildChat, renderChatFrame, renderChatLog } from './table/chat.js';
import { tableReactions } from './table/reactions.js';
import { renderChooser, renderCompanion } from './table/chooser.js';
import { renderHand } from './table/hand.js';
import { renderHead } from './table/head.js';
import { CARD_ACTIONS, companionsOf, pickAnnounce } from './table/legal.js';
import { renderLobby } from './table/lobby.js';
import { buildLog, renderLog } from './table/logpanel.js';
import { menuKey, renderMenu, renderMenuButton } from './table/menu.js';
import { renderNotices } from './table/notices.js';
import { renderReview } from './table/review.js';
import { renderScores } from './table/scores.js';
import { renderOpponents } from './table/seats.js';
import { tableSounds } from './table/sounds.js';
import { initialState, legalOf, mySeat, reduceFrame } from './table/state.js';

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
  let shownMenu = ''; // the menu's key as last drawn (table/menu.js)
  let menuOpen = false;
  let timerId = 0;
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
    const frame = e.detail;
    if (frame.table !== tableId) return;
    const before = st;
    st = reduceFrame(st, frame);
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
    if (animate(el, frame.events || [], rects, { me: mySeat(st), playRect, design: ctx.design })) playRect = null;
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
    const command = { ...action };
    delete command.seat;
    playRect = fromEl ? fromEl.getBoundingClientRect() : null;
    const isCard = CARD_ACTIONS.includes(action.do);
    set({ chooser: null, companion: null, doubleMode: false, ...(isCard ? { announce: false } : {}) });
    return send(command, { card: isCard });
  }

  function onCard(name, btn) {
    const g = legalOf(st);
    if (st.companion) {
      onCompanion(name, btn);
      return;
    }
    if (st.doubleMode) {
      const doubles = g.doubles.get(name);
      if (doubles) act(pickAnnounce(doubles, st.announce), btn);
      return;
    }
    const plays = g.plays.get(name);
    if (plays && companionsOf(plays).size) { // ace_with_company: the Ace waits for its companion
      set({ companion: { card: name, actions: plays }, chooser: null });
      return;
    }
    if (plays) {
      const choices = [...new Set(plays.map((a) => a.choose).filter(Boolean))];
      if (choices.length) {
        set({ chooser: { card: name, choices, actions: plays, forced: false } });
        focusChooser();
        return;
      }
      act(pickAnnounce(plays, st.announce), btn);
      return;
    }
    const other = [...g.burn, ...g.quick].filter((a) => a.card === name);
    if (other.length) {
      act(pickAnnounce(other, st.announce), btn);
      return;
    }
    ctx.toast(errorText(st.view && st.view.turn === mySeat(st) ? 'illegal_card' : 'not_your_turn'), 'error');
  }

  // ace_with_company: the card played with the Ace (a Jack asks its suit first); the Ace again puts it back
  function onCompanion(name, btn) {
    const c = st.companion;
    const withIt = companionsOf(c.actions).get(name);
    if (!withIt) {
      set({ companion: null });
      if (name !== c.card) onCard(name, btn);
      return;
    }
    const choices = [...new Set(withIt.map((a) => a.choose).filter(Boolean))];
    if (choices.length) {
      set({ companion: null, chooser: { card: name, ace: c.card, choices, actions: withIt, forced: false } });
      focusChooser();
      return;
    }
    act(pickAnnounce(withIt, st.announce), cardEl(c.card));
  }

  function onChoose(letter) {
    const c = st.chooser;
    if (!c) return;
    if (c.forced) update({ choseAt: st.seq }); // not offered again until the table moves
    const from = c.ace || c.card;
    act(pickAnnounce(c.actions.filter((a) => a.choose === letter), st.announce), from ? cardEl(from) : null);
  }

  function focusChooser() {
    requestAnimationFrame(() => regions?.game.querySelector('.chooser button')?.focus());
  }

  async function join() {
    const ack = await send({ join: { invitation } });
    if (ack && !ack.ok && SEAT_REFUSALS.includes(ack.code)) set({ seatRefused: ack.code }); // ⚔
    if (ack && ack.ok && ack.seat === -1) {
      ctx.toast(t('join.full'), 'info');
      set({ joinDismissed: true });
    }
  }

  async function sendReaction(reaction) {
    const ack = await ctx.conn.command(tableId, { chat: { reaction } });
    if (!ack.ok) ctx.refusal(ack);
  }

  async function sendChat(text, input) {
    const ack = await ctx.conn.command(tableId, { chat: { text } });
    if (ack.ok) input.value = '';
    else ctx.refusal(ack);
  }

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

  function build() {
    const chat = buildChat(sendChat, sendReaction);
    const log = buildLog();
    const scores = h('section', { class: 'panel scoreboard', testid: 'scoreboard' });
    regions = {
      head: h('div', { class: 'table-head' }),
      notice: h('div', { class: 'table-notices' }),
      lobby: h('section', { class: 'table-lobby', testid: 'table-lobby' }),
      game: h('section', { class: 'game', testid: 'game', 'aria-label': t('lobby.title') }),
      scores, log, chat,
      side: h('aside', { class: 'table-side' }, scores, log.el, chat.el),
      menu: h('div', { class: 'table-menu' }),
    };
    const main = h('div', { class: 'table-main' }, regions.notice, regions.lobby, regions.game);
    mount(el, regions.head, h('div', { class: 'table-layout' }, main, regions.side), regions.menu, reactionLayer);
    shownMenu = '';
  }

  function render() {
    if (destroyed) return;
    if (!ctx.session()) {
      regions = null;
      mount(el, nameForm(ctx, {
        title: t('name.title'), note: t('name.needed_for_table'),
        onDone: () => { subscribe(); render(); },
      }));
      return;
    }
    if (st.unknown) {
      regions = null;
      mount(el, h('section', { class: 'panel' }, h('h2', {}, errorText('unknown_table')),
        h('a', { href: '/', 'data-link': true, class: 'btn btn-primary' }, t('match.home'))));
      return;
    }
    if (!regions) build();
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
    const handCards = [...el.querySelectorAll('.hand-card')];
    const handIndex = handCards.indexOf(document.activeElement);
    keepFocus(el, () => {
      mount(regions.head, ...renderHead(p));
      mount(regions.notice, ...renderNotices(p));
      const lobby = st.info.status === 'lobby' || !st.view;
      regions.lobby.hidden = !lobby;
      regions.game.hidden = lobby;
      if (lobby) mount(regions.lobby, renderLobby(p));
      else renderGame(p);
      const scores = renderScores(p);
      regions.scores.hidden = !scores;
      if (scores) mount(regions.scores, ...scores);
      renderMenuRegion(p, lobby);
    });
    // a card played from the hand: the focus stays on the hand, at the same place
    if (handIndex >= 0 && !el.contains(document.activeElement)) {
      const now = [...el.querySelectorAll('.hand-card')];
      now[Math.min(handIndex, now.length - 1)]?.focus({ preventScroll: true });
    }
    renderLog(regions.log, st.log);
    renderChatFrame(regions.chat, p.seated);
    renderChatLog(regions.chat, st.chat, p.me);
  }

  // the pause menu: during a match only; drawn again only when what it shows changes
  function renderMenuRegion(p, lobby) {
    if (lobby && st.menu) update({ menu: null });
    const key = st.menu ? menuKey(p) : '';
    if (!!st.menu !== menuOpen) { // the page under it stays still (another dialog may hold the class too)
      menuOpen = !!st.menu;
      document.body.classList.toggle('modal-open', menuOpen);
    }
    if (key === shownMenu) return;
    shownMenu = key;
    mount(regions.menu, renderMenu(p));
  }

  function renderGame(p) {
    const { info, view: v } = st;
    const parts = [h('div', { class: 'game-bar' }, renderMenuButton(p)), renderOpponents(p)];
    const review = renderReview(p);
    if (review && !st.reviewHidden) {
      parts.push(review);
    } else {
      parts.push(renderCentre(p), renderTurn(p));
      if (review) parts.push(review);
      if (p.seated && info.status === 'playing' && !v.round_over) parts.push(renderActions(p));
      if (p.seated) parts.push(renderHand(p));
      else parts.push(h('p', { class: 'notice spectator-hand', testid: 'spectator-hand' }, t('table.spectator')));
      if (st.companion) parts.push(renderCompanion(p));
      if (st.chooser) parts.push(renderChooser(p));
    }
    parts.push(renderAutoMode(p)); // automatic mode: its switch, or "Voltar a jogar"
    if (p.seated && info.status === 'playing') parts.push(renderGiveUp(p));
    mount(regions.game, ...parts);
    if (st.chooser?.forced && st.chooser !== focusedChooser) {
      focusedChooser = st.chooser;
      focusChooser();
    }
    runTimer(info.options?.turn_seconds && info.status === 'playing' && !v.round_over);
  }

  function runTimer(on) {
    if (timerId) clearInterval(timerId);
    timerId = on ? setInterval(showTimer, 1000) : 0;
    if (on) showTimer();
  }

  function showTimer() {
    const node = el.querySelector('[data-testid="turn-timer"]');
    if (node && st.info?.options?.turn_seconds) node.textContent = timerText(st.info.options.turn_seconds, st.turnSince, Date.now());
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
      if (menuOpen) document.body.classList.remove('modal-open');
      if (timerId) clearInterval(timerId);
      document.removeEventListener('keydown', onKey);
      for (const [type, fn] of listeners) ctx.conn.removeEventListener(type, fn);
      ctx.conn.unsubscribe(tableId);
    },
  };
}
