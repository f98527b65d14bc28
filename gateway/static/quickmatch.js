// "Jogar agora" on the home screen: choose a ruleset, the seats and the speed; the platform seats
// the player with others who asked for the same (POST /api/quick-match) and starts the table. The
// waiting screen long-polls the ticket (GET /api/quick-match/{ticket}?wait=10: a ticket nobody asks
// about for 20 s is dropped) and goes to the table once matched; after 30 s it offers "Completar com
// robôs" (the ticket taken back, a table made with the same choices, bots seated, started: a training
// table). The ticket is taken back when the player cancels, leaves the page or goes to another screen.
// "Jogar contra robôs" makes that training table at once, with no ticket.
// The controller (QuickMatch) touches no DOM: node-tested with a fake API.

import { api as realApi } from './api.js';
import { rulesetLabel, rulesetOf, valueText } from './catalog.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, pick, t } from './i18n.js';

export const QUICK_SPEEDS = [0, 15, 30, 60, 120]; // seconds a turn (0: no timer): what the server takes
export const BOTS_AFTER_MS = 30000; // waiting this long offers the bots
export const LONG_POLL_SECONDS = 10;
const CHOICE_KEY = 'mm.quick';

/** 0:07, 1:32: the time waited so far. */
export function elapsedText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** How long to wait before asking again after `failures` failed questions: well within the ticket's 20 s. */
export function retryDelay(failures) {
  return Math.min(4000, 250 * 2 ** Math.max(0, failures - 1));
}

/** The options of the table "Completar com robôs" makes: the speed chosen (0: no turn timer). */
export function botTableOptions(turnSeconds) {
  return turnSeconds ? { turn_seconds: turnSeconds } : {};
}

/** A valid choice from what was saved (or nothing): a known ruleset, seats in its range, a speed offered. */
export function quickChoice(saved, catalog, preferred = null) {
  const rulesets = catalog.rulesets;
  const s = saved && typeof saved === 'object' ? saved : {};
  const rs = rulesetOf(catalog, preferred) || rulesetOf(catalog, s.ruleset) || rulesets[0];
  const seats = Number.isInteger(s.seats) ? Math.min(rs.seats.max, Math.max(rs.seats.min, s.seats)) : rs.seats.min;
  const turn = QUICK_SPEEDS.includes(s.turn_seconds) ? s.turn_seconds : 30;
  return { ruleset: rs.name, seats, turn_seconds: turn };
}

/** A speed in words, as the create form says it (the ruleset's turn_seconds option), else "30 s". */
export function speedText(catalog, ruleset, seconds) {
  const o = rulesetOf(catalog, ruleset)?.options.find((x) => x.name === 'turn_seconds');
  const value = seconds || null;
  if (o?.values?.some((x) => x.value === value)) return valueText(o, value);
  return seconds ? t('table.seconds', { n: seconds }) : t('quick.no_timer');
}

/**
 * One player's quick match. `state`: idle → asking → waiting → matched (onTable called), or back to
 * idle (cancelled, refused, dropped: `error` says why); `filling` while "Completar com robôs" makes
 * its table. Every answer that comes back after the player changed their mind is ignored (`run`).
 */
export class QuickMatch {
  /**
   * @param {{ api?: typeof realApi, onChange?: (qm: QuickMatch) => void, onTable?: (tableId: string) => void,
   *   now?: () => number, sleep?: (ms: number) => Promise<void> }} [deps] what it talks to (the tests pass their own)
   */
  constructor({ api = realApi, onChange = () => {}, onTable = () => {}, now = () => Date.now(),
    sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); }) } = {}) {
    this.api = api;
    this.onChange = onChange;
    this.onTable = onTable;
    this.now = now;
    this.sleep = sleep;
    this.state = 'idle';
    this.ticket = null;
    this.choice = null;
    this.since = 0;
    this.error = null;
    this.tableId = null;
    this.run = 0;
  }

  /** Waiting for a table (a ticket to take back if the player goes away). */
  get active() { return ['asking', 'waiting', 'filling'].includes(this.state); }

  waited() { return this.active ? this.now() - this.since : 0; }

  botsOffered() { return this.state === 'waiting' && this.waited() >= BOTS_AFTER_MS; }

  _set(state) {
    this.state = state;
    this.onChange(this);
  }

  _idle(error = null) {
    this.run += 1;
    this.ticket = null;
    this.error = error;
    this._set('idle');
  }

  _matched(tableId) {
    this.run += 1;
    this.ticket = null;
    this.tableId = tableId;
    this._set('matched');
    this.onTable(tableId);
  }

  async start(choice) {
    if (this.active) return;
    this.run += 1;
    const run = this.run;
    Object.assign(this, { choice, since: this.now(), error: null, ticket: null, tableId: null });
    this._set('asking');
    let res;
    try {
      res = await this.api.quickMatch(choice);
    } catch (e) {
      if (run === this.run) this._idle(e.code || 'unavailable');
      return;
    }
    if (run !== this.run) { // cancelled or left meanwhile: take this ticket back too
      if (res?.status === 'waiting') this.api.cancelQuickMatch(res.ticket).catch(() => {});
      return;
    }
    if (res.status === 'matched' && res.table_id) { this._matched(res.table_id); return; }
    this.ticket = res.ticket;
    this._set('waiting');
    await this._poll(run);
  }

  async _poll(run) {
    let failures = 0;
    while (run === this.run && this.state === 'waiting') {
      let res;
      try {
        res = await this.api.quickMatchStatus(this.ticket, LONG_POLL_SECONDS);
        failures = 0;
      } catch (e) {
        if (run !== this.run) return;
        failures += 1;
        if (e.status === 404 || e.status === 400) { this._idle(e.code); return; }
        await this.sleep(retryDelay(failures)); // unreachable for a moment: ask again (the ticket lives 20 s unasked)
        continue;
      }
      if (run !== this.run || this.state !== 'waiting') return;
      if (res.status === 'matched' && res.table_id) { this._matched(res.table_id); return; }
      if (res.status === 'cancelled') { this._idle('quick_dropped'); return; }
    }
  }

  /** "Cancelar": the ticket taken back (if a table was found meanwhile, the player goes to it). */
  async cancel() {
    if (!this.active || this.state === 'filling') return;
    const { ticket } = this;
    this._idle();
    if (!ticket) return; // still asking: start() takes its ticket back when the answer comes
    try {
      const res = await this.api.cancelQuickMatch(ticket);
      if (res.status === 'matched' && res.table_id && this.state === 'idle') this._matched(res.table_id);
    } catch { /* unanswered: dropped 20 s after its last question */ }
  }

  /** The page goes away or to another screen: take the ticket back with a request that outlives it. */
  leave() {
    if (!this.active) return;
    const { ticket } = this;
    this._idle();
    if (ticket) this.api.leaveQuickMatch(ticket);
  }

  /** "Completar com robôs": the ticket taken back, then a training table with the same choices, bots, started. */
  async fillWithBots() {
    if (this.state !== 'waiting') return;
    this.run += 1;
    const run = this.run;
    const { ticket, choice } = this;
    this._set('filling');
    try {
      const res = await this.api.cancelQuickMatch(ticket);
      if (res.status === 'matched' && res.table_id) { this._matched(res.table_id); return; } // found just now
    } catch (e) {
      if (run !== this.run) return;
      this._set('waiting'); // the ticket still waits: keep asking about it
      this.error = e.code || 'unavailable';
      this._poll(run);
      return;
    }
    this.ticket = null;
    await this._botTable(run, choice);
  }

  /** "Jogar contra robôs": one tap, no ticket — a training table with these choices, bots, started. */
  async playBots(choice) {
    if (this.active) return;
    this.run += 1;
    Object.assign(this, { choice, since: this.now(), error: null, ticket: null, tableId: null });
    this._set('filling');
    await this._botTable(this.run, choice);
  }

  async _botTable(run, choice) {
    let tableId;
    try {
      tableId = (await this.api.createTable(choice.ruleset, botTableOptions(choice.turn_seconds), choice.seats)).table_id;
    } catch (e) {
      if (run === this.run) this._idle(e.code || 'unavailable');
      return;
    }
    try {
      await this.api.bots(tableId);
      await this.api.start(tableId);
    } catch (e) {
      this.error = e.code || 'unavailable'; // the table's lobby still offers the bots and the start
    }
    if (run === this.run) this._matched(tableId);
  }
}

function savedChoice() {
  try { return JSON.parse(localStorage.getItem(CHOICE_KEY) || 'null'); } catch { return null; }
}

function saveChoice(choice) {
  try { localStorage.setItem(CHOICE_KEY, JSON.stringify(choice)); } catch { /* private mode */ }
}

/**
 * The home screen's "Jogar agora": `formEl` (the choices and the button) and, while a ticket waits,
 * `waitingEl` (the waiting screen, which the home shows alone). `onChange` when one replaces the other.
 */
export function createQuickMatch(ctx, { preferred = null, onChange = () => {} } = {}) {
  let choice = quickChoice(savedChoice(), ctx.catalog, preferred);
  const formEl = h('section', { class: 'panel quick-form', testid: 'quick-form' });
  const waitingEl = h('section', { class: 'panel quick-waiting', testid: 'quick-waiting', 'aria-live': 'polite' });
  let tick = 0;
  let shownActive = false;
  let shownOffer = false;

  const qm = new QuickMatch({
    onChange: () => {
      ticking(qm.active);
      if (qm.state === 'matched') return; // onTable goes to the table
      if (qm.error && qm.state === 'idle') ctx.toast(qm.error === 'quick_dropped' ? t('quick.dropped') : errorText(qm.error), 'error');
      draw();
      if (qm.active !== shownActive) { // one screen for the other: the keyboard goes along
        shownActive = qm.active;
        onChange();
        const to = qm.active ? waitingEl.querySelector('[data-testid="btn-quick-cancel"]') : formEl.querySelector('[data-testid="btn-quick"]');
        if (to?.isConnected) to.focus({ preventScroll: !qm.active });
      }
    },
    onTable: (id) => ctx.navigate(`/m/${id}`),
  });

  function ticking(on) {
    if (on && !tick) tick = setInterval(onTick, 1000);
    if (!on && tick) { clearInterval(tick); tick = 0; }
  }

  function onTick() {
    const clock = waitingEl.querySelector('[data-testid="quick-elapsed"]');
    if (clock) clock.textContent = elapsedText(qm.waited());
    if (qm.botsOffered() !== shownOffer) drawWaiting();
  }

  const onPageHide = () => qm.leave();
  window.addEventListener('pagehide', onPageHide);

  function setChoice(patch) {
    choice = quickChoice({ ...choice, ...patch }, ctx.catalog, patch.ruleset || choice.ruleset);
    saveChoice(choice);
    drawForm();
  }

  function drawForm() {
    const rs = rulesetOf(ctx.catalog, choice.ruleset);
    const seatOptions = [];
    for (let n = rs.seats.min; n <= rs.seats.max; n += 1) {
      seatOptions.push(h('option', { value: String(n), selected: n === choice.seats }, String(n)));
    }
    const field = (id, label, control) => h('label', { class: 'opt opt-field', for: id }, h('span', { class: 'opt-name' }, label), control);
    keepFocus(formEl, () => mount(formEl,
      h('h2', {}, t('quick.title')),
      h('p', { class: 'muted quick-hint' }, t('quick.hint')),
      h('form', { class: 'quick-choices', onsubmit: (e) => { e.preventDefault(); saveChoice(choice); qm.start({ ...choice }); } },
        field('quick-ruleset', t('create.ruleset'), h('select', { id: 'quick-ruleset', testid: 'quick-ruleset', 'data-focus': 'q-rs',
          onchange: (e) => setChoice({ ruleset: e.target.value }) },
        ctx.catalog.rulesets.map((r) => h('option', { value: r.name, selected: r.name === choice.ruleset }, pick(r.label))))),
        field('quick-seats', t('create.seats'), h('select', { id: 'quick-seats', testid: 'quick-seats', 'data-focus': 'q-seats',
          onchange: (e) => setChoice({ seats: Number(e.target.value) }) }, seatOptions)),
        field('quick-speed', t('quick.speed'), h('select', { id: 'quick-speed', testid: 'quick-speed', 'data-focus': 'q-speed',
          onchange: (e) => setChoice({ turn_seconds: Number(e.target.value) }) },
        QUICK_SPEEDS.map((s) => h('option', { value: String(s), selected: s === choice.turn_seconds },
          speedText(ctx.catalog, choice.ruleset, s))))),
        h('button', { class: 'btn btn-primary btn-big quick-go', type: 'submit', testid: 'btn-quick', 'data-focus': 'q-go',
          disabled: qm.active }, t('quick.go')),
        h('button', { class: 'btn btn-accent btn-big quick-bots', type: 'button', testid: 'btn-play-bots', 'data-focus': 'q-bots-now',
          disabled: qm.active, onclick: () => { saveChoice(choice); qm.playBots({ ...choice }); } },
        h('span', { 'aria-hidden': 'true' }, '🤖'), t('quick.play_bots')))));
  }

  function drawWaiting() {
    const c = qm.choice || choice;
    shownOffer = qm.botsOffered();
    const filling = qm.state === 'filling';
    keepFocus(waitingEl, () => mount(waitingEl,
      h('div', { class: 'quick-spinner', 'aria-hidden': 'true' },
        ['♠', '♥', '♣', '♦'].map((suit, i) => h('span', { class: i % 2 ? 'suit-red' : '' }, suit))),
      h('h2', { testid: 'quick-searching' }, filling ? t('quick.filling') : t('quick.searching')),
      h('p', { class: 'quick-what', testid: 'quick-what' }, t('quick.what', {
        ruleset: rulesetLabel(ctx.catalog, c.ruleset), n: c.seats, speed: speedText(ctx.catalog, c.ruleset, c.turn_seconds),
      })),
      h('p', { class: 'quick-elapsed-row' }, t('quick.elapsed'), ' ',
        h('span', { class: 'quick-elapsed', testid: 'quick-elapsed', role: 'timer', 'aria-live': 'off' }, elapsedText(qm.waited()))),
      shownOffer ? h('div', { class: 'notice quick-offer', testid: 'quick-offer' },
        h('p', {}, t('quick.bots_offer')),
        h('button', { class: 'btn btn-primary', type: 'button', testid: 'btn-quick-bots', 'data-focus': 'q-bots',
          onclick: () => qm.fillWithBots() }, t('quick.bots'))) : null,
      h('div', { class: 'row quick-actions' },
        h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-quick-cancel', 'data-focus': 'q-cancel', disabled: filling,
          onclick: () => qm.cancel() }, t('quick.cancel')))));
  }

  function draw() {
    if (qm.active) drawWaiting(); else drawForm();
  }

  draw();
  return {
    formEl,
    waitingEl,
    get active() { return qm.active; },
    render: draw,
    /** The home screen goes away (another table, another page): the ticket is taken back. */
    destroy() {
      window.removeEventListener('pagehide', onPageHide);
      ticking(false);
      qm.leave();
    },
    controller: qm,
  };
}
