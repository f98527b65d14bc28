// The table screen: the table's lobby (seats, invitation, bots, start), the game (hand, pile,
// stock, opponents, buttons from view.legal_actions), the round review, the match's end,
// the event log and the chat. What may be done comes only from view.legal_actions.

import { loadTableCache, saveTableCache } from './api.js';
import { backSVG, cardPoints, cardSVG, COLOURS, parseCard, suitSVG } from './cards.js';
import { copyText, flyGhost, h, keepFocus, mount, slideFrom } from './dom.js';
import { cardLabel, cardShort, errorText, listNames, suitText, t } from './i18n.js';
import { describeOptions, nameForm, RULESETS } from './lobby.js';

const CCW_RULESETS = ['candeias', 'colors108'];
const CARD_ACTIONS = ['play', 'burn', 'quick', 'double'];
const LOG_LIMIT = 150;

// --- pure helpers (unit-tested) -----------------------------------------------------------

/** Whether +1 is drawn clockwise at this table (classic tables clockwise, the others counter-clockwise). */
export function isClockwise(ruleset, direction) {
  const plusIsCw = !CCW_RULESETS.includes(ruleset);
  return direction >= 0 ? plusIsCw : !plusIsCw;
}

/** Of several legal spellings of one move, the one with the call when the player said it, else without. */
export function pickAnnounce(candidates, announce) {
  if (!candidates.length) return null;
  if (announce) {
    const said = candidates.find((a) => a.announce);
    if (said) return said;
  }
  return candidates.find((a) => !a.announce) || candidates[0];
}

/** What the legal actions allow, grouped for the buttons and the hand. */
export function groupLegal(legal) {
  const g = {
    plays: new Map(), draw: null, pass: null, burn: [], quick: [], doubles: new Map(), challenges: new Map(),
    challengeWild: null, choose: [], announces: new Set(),
  };
  for (const a of legal || []) {
    if (a.announce) g.announces.add(a.announce);
    switch (a.do) {
      case 'play':
        if (!g.plays.has(a.card)) g.plays.set(a.card, []);
        g.plays.get(a.card).push(a);
        break;
      case 'draw': g.draw = a; break;
      case 'pass': g.pass = a; break;
      case 'burn': g.burn.push(a); break;
      case 'quick': g.quick.push(a); break;
      case 'double': {
        const card = a.cards[0];
        if (!g.doubles.has(card)) g.doubles.set(card, []);
        g.doubles.get(card).push(a);
        break;
      }
      case 'challenge': g.challenges.set(a.target, a); break;
      case 'challenge_wild': g.challengeWild = a; break;
      case 'choose': g.choose.push(a); break;
      default: break;
    }
  }
  return g;
}

/** How a call is said at this table: "última" (colors108), "Mau-Mau" (candeias), else the word given. */
function announceKey(ruleset, announce) {
  if (ruleset === 'colors108') return 'log.announce.last';
  if (ruleset === 'candeias') return 'log.announce.maumau';
  return `log.announce.${announce}`;
}

/** One stored event as log entries: [{segs: [{k, v}], cls}] (formatted at render, in the current language). */
export function describeEvent(ev, { me, names, ruleset, view }) {
  const who = (seat) => (seat === me ? { you: true, name: '' } : { you: false, name: names[seat] ?? `#${seat + 1}` });
  const out = [];
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
        const segs = [{ k: `log.played${you}`, v: { name: p.name, card: a.card } }];
        if (a.choose) segs.push({ k: 'log.chose', v: { suit: a.choose } });
        if (a.announce) segs.push({ k: announceKey(ruleset, a.announce) });
        line(segs, p.you ? 'me' : '');
      } else if (a.do === 'double') {
        const segs = [{ k: `log.double${you}`, v: { name: p.name, card: (a.cards || [])[0] } }];
        if (a.announce) segs.push({ k: announceKey(ruleset, a.announce) });
        line(segs, p.you ? 'me' : '');
      } else if (a.do === 'burn' || a.do === 'quick') {
        const segs = [{ k: `log.${a.do}${you}`, v: { name: p.name, card: a.card } }];
        if (a.announce) segs.push({ k: announceKey(ruleset, a.announce) });
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
        if (a.do === 'draw' && d.seat === a.seat) {
          line([{ k: d.count ? `log.drew${y}` : 'log.drew_none', v: { ...v, name: q.you ? null : q.name, nameYou: q.you } }], q.you ? 'me' : '');
        } else if (d.seat === a.seat || (a.do === 'challenge' && d.seat === a.target)) {
          line([{ k: `log.penalty${y}`, v }], 'warn');
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
    default: break;
  }
  return out;
}

/** A log entry in the current language. */
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

/** The match's goal in words (display only). */
function goalText(info, view) {
  const o = info.options || {};
  const n = info.players.length;
  switch (info.ruleset) {
    case 'classic32': return t('table.goal', { n: o.target_points || 100 * n });
    case 'classic52': return o.scoring === 'none' ? t('table.no_points') : t('table.goal_low', { n: o.target_points || 100 });
    case 'candeias': return t('table.rounds_of', { n: Math.min(5, (view?.rounds_played ?? 0) + (view?.round_over ? 0 : 1)), total: 5 });
    case 'colors108': return o.quick ? t('table.quick_game') : t('table.goal', { n: o.target_points || 500 });
    default: return '';
  }
}

// --- the screen ------------------------------------------------------------------------------

export function createTableScreen(ctx, tableId, invitation) {
  const el = h('div', { class: 'table-screen', testid: 'table-screen' });
  const st = {
    info: null, view: null, seq: 0, log: [], chat: [], chatKeys: new Set(), unknown: false,
    announce: false, chooser: null, doubleMode: false, giveupConfirm: false, reviewHidden: false,
    joinDismissed: false, busy: false, playRect: null, turnKey: '', turnSince: Date.now(), endedBy: null, seed: '',
  };
  let destroyed = false;
  let built = false;
  const regions = {};
  const listeners = [];
  let timerId = 0;

  const cached = loadTableCache(tableId);
  const session = ctx.session();
  if (cached && session && cached.identity === session.identity) {
    Object.assign(st, { info: cached.table_info, view: cached.view, seq: cached.seq, log: cached.log || [],
      turnKey: cached.turnKey || '', turnSince: cached.turnSince || Date.now() });
  }

  // -- who is who

  const me = () => (st.info && st.info.my_seat >= 0 ? st.info.my_seat : -1);
  const seated = () => me() >= 0;
  const names = () => (st.info?.players || []).map((p) => p.name);
  const nameOf = (seat) => (seat === me() ? t('you') : st.info?.players?.[seat]?.name ?? t('seat', { n: seat }));
  const legal = () => groupLegal(st.view?.legal_actions || []);
  const design = () => ctx.design;

  // -- the connection

  function on(type, fn) {
    ctx.conn.addEventListener(type, fn);
    listeners.push([type, fn]);
  }

  function subscribe() {
    if (!ctx.session()) return;
    ctx.conn.start();
    ctx.conn.subscribe(tableId, { seq: st.seq, hasPicture: !!st.info });
  }

  function applyFrame(frame, events) {
    const before = { info: st.info, view: st.view };
    st.info = frame.table_info;
    st.endedBy = frame.table_info.ended_by ?? null;
    st.view = frame.view;
    st.seq = frame.seq;
    st.unknown = false;
    const namesBefore = (before.info?.players || []).map((p) => p.name);
    const namesNow = names();
    for (const ev of events) {
      const lookup = namesNow.map((n, i) => n ?? namesBefore[i]);
      if (ev.type === 'PlayerLeft') lookup[ev.seat] = namesBefore[ev.seat];
      for (const entry of describeEvent(ev, { me: me(), names: lookup, ruleset: st.info.ruleset, view: st.view })) {
        st.log.push(entry);
      }
      if (ev.type === 'RoundDealt') {
        st.reviewHidden = false;
        st.announce = false;
        st.seed = '';
      }
      if (ev.type === 'RoundEnded') st.seed = ev.seed || '';
    }
    if (st.log.length > LOG_LIMIT) st.log.splice(0, st.log.length - LOG_LIMIT);
    // a choice in progress stays only while its moves are still legal
    const g = legal();
    if (st.chooser && !st.chooser.forced && !g.plays.has(st.chooser.card)) st.chooser = null;
    if (st.doubleMode && !g.doubles.size) st.doubleMode = false;
    if (!g.announces.size && !(st.view && st.view.turn === me())) st.announce = false;
    const turnKey = `${st.view?.turn}/${st.view?.round_over}/${st.view?.rounds_played}`;
    if (turnKey !== st.turnKey) {
      st.turnKey = turnKey;
      // the turn began with the last stored event (server time, trusted only when close to ours)
      const last = events.length ? events[events.length - 1].time : 0;
      st.turnSince = last && Math.abs(Date.now() - last) < 120000 ? Math.min(Date.now(), last) : Date.now();
    }
    saveTableCache(tableId, {
      identity: ctx.session()?.identity, seq: st.seq, table_info: st.info, view: st.view, log: st.log.slice(-60),
      turnKey: st.turnKey, turnSince: st.turnSince,
    });
    const rects = captureRects();
    render();
    animate(events, rects);
  }

  on('state', (e) => { if (e.detail.table === tableId) applyFrame(e.detail, []); });
  on('events', (e) => { if (e.detail.table === tableId) applyFrame(e.detail, e.detail.events || []); });
  on('chat', (e) => {
    if (e.detail.table !== tableId) return;
    let added = false;
    for (const line of e.detail.lines || []) {
      const key = `${line.time}|${line.seat}|${line.text}`;
      if (st.chatKeys.has(key)) continue;
      st.chatKeys.add(key);
      st.chat.push(line);
      added = true;
    }
    if (st.chat.length > 100) st.chat.splice(0, st.chat.length - 100);
    if (added) renderChatLog();
  });
  on('error', (e) => {
    const f = e.detail;
    if (f.table === tableId && f.code === 'unknown_table') {
      st.unknown = true;
      render();
    }
  });

  // -- acting

  async function send(command, { card = null } = {}) {
    if (st.busy) return null;
    st.busy = true;
    try {
      const ack = await ctx.conn.command(tableId, command);
      if (!ack.ok) ctx.refusal(ack);
      return ack;
    } finally {
      st.busy = false;
      if (card) st.announce = false;
    }
  }

  function act(action, fromEl = null) {
    const command = { ...action };
    delete command.seat;
    st.playRect = fromEl ? fromEl.getBoundingClientRect() : null;
    st.chooser = null;
    st.doubleMode = false;
    const isCard = CARD_ACTIONS.includes(action.do);
    if (isCard) st.announce = false;
    render();
    return send(command, { card: isCard });
  }

  function onCard(name, btn) {
    const g = legal();
    if (st.doubleMode) {
      const doubles = g.doubles.get(name);
      if (doubles) act(pickAnnounce(doubles, st.announce), btn);
      return;
    }
    const plays = g.plays.get(name);
    if (plays) {
      const choices = [...new Set(plays.map((a) => a.choose).filter(Boolean))];
      if (choices.length) {
        st.chooser = { card: name, choices, actions: plays, forced: false, rect: btn.getBoundingClientRect() };
        render();
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
    ctx.toast(errorText(st.view && st.view.turn === me() ? 'illegal_card' : 'not_your_turn'), 'error');
  }

  function onChoose(letter) {
    const c = st.chooser;
    if (!c) return;
    const candidates = c.actions.filter((a) => a.choose === letter);
    if (c.forced) st.choseAt = st.seq; // not offered again until the table moves
    const fromEl = c.card ? regions.hand?.querySelector(`[data-card="${CSS.escape(c.card)}"]`) : null;
    act(pickAnnounce(candidates, st.announce), fromEl);
  }

  function focusChooser() {
    requestAnimationFrame(() => regions.game?.querySelector('.chooser button')?.focus());
  }

  // -- animations

  function rectOf(selector) {
    const node = el.querySelector(selector);
    return node ? node.getBoundingClientRect() : null;
  }

  function captureRects() {
    const rects = { stock: rectOf('[data-testid="stock"]'), tiles: {} };
    for (const tile of el.querySelectorAll('[data-seat]')) rects.tiles[tile.dataset.seat] = tile.getBoundingClientRect();
    rects.hand = rectOf('.hand');
    return rects;
  }

  function animate(events, before) {
    const actions = events.filter((e) => e.type === 'ActionTaken');
    if (!actions.length) return;
    const stock = rectOf('[data-testid="stock"]') || before.stock;
    const top = el.querySelector('[data-testid="pile-top"]');
    const lastCard = [...actions].reverse().find((e) => CARD_ACTIONS.includes(e.action?.do));
    if (lastCard && top) {
      const seat = lastCard.action.seat;
      const from = seat === me() ? (st.playRect || before.hand) : (before.tiles[seat] || rectOf(`[data-seat="${seat}"]`));
      slideFrom(top, from);
      st.playRect = null;
    }
    for (const ev of actions) {
      for (const d of ev.draws || []) {
        if (!d.count) continue;
        if (d.seat === me() && Array.isArray(d.cards)) {
          const used = new Set();
          for (const c of d.cards) {
            const nodes = [...el.querySelectorAll(`.hand [data-card="${CSS.escape(c)}"]`)].filter((n) => !used.has(n));
            const node = nodes[nodes.length - 1];
            if (node) { used.add(node); slideFrom(node, stock, { duration: 450 }); }
          }
        } else {
          const tile = rectOf(`[data-seat="${d.seat}"]`);
          flyGhost(backSVG(design()), stock, tile);
        }
      }
    }
  }

  // -- the skeleton (built once; the chat input survives every re-render)

  function build() {
    regions.head = h('div', { class: 'table-head' });
    regions.notice = h('div', { class: 'table-notices' });
    regions.lobby = h('section', { class: 'table-lobby', testid: 'table-lobby' });
    regions.game = h('section', { class: 'game', testid: 'game', 'aria-label': t('lobby.title') });
    regions.scores = h('section', { class: 'panel scoreboard', testid: 'scoreboard' });
    regions.logList = h('ol', { class: 'event-log', testid: 'event-log', 'aria-live': 'polite' });
    regions.log = h('section', { class: 'panel log-panel' }, h('h3', { class: 'log-title' }), regions.logList);
    regions.chatLog = h('ol', { class: 'chat-log', testid: 'chat-log', 'aria-live': 'polite' });
    regions.chatInput = h('input', {
      type: 'text', id: 'chat-input', testid: 'chat-input', maxlength: '300', autocomplete: 'off',
    });
    regions.chatSend = h('button', { class: 'btn', type: 'submit', testid: 'chat-send' });
    regions.chatForm = h('form', { class: 'chat-form', onsubmit: sendChat }, regions.chatInput, regions.chatSend);
    regions.chatNote = h('p', { class: 'muted chat-readonly', testid: 'chat-readonly' });
    regions.chat = h('section', { class: 'panel chat-panel', testid: 'chat' },
      h('h3', { class: 'chat-title' }), regions.chatLog, regions.chatForm, regions.chatNote);
    regions.side = h('aside', { class: 'table-side' }, regions.scores, regions.log, regions.chat);
    regions.main = h('div', { class: 'table-main' }, regions.notice, regions.lobby, regions.game);
    mount(el, regions.head, h('div', { class: 'table-layout' }, regions.main, regions.side));
    built = true;
  }

  async function sendChat(e) {
    e.preventDefault();
    const text = regions.chatInput.value.trim();
    if (!text) return;
    const ack = await ctx.conn.command(tableId, { chat: { text } });
    if (ack.ok) regions.chatInput.value = '';
    else ctx.refusal(ack);
  }

  // -- rendering

  function render() {
    if (destroyed) return;
    if (!ctx.session()) {
      built = false;
      mount(el, nameForm(ctx, {
        title: t('name.title'), note: t('name.needed_for_table'),
        onDone: () => { subscribe(); render(); },
      }));
      return;
    }
    if (st.unknown) {
      built = false;
      mount(el, h('section', { class: 'panel' }, h('h2', {}, errorText('unknown_table')),
        h('a', { href: '/', 'data-link': true, class: 'btn btn-primary' }, t('match.home'))));
      return;
    }
    if (!built) build();
    if (!st.info) {
      mount(regions.head, h('p', { class: 'loading' }, t('loading')));
      regions.lobby.hidden = true;
      regions.game.hidden = true;
      regions.side.hidden = true;
      return;
    }
    ctx.setHelpRuleset(st.info.ruleset);
    regions.side.hidden = false;
    const handCards = [...el.querySelectorAll('.hand-card')];
    const handIndex = handCards.indexOf(document.activeElement);
    keepFocus(el, () => {
      renderHead();
      renderNotices();
      const lobby = st.info.status === 'lobby' || !st.view;
      regions.lobby.hidden = !lobby;
      regions.game.hidden = lobby;
      if (lobby) renderLobby(); else renderGame();
      renderScores();
    });
    if (handIndex >= 0 && !el.contains(document.activeElement)) {
      const now = [...el.querySelectorAll('.hand-card')];
      now[Math.min(handIndex, now.length - 1)]?.focus({ preventScroll: true });
    }
    renderLog();
    renderChatFrame();
    renderChatLog();
  }

  function renderHead() {
    const info = st.info;
    const bits = [h('h1', { class: 'table-title' }, t(`rs.${info.ruleset}`)),
      h('span', { class: `status status-${info.status}`, testid: 'table-status' }, t(`status.${info.status}`))];
    if (st.view && info.status !== 'lobby') bits.push(h('span', { class: 'muted' }, goalText(info, st.view)));
    if (info.options?.turn_seconds) bits.push(h('span', { class: 'muted' }, t('table.timer', { s: t('opt.seconds', { n: info.options.turn_seconds }) })));
    if (info.options?.teams) bits.push(h('span', { class: 'muted' }, t('table.teams')));
    mount(regions.head, ...bits);
  }

  function renderNotices() {
    const info = st.info;
    const items = [];
    const free = info.players.length < info.seats;
    if (!seated()) {
      const canSit = invitation && free && !st.joinDismissed && (info.status === 'lobby'
        || (info.status === 'playing' && info.ruleset === 'candeias' && st.view?.round_over));
      if (canSit) {
        items.push(h('div', { class: 'notice notice-join', testid: 'join-offer' },
          h('p', {}, t('join.offer')),
          h('div', { class: 'row' },
            h('button', { class: 'btn btn-primary', type: 'button', testid: 'btn-join', 'data-focus': 'join', onclick: join }, t('join.sit')),
            h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-watch', onclick: () => { st.joinDismissed = true; render(); } }, t('join.watch')))));
      } else if (!info.creator || info.status !== 'lobby') {
        items.push(h('p', { class: 'notice', testid: 'spectator-notice' }, invitation || info.status !== 'lobby' ? t('join.watching') : t('join.no_invite')));
      }
    }
    if (info.absent_seat !== null && info.absent_seat !== undefined && info.status === 'playing') {
      const mine = seated() && me() !== info.absent_seat;
      items.push(h('div', { class: 'notice notice-warn', testid: 'absence-notice' },
        h('p', {}, t('table.absent', { name: nameOf(info.absent_seat) })),
        mine ? h('button', { class: 'btn btn-danger', type: 'button', testid: 'btn-absence', 'data-focus': 'absence',
          onclick: () => send({ claim_absence: {} }) }, t('table.absence')) : null));
    }
    mount(regions.notice, ...items);
  }

  async function join() {
    const ack = await send({ join: { invitation } });
    if (ack && ack.ok && ack.seat === -1) ctx.toast(t('join.full'), 'info');
    if (ack && ack.ok && ack.seat === -1) { st.joinDismissed = true; render(); }
  }

  // the table's lobby: seats, invitation, bots, start
  function renderLobby() {
    const info = st.info;
    const rs = RULESETS[info.ruleset] || { min: 2 };
    const seats = [];
    for (let i = 0; i < info.seats; i += 1) {
      const p = info.players[i];
      seats.push(h('li', { class: `seat${p ? '' : ' seat-empty'}${i === me() ? ' seat-me' : ''}`, testid: `seat-${i}` },
        h('span', { class: 'seat-no' }, String(i + 1)),
        p ? h('span', { class: 'seat-name' }, p.name, p.bot ? h('span', { class: 'tag tag-bot' }, t('bot')) : null,
          i === me() ? h('span', { class: 'tag tag-me' }, t('you')) : null)
          : h('span', { class: 'muted' }, t('empty_seat'))));
    }
    const parts = [h('h2', {}, t('lobby.title')), h('ol', { class: 'seats', testid: 'seats' }, seats)];
    if (info.invitation) {
      const link = `${location.origin}/m/${tableId}?c=${encodeURIComponent(info.invitation)}`;
      const share = async () => {
        if (navigator.share) {
          try { await navigator.share({ title: t('app.title'), text: t('lobby.invite.hint'), url: link }); return; } catch (e) {
            if (e && e.name === 'AbortError') return;
          }
        }
        ctx.toast(await copy(link) ? t('lobby.copied') : link, 'info');
      };
      parts.push(h('div', { class: 'invite' },
        h('label', { for: 'invite-link' }, t('lobby.invite')),
        h('p', { class: 'muted' }, t('lobby.invite.hint')),
        h('div', { class: 'row' },
          h('input', { id: 'invite-link', testid: 'invite-link', type: 'text', readonly: true, value: link,
            onfocus: (e) => e.target.select() }),
          navigator.share ? h('button', { class: 'btn', type: 'button', testid: 'btn-share', 'data-focus': 'share', onclick: share }, t('lobby.share')) : null,
          h('button', { class: 'btn', type: 'button', testid: 'btn-copy', 'data-focus': 'copy',
            onclick: async () => ctx.toast(await copy(link) ? t('lobby.copied') : link, 'info') }, t('lobby.copy')))));
    }
    if (info.status === 'lobby') {
      const full = info.players.length >= info.seats;
      if (info.creator) {
        const level = h('select', { id: 'bot-level', testid: 'bot-level' },
          ['', 'weak', 'medium', 'strong'].map((lv) => h('option', { value: lv }, t(`lobby.level.${lv}`))));
        level.value = st.botLevel || '';
        level.addEventListener('change', () => { st.botLevel = level.value; });
        const enough = info.players.length >= rs.min;
        parts.push(h('div', { class: 'lobby-actions' },
          h('label', { class: 'opt opt-field', for: 'bot-level' }, h('span', { class: 'opt-name' }, t('lobby.bot_level')), level),
          h('div', { class: 'row' },
            h('button', { class: 'btn', type: 'button', testid: 'btn-bots', 'data-focus': 'bots', disabled: full,
              onclick: () => send({ fill_bots: { level: st.botLevel || '' } }) }, t('lobby.bots')),
            h('button', { class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-start', 'data-focus': 'start', disabled: !enough,
              onclick: () => send({ start: {} }) }, t('lobby.start'))),
          enough ? null : h('p', { class: 'muted' }, t('lobby.need_players', { n: rs.min }))));
      } else if (seated()) {
        parts.push(h('p', { class: 'muted', testid: 'waiting-start' }, t('lobby.waiting_start')),
          h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-leave', onclick: () => send({ leave: {} }) }, t('lobby.leave')));
      }
    }
    const opts = describeOptions(info.ruleset, info.options);
    parts.push(h('details', { class: 'table-rules' },
      h('summary', {}, t('lobby.options')),
      h('p', {}, t(`rs.${info.ruleset}.desc`)),
      opts.length ? h('ul', {}, opts.map((line) => h('li', {}, line))) : null));
    mount(regions.lobby, h('div', { class: 'panel' }, ...parts));
  }

  const copy = (text) => copyText(text);

  // the game
  function renderGame() {
    const v = st.view;
    const info = st.info;
    const g = legal();
    // the forced choice (classic52: the dealer picks the suit a Jack starter asks)
    let openChooser = false;
    if (g.choose.length && !st.chooser && st.choseAt !== st.seq) {
      st.chooser = { card: null, choices: g.choose.map((a) => a.choose), actions: g.choose, forced: true };
      openChooser = true;
    } else if (!g.choose.length && st.chooser?.forced) {
      st.chooser = null;
    }
    const parts = [renderOpponents(g)];
    const review = renderReview();
    const reviewOpen = review && !st.reviewHidden;
    if (reviewOpen) {
      parts.push(review);
    } else {
      parts.push(renderCentre(g), renderTurn());
      if (review) parts.push(review);
      if (seated() && info.status === 'playing' && !v.round_over) parts.push(renderActions(g));
      if (seated()) parts.push(renderHand(g));
      else parts.push(h('p', { class: 'notice spectator-hand', testid: 'spectator-hand' }, t('table.spectator')));
      if (st.chooser) parts.push(renderChooser());
    }
    if (seated() && info.status === 'playing') parts.push(renderGiveUp());
    mount(regions.game, ...parts);
    if (openChooser) focusChooser();
    if (timerId) clearInterval(timerId);
    timerId = 0;
    if (info.options?.turn_seconds && info.status === 'playing' && !v.round_over) {
      timerId = setInterval(updateTimer, 1000);
      updateTimer();
    }
  }

  function updateTimer() {
    const node = el.querySelector('[data-testid="turn-timer"]');
    if (!node || !st.info?.options?.turn_seconds) return;
    const left = Math.max(0, Math.ceil(st.info.options.turn_seconds - (Date.now() - st.turnSince) / 1000));
    node.textContent = `⏱ ${left}s`;
  }

  function miniBacks(n) {
    const shown = Math.min(n, 8);
    const backs = [];
    for (let i = 0; i < shown; i += 1) backs.push(h('span', { class: 'mini-back', html: backSVG(design()) }));
    return h('span', { class: 'mini-hand', 'aria-hidden': 'true' }, backs);
  }

  function seatOrder() {
    const n = st.info.players.length;
    const start = seated() ? me() + 1 : 0;
    const order = [];
    for (let k = 0; k < n; k += 1) {
      const s = (start + k) % n;
      if (s !== me()) order.push(s);
    }
    return order;
  }

  function renderOpponents(g) {
    const v = st.view;
    const info = st.info;
    const tiles = seatOrder().map((seat) => {
      const p = info.players[seat] || {};
      const count = v.hand_sizes?.[seat] ?? 0;
      const onTurn = v.turn === seat && !v.round_over && info.status === 'playing';
      const inRound = !v.in_round || v.in_round[seat];
      const challenge = g.challenges.get(seat);
      const label = `${p.name || t('seat', { n: seat })}: ${t('table.cards', { n: count })}`;
      return h('li', {
        class: `opponent${onTurn ? ' on-turn' : ''}${inRound ? '' : ' out-of-round'}`, testid: `opponent-${seat}`,
        'data-seat': String(seat), 'aria-label': label, 'aria-current': onTurn ? 'true' : null,
      },
      h('div', { class: 'opp-name' },
        onTurn ? h('span', { class: 'turn-dot', 'aria-hidden': 'true' }, '▶') : null,
        h('span', { class: 'opp-name-text' }, p.name || t('seat', { n: seat })),
        p.bot ? h('span', { class: 'tag tag-bot' }, t('bot')) : null,
        info.options?.teams ? h('span', { class: 'tag' }, seat % 2 === (me() >= 0 ? me() % 2 : 0) ? '👥 A' : '👥 B') : null),
      h('div', { class: 'opp-cards' }, miniBacks(count),
        h('span', { class: 'opp-count', testid: `opponent-count-${seat}` }, String(count),
          h('span', { class: 'opp-count-word' }, ` ${t('table.cards', { n: count }).replace(/^\d+\s*/, '')}`))),
      h('div', { class: 'opp-meta' },
        h('span', { class: 'opp-score' }, t('table.points', { n: v.scores?.[seat] ?? 0 })),
        v.dealer === seat ? h('span', { class: 'tag', title: t('table.dealer') }, 'D') : null,
        v.missed_call === seat ? h('span', { class: 'tag tag-warn' }, t('table.missed')) : null),
      challenge ? h('button', {
        class: 'btn btn-warn btn-small', type: 'button', testid: `btn-challenge-${seat}`, 'data-focus': `challenge-${seat}`,
        onclick: () => act(challenge),
      }, info.ruleset === 'colors108' ? t('table.challenge_last') : t('table.challenge')) : null);
    });
    return h('ul', { class: 'opponents', testid: 'opponents' }, tiles);
  }

  function renderCentre(g) {
    const v = st.view;
    const info = st.info;
    const cw = isClockwise(info.ruleset, v.direction);
    const top = v.top;
    const topCard = parseCard(top);
    let follow = null;
    if (v.follow) {
      const colour = 'RGBY'.includes(v.follow) && topCard?.family === 'colour';
      const differs = topCard && (topCard.family === 'french' ? topCard.suit !== v.follow : topCard.colour !== v.follow);
      const words = colour
        ? t(differs ? 'table.follow_color' : 'table.follow_color_plain', { color: suitText(v.follow) })
        : t(differs ? 'table.follow_suit' : 'table.follow_suit_plain', { suit: suitText(v.follow) });
      follow = h('div', { class: `follow${differs ? ' follow-changed' : ''}`, testid: 'follow', 'data-follow': v.follow },
        colour ? h('span', { class: 'swatch', style: { background: COLOURS[v.follow] } })
          : h('span', { class: 'follow-suit', html: suitSVG(v.follow, design(), 22) }),
        h('span', {}, words));
    }
    const canDraw = !!g.draw && !v.round_over;
    const stock = h(canDraw ? 'button' : 'div', {
      class: `stock${canDraw ? ' can-act' : ''}`, testid: 'stock', type: canDraw ? 'button' : null, 'data-focus': 'stock',
      'aria-label': `${t('table.stock')}: ${t('table.stock_count', { n: v.stock })}`,
      onclick: canDraw ? () => act(g.draw) : null,
    }, h('span', { class: 'card-face', html: v.stock > 0 ? backSVG(design()) : '' }),
    h('span', { class: 'stock-count', testid: 'stock-count' }, String(v.stock)));
    const pile = h('div', { class: 'pile', 'aria-label': t('table.pile') },
      h('div', { class: 'card-face pile-top', testid: 'pile-top', 'data-card': top || '', role: 'img',
        'aria-label': t('table.top', { card: cardLabel(top) }), html: top ? cardSVG(top, design()) : '' }));
    const pending = v.pending_draw > 0
      ? h('div', { class: 'pending', testid: 'pending-draw' }, t('table.pending', { n: v.pending_draw })) : null;
    const direction = h('div', { class: 'direction', testid: 'direction', 'data-direction': cw ? 'cw' : 'ccw',
      title: `${t('table.direction')}: ${cw ? t('table.cw') : t('table.ccw')}` },
    h('span', { class: `dir-arrow${cw ? '' : ' ccw'}`, 'aria-hidden': 'true' }, cw ? '↻' : '↺'),
    h('span', {}, `${t('table.direction')}: ${cw ? t('table.cw') : t('table.ccw')}`));
    return h('div', { class: 'centre' },
      h('div', { class: 'piles' }, stock, pile),
      h('div', { class: 'centre-info' }, follow, pending, direction));
  }

  function renderTurn() {
    const v = st.view;
    const info = st.info;
    let text;
    let mine = false;
    if (info.status === 'ended') text = t('status.ended');
    else if (v.round_over) text = info.status === 'over' ? t('match.over') : (info.ruleset === 'candeias' ? t('review.title_candeias') : t('review.title'));
    else if (info.status !== 'playing') text = t(`status.${info.status}`);
    else if (v.turn === me()) { text = v.phase === 'choose' ? t('table.turn.choose_you') : t('table.turn.you'); mine = true; }
    else text = t('table.turn.of', { name: nameOf(v.turn) });
    const last = st.log[st.log.length - 1];
    return h('div', { class: `turn-bar${mine ? ' my-turn' : ''}` },
      h('p', { class: 'turn-indicator', testid: 'turn-indicator', 'data-turn': v.turn === null ? '' : String(v.turn), 'aria-live': 'polite' },
        text, info.options?.turn_seconds && !v.round_over && info.status === 'playing'
          ? h('span', { class: 'turn-timer', testid: 'turn-timer' }) : null),
      last ? h('p', { class: 'last-event muted', testid: 'last-event' }, formatEntry(last)) : null);
  }

  function renderActions(g) {
    const v = st.view;
    const info = st.info;
    const btn = (testid, label, enabled, onclick, cls = '') => h('button', {
      class: `btn ${cls}`, type: 'button', testid, 'data-focus': testid, disabled: !enabled, onclick,
    }, label);
    const buttons = [
      btn('btn-draw', v.pending_draw > 0 ? t('table.draw_n', { n: v.pending_draw }) : t('table.draw'), !!g.draw,
        () => act(g.draw), 'btn-primary'),
      btn('btn-pass', t('table.pass'), !!g.pass, () => act(g.pass)),
    ];
    // the call: a toggle that adds `announce` to the next card action (values from legal_actions)
    const calls = [...g.announces];
    let mauLabel = t('table.say_mau');
    if (info.ruleset === 'colors108') mauLabel = t('table.say_last');
    else if (info.ruleset === 'candeias' || (calls.length && calls.every((c) => c === 'maumau'))) mauLabel = t('table.say_maumau');
    const mau = h('button', {
      class: `btn btn-mau${st.announce ? ' pressed' : ''}`, type: 'button', testid: 'btn-mau', 'data-focus': 'btn-mau',
      'aria-pressed': st.announce ? 'true' : 'false', disabled: !calls.length,
      onclick: () => { st.announce = !st.announce; render(); },
    }, mauLabel, st.announce ? h('span', { class: 'said' }, ` ✓ ${t('table.said')}`) : null);
    buttons.push(mau);
    if (info.ruleset === 'candeias') {
      buttons.push(btn('btn-burn', t('table.burn'), g.burn.length > 0, () => {
        const el2 = regions.hand?.querySelector(`[data-card="${CSS.escape(g.burn[0].card)}"]`);
        act(pickAnnounce(g.burn, st.announce), el2);
      }));
      buttons.push(btn('btn-double', st.doubleMode ? t('table.double_pick') : t('table.double'), g.doubles.size > 0, () => {
        if (g.doubles.size === 1) {
          const [card, list] = [...g.doubles.entries()][0];
          act(pickAnnounce(list, st.announce), regions.hand?.querySelector(`[data-card="${CSS.escape(card)}"]`));
        } else {
          st.doubleMode = !st.doubleMode;
          render();
        }
      }, st.doubleMode ? 'pressed' : ''));
      buttons.push(btn('btn-quick', t('table.quick'), g.quick.length > 0, () => {
        const el2 = regions.hand?.querySelector(`[data-card="${CSS.escape(g.quick[0].card)}"]`);
        act(pickAnnounce(g.quick, st.announce), el2);
      }, g.quick.length ? 'btn-flash' : ''));
    }
    if (g.challengeWild) buttons.push(btn('btn-liar', t('table.liar'), true, () => act(g.challengeWild), 'btn-warn'));
    return h('div', { class: 'actions', testid: 'actions' }, buttons);
  }

  function renderHand(g) {
    const v = st.view;
    const hand = v.hand || [];
    const seen = {};
    const cards = hand.map((name) => {
      seen[name] = (seen[name] || 0) + 1;
      let playable;
      if (st.doubleMode) playable = g.doubles.has(name);
      else playable = g.plays.has(name) || g.burn.some((a) => a.card === name) || g.quick.some((a) => a.card === name);
      return h('button', {
        class: `hand-card${playable ? ' playable' : ' dimmed'}`, type: 'button', testid: `card-${name}`,
        'data-card': name, 'data-focus': `card-${name}-${seen[name]}`, 'aria-disabled': playable ? 'false' : 'true',
        'aria-label': cardLabel(name),
        onclick: (e) => onCard(name, e.currentTarget),
      }, h('span', { class: 'card-face', html: cardSVG(name, design()) }));
    });
    const container = h('div', {
      class: `hand${st.doubleMode ? ' double-mode' : ''}`, testid: 'hand', role: 'group', 'aria-label': t('table.my_hand'),
      onkeydown: (e) => {
        if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
        const all = [...container.querySelectorAll('.hand-card')];
        const idx = all.indexOf(document.activeElement);
        if (idx < 0) return;
        e.preventDefault();
        const next = e.key === 'Home' ? 0 : e.key === 'End' ? all.length - 1
          : (idx + (e.key === 'ArrowRight' ? 1 : -1) + all.length) % all.length;
        all[next].focus();
      },
    }, cards);
    regions.hand = container;
    return h('div', { class: 'hand-wrap' },
      h('h2', { class: 'sr-only' }, t('table.my_hand')),
      container);
  }

  function renderChooser() {
    const c = st.chooser;
    const colours = c.choices.every((x) => 'RGBY'.includes(x)) && st.info.ruleset === 'colors108';
    const title = colours ? t('table.which_color') : t('table.which_suit');
    const buttons = c.choices.map((x) => h('button', {
      class: `btn choose-btn${colours ? ' choose-colour' : ''}`, type: 'button', testid: colours ? `color-${x}` : `suit-${x}`,
      'aria-label': suitText(x), onclick: () => onChoose(x),
    }, colours ? h('span', { class: 'swatch', style: { background: COLOURS[x] } }) : h('span', { html: suitSVG(x, 'classic', 34) }),
    h('span', { class: 'choose-name' }, colours ? suitText(x) : t(`suit.${x}`))));
    return h('div', {
      class: 'chooser', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'chooser-title', testid: colours ? 'color-chooser' : 'suit-chooser',
      onkeydown: (e) => { if (e.key === 'Escape' && !c.forced) { st.chooser = null; render(); } },
    },
    h('h3', { id: 'chooser-title' }, title),
    c.card ? h('div', { class: 'chooser-card card-face', html: cardSVG(c.card, design()) }) : null,
    h('div', { class: 'chooser-buttons' }, buttons),
    c.forced ? null : h('button', { class: 'btn btn-ghost btn-small', type: 'button', testid: 'btn-choose-cancel',
      onclick: () => { st.chooser = null; render(); } }, t('cancel')));
  }

  function renderGiveUp() {
    if (!st.giveupConfirm) {
      return h('div', { class: 'giveup' }, h('button', { class: 'btn btn-ghost btn-small', type: 'button', testid: 'btn-giveup',
        'data-focus': 'giveup', onclick: () => { st.giveupConfirm = true; render(); el.querySelector('[data-testid="btn-giveup-confirm"]')?.focus(); } }, t('table.giveup')));
    }
    return h('div', { class: 'giveup giveup-confirm', role: 'alertdialog', 'aria-label': t('table.giveup_confirm') },
      h('p', {}, t('table.giveup_confirm')),
      h('div', { class: 'row' },
        h('button', { class: 'btn btn-danger', type: 'button', testid: 'btn-giveup-confirm',
          onclick: () => { st.giveupConfirm = false; send({ give_up: {} }); } }, t('table.giveup_yes')),
        h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-giveup-cancel',
          onclick: () => { st.giveupConfirm = false; render(); } }, t('cancel'))));
  }

  // the round review (Conferência da Rodada), the match's end, the rematch
  function renderReview() {
    const v = st.view;
    const info = st.info;
    const ended = info.status === 'ended';
    if (!v.round_over && !ended) return null;
    if (st.reviewHidden) {
      return h('button', { class: 'btn btn-small review-show', type: 'button', testid: 'btn-review-show',
        onclick: () => { st.reviewHidden = false; render(); } }, t('review.show'));
    }
    const parts = [];
    const titleId = 'review-title';
    if (v.round_over) {
      const winner = v.round_winner;
      const revealed = v.revealed_hands || [];
      const blocked = winner !== null && winner !== undefined && (revealed[winner] || []).length > 0;
      parts.push(h('h2', { id: titleId }, info.ruleset === 'candeias' ? t('review.title_candeias') : t('review.title'),
        ' · ', t('table.round_no', { n: v.rounds_played })));
      if (blocked) parts.push(h('p', { class: 'blocked', testid: 'table-blocked' }, t('review.blocked')));
      if (winner !== null && winner !== undefined) {
        parts.push(h('p', { class: 'review-headline', testid: 'review-headline' }, blocked ? t('review.blocked_win', { name: nameOf(winner) })
          : (winner === me() ? t('review.you_went_out') : t('review.went_out', { name: nameOf(winner) }))));
        if (info.ruleset === 'candeias' && !blocked && parseCard(v.top)?.rank === 'J') parts.push(h('p', { class: 'doubled' }, t('review.doubled')));
      }
      const rows = info.players.map((p, seat) => {
        if (v.in_round && !v.in_round[seat]) return null;
        const cards = revealed[seat] || [];
        const handPts = cards.reduce((sum, c) => sum + cardPoints(info.ruleset, c), 0);
        return h('tr', { class: seat === winner ? 'winner' : '', testid: `review-row-${seat}` },
          h('th', { scope: 'row' }, nameOf(seat)),
          h('td', { class: 'review-cards' }, cards.length
            ? cards.map((c) => h('span', { class: 'review-card' },
              h('span', { class: 'card-face mini-face', role: 'img', 'aria-label': cardLabel(c), html: cardSVG(c, design()) }),
              h('small', {}, String(cardPoints(info.ruleset, c)))))
            : h('span', { class: 'muted' }, '—'),
          cards.length ? h('small', { class: 'muted hand-points' }, t('review.hand_points', { n: handPts })) : null),
          h('td', { class: 'num' }, v.round_points?.[seat] ? `+${v.round_points[seat]}` : '0'),
          h('td', { class: 'num total' }, String(v.scores?.[seat] ?? 0)));
      });
      parts.push(h('div', { class: 'review-table-wrap' }, h('table', { class: 'review-table', testid: 'review-table' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, ''), h('th', { class: 'num' }, t('review.round_points')), h('th', { class: 'num' }, t('review.total')))),
        h('tbody', {}, rows))));
      if (st.seed) parts.push(h('p', { class: 'muted seed', title: st.seed }, `${t('log.seed')} ${st.seed.slice(0, 16)}…`));
    }
    if (info.status === 'over' || ended) {
      const winners = info.winners || [];
      parts.push(h('h2', { class: 'match-title', id: v.round_over ? null : titleId }, t('match.over')));
      if (ended) {
        const by = st.endedBy;
        const reason = info.end_reason || '';
        if (reason === 'expired') parts.push(h('p', {}, t('match.ended.expired')));
        else if (reason && by !== null && by !== undefined && by >= 0) parts.push(h('p', {}, t(`match.ended.${reason}`, { name: nameOf(by) })));
      }
      if (winners.length) {
        parts.push(h('p', { class: 'match-winner', testid: 'match-winner' }, winners.includes(me()) && winners.length === 1
          ? t('match.you_won') : t('match.winner', { names: listNames(winners.map(nameOf)), n: winners.length })));
      }
      if (info.status === 'over') {
        const votes = info.rematch || [];
        if (info.rematch_closed) parts.push(h('p', { class: 'muted' }, t('match.rematch_closed')));
        else {
          if (votes.length) parts.push(h('p', { class: 'muted', testid: 'rematch-votes' }, t('match.rematch_votes', { names: listNames(votes.map(nameOf)) })));
          if (seated() && !votes.includes(me())) {
            parts.push(h('div', { class: 'row' },
              h('button', { class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-rematch', 'data-focus': 'rematch',
                onclick: () => send({ rematch: { accept: true } }) }, t('match.rematch'))));
          } else if (seated()) {
            parts.push(h('p', { class: 'muted' }, t('match.rematch_waiting')));
          }
        }
      }
      parts.push(h('a', { href: '/', 'data-link': true, class: 'btn btn-ghost btn-small' }, t('match.home')));
    } else if (v.round_over && seated() && info.status === 'playing') {
      parts.push(h('div', { class: 'row' }, h('button', {
        class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-next-round', 'data-focus': 'next-round',
        onclick: () => send({ next_round: {} }),
      }, t('review.next'))));
    }
    parts.push(h('button', { class: 'btn btn-ghost btn-small review-hide', type: 'button', testid: 'btn-review-hide',
      onclick: () => { st.reviewHidden = true; render(); } }, t('review.hide')));
    return h('section', { class: 'review', testid: 'round-review', role: 'dialog', 'aria-labelledby': titleId }, parts);
  }

  function renderScores() {
    const info = st.info;
    const v = st.view;
    if (!v) {
      regions.scores.hidden = true;
      return;
    }
    regions.scores.hidden = false;
    const live = !v.round_over && info.status === 'playing';
    const rows = info.players.map((p, seat) => h('tr', { class: `${live && v.turn === seat ? 'on-turn' : ''}${seat === me() ? ' me' : ''}` },
      h('th', { scope: 'row' }, p.name, seat === me() ? ` (${t('you')})` : ''),
      h('td', { class: 'num' }, String(v.scores?.[seat] ?? 0))));
    mount(regions.scores, h('h3', {}, t('table.scores')),
      h('p', { class: 'muted' }, goalText(info, v)),
      h('table', { class: 'score-table' }, h('tbody', {}, rows)));
  }

  function renderLog() {
    regions.log.querySelector('.log-title').textContent = t('table.log');
    regions.log.hidden = !st.log.length;
    const items = st.log.slice(-80).map((entry) => h('li', { class: entry.cls ? `log-${entry.cls}` : '' }, formatEntry(entry)));
    mount(regions.logList, ...items);
    regions.logList.scrollTop = regions.logList.scrollHeight;
  }

  function renderChatFrame() {
    regions.chat.querySelector('.chat-title').textContent = t('table.chat');
    regions.chatInput.placeholder = t('table.chat_placeholder');
    regions.chatInput.setAttribute('aria-label', t('table.chat'));
    regions.chatSend.textContent = t('table.chat_send');
    const canWrite = seated();
    regions.chatForm.hidden = !canWrite;
    regions.chatNote.hidden = canWrite;
    regions.chatNote.textContent = t('table.chat_readonly');
  }

  function renderChatLog() {
    if (!built) return;
    const items = st.chat.map((line) => h('li', { class: line.seat === me() ? 'chat-me' : '' },
      h('strong', {}, line.seat === me() ? t('you') : line.name), ': ', h('span', {}, line.text)));
    mount(regions.chatLog, ...items);
    regions.chatLog.scrollTop = regions.chatLog.scrollHeight;
  }

  const onKey = (e) => {
    if (e.key === 'Escape' && st.doubleMode) { st.doubleMode = false; render(); }
  };
  document.addEventListener('keydown', onKey);

  subscribe();

  return {
    el,
    render,
    destroy() {
      destroyed = true;
      if (timerId) clearInterval(timerId);
      document.removeEventListener('keydown', onKey);
      for (const [type, fn] of listeners) ctx.conn.removeEventListener(type, fn);
      ctx.conn.unsubscribe(tableId);
    },
  };
}

