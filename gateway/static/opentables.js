// Open tables ("Aberta": listed, anyone may sit without the invitation): the create form's choice
// between "Só por convite" and "Aberta", and the home screen's list of the open tables waiting for
// players, with one-tap join. The list is read with GET /api/open-tables, then kept live by the
// WebSocket's 'open_table' lines (the table service announces every change of an open table's
// lobby); it is read again after a reconnection, and every 30 s while the page is visible.
// The pure parts (a table's lines in words, the live merge, the polling) are node-tested.

import { api } from './api.js';
import { cleanOptions, rulesetLabel, rulesetOf, tableRules } from './catalog.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, getLang, listNames, t } from './i18n.js';
import { speedText } from './quickmatch.js';
import { categoryBadge } from './rankingpage.js';

export const OPEN_TABLES_EVERY_MS = 30000; // a safety net: the lines come live over the WebSocket

/**
 * The list after one live line: a table still waiting for players is put first (or kept where it is),
 * one that no longer waits (full, started, ended) leaves the list.
 */
export function mergeOpenTable(tables, line, max = Infinity) {
  const rest = tables.filter((t) => t.table_id !== line.table_id);
  if (!line.listed) return rest;
  const at = tables.findIndex((t) => t.table_id === line.table_id);
  if (at < 0) return [line, ...rest].slice(0, max);
  const kept = tables.slice();
  kept[at] = line;
  return kept;
}
const SHOWN = 20; // the newest open tables shown

/**
 * Run `run` now and then every `every` ms (after each run has finished) while `doc` is visible;
 * nothing while it is hidden, at once when it shows again. Returns stop().
 */
export function pollWhileVisible(run, every, { doc = globalThis.document, timers = globalThis } = {}) {
  let timer = null;
  let running = false;
  let stopped = false;
  const visible = () => doc.visibilityState !== 'hidden';
  const tick = async () => {
    timer = null;
    if (stopped || !visible()) return;
    running = true;
    try { await run(); } catch { /* the next tick asks again */ } finally { running = false; }
    if (!stopped && visible() && timer === null) timer = timers.setTimeout(tick, every);
  };
  const onVisibility = () => {
    if (stopped) return;
    if (!visible()) {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    } else if (timer === null && !running) {
      tick();
    }
  };
  doc.addEventListener('visibilitychange', onVisibility);
  tick();
  return () => {
    stopped = true;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    doc.removeEventListener('visibilitychange', onVisibility);
  };
}

/**
 * An open table in words: its ruleset, the options it changed from the ruleset's defaults (catalog.js's
 * rules rendering, the turn time apart), who sits there, the free seats, the turn time, the category.
 */
export function openTableText(catalog, table) {
  const rs = rulesetOf(catalog, table.ruleset);
  const options = table.options || {};
  let rules = [];
  if (rs) {
    const changed = Object.keys(cleanOptions(rs, options)).filter((k) => k !== 'turn_seconds');
    const r = tableRules({ ...rs, options: rs.options.filter((o) => changed.includes(o.name)) }, options);
    rules = [...r.main, ...r.house, ...r.off];
    if (Number.isInteger(options.target_points)) rules.unshift(t('open.goal', { n: options.target_points }));
  }
  const turn = table.turn_seconds ?? options.turn_seconds ?? 0;
  return {
    ruleset: rulesetLabel(catalog, table.ruleset),
    rules,
    players: listNames(table.players || []),
    free: t('open.free', { n: table.free }),
    turn: t('open.turn', { time: speedText(catalog, table.ruleset, turn) }),
    category: table.category === 'training' ? 'training' : 'official',
  };
}

/** "Quem pode sentar": only whoever has the invitation (the default), or anyone (listed on the home screen). */
export function visibilityFieldset(form) {
  const choice = (id, open) => h('label', { class: 'opt opt-check visibility-choice', testid: `visibility-${id}` },
    h('input', { type: 'radio', name: 'visibility', value: id, checked: !!form.open === open,
      onchange: () => { form.open = open; } }),
    h('span', {}, h('strong', {}, t(`visibility.${id}`)), ' ', h('small', { class: 'muted' }, t(`visibility.${id}.hint`))));
  return h('fieldset', { class: 'options visibility', testid: 'visibility' },
    h('legend', {}, t('visibility.title')), choice('invite', false), choice('open', true));
}

/**
 * The home screen's open tables: `el`, kept and redrawn in place (the rest of the home is not touched).
 * `seatedAt()`: the ids of the tables the player sits at already ("Minhas mesas"): opened, not joined.
 */
export function createOpenTables(ctx, { seatedAt = () => new Set() } = {}) {
  const el = h('section', { class: 'panel open-tables', testid: 'open-tables' });
  let data = { loading: true, tables: [], error: null };
  let joining = null;
  let shown = '';
  let destroyed = false;

  async function load() {
    try {
      const res = await api.openTables();
      data = { loading: false, tables: (res.tables || []).slice(0, SHOWN), error: null };
    } catch (e) {
      data = { ...data, loading: false, error: e.code || 'unavailable' }; // keep what was shown
    }
    draw();
  }

  async function join(table) {
    if (joining) return;
    joining = table.table_id;
    draw();
    try {
      const res = await api.join(table.table_id);
      if (res.seat === -1) { // taken meanwhile
        ctx.toast(t('open.taken'), 'info');
      } else {
        ctx.navigate(`/m/${table.table_id}`);
        return;
      }
    } catch (e) {
      ctx.toast(errorText(e.code), 'error');
    }
    joining = null;
    if (!destroyed) load();
  }

  function row(table, mine) {
    const w = openTableText(ctx.catalog, table);
    return h('li', { class: 'open-table', testid: `open-table-${table.table_id}` },
      h('div', { class: 'open-table-head' },
        h('span', { class: 'open-table-rs' }, w.ruleset),
        categoryBadge(w.category, { testid: 'open-table-category' })),
      h('p', { class: 'open-table-meta' },
        h('span', { class: 'open-table-free' }, w.free), h('span', {}, w.turn)),
      w.players ? h('p', { class: 'muted open-table-players' }, t('open.players', { names: w.players })) : null,
      h('p', { class: 'open-table-rules' }, w.rules.length ? w.rules.join(' · ') : t('open.standard')),
      mine ? h('a', { class: 'btn open-join', href: `/m/${table.table_id}`, 'data-link': true, testid: `open-mine-${table.table_id}` },
        t('open.mine'))
        : h('button', { class: 'btn btn-primary open-join', type: 'button', testid: `open-join-${table.table_id}`,
          'data-focus': `join-${table.table_id}`, disabled: !!joining, onclick: () => join(table) },
        joining === table.table_id ? t('loading') : t('open.join')));
  }

  function draw() {
    if (destroyed) return;
    const mine = seatedAt();
    const key = JSON.stringify([data, joining, getLang(), [...mine]]);
    if (key === shown) return; // the same list: nothing moves under the player's finger
    shown = key;
    keepFocus(el, () => mount(el,
      h('h2', {}, t('open.title')),
      data.loading ? h('p', { class: 'muted' }, t('loading'))
        : data.tables.length ? h('ul', { class: 'open-table-list', testid: 'open-table-list' }, data.tables.map((tb) => row(tb, mine.has(tb.table_id))))
          : h('p', { class: 'muted', testid: 'open-none' }, data.error ? errorText(data.error) : t('open.none'))));
  }

  function onLine(e) {
    if (destroyed || data.loading) return;
    data = { ...data, tables: mergeOpenTable(data.tables, e.detail, SHOWN) };
    draw();
  }

  function onStatus(e) {
    if (e.detail === 'open' && !destroyed) load(); // lines may have been missed while it was away
  }

  draw();
  const conn = ctx.conn;
  conn?.addEventListener('open_table', onLine);
  conn?.addEventListener('status', onStatus);
  conn?.watchOpenTables();
  const stop = pollWhileVisible(load, OPEN_TABLES_EVERY_MS);
  return {
    el,
    render: draw,
    destroy() {
      destroyed = true;
      stop();
      conn?.removeEventListener('open_table', onLine);
      conn?.removeEventListener('status', onStatus);
    },
  };
}
