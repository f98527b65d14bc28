// The home screen: your name (a guest session), creating a table (ruleset, options in plain
// words, seats) and the list of your tables with whose turn it is.

import { api } from './api.js';
import { cleanOptions, control, optionDefault, optionGroups, rulesetLabel, rulesetOf, valueText } from './catalog.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, getLang, pick, setLang, t, timeAgo } from './i18n.js';
// playing with strangers: the open tables, "Aberta" at creation, and "Jogar agora"
import { createOpenTables, visibilityFieldset } from './opentables.js';
import { createQuickMatch } from './quickmatch.js';
// competitive tables (⚔): the create form's own block
import { stakeOf } from './competitive.js';
import { competitiveFieldset } from './competitiveui.js';
// "Sua vez!": the list follows the socket (turnwatch.js); "Avisar quando for minha vez"
import { notifyOn, notifyPermission, setNotify } from './alerts.js';

export function parseTableLink(text) {
  try {
    const url = new URL(text.trim(), location.origin);
    const m = /^\/m\/([A-Za-z0-9-]{1,64})\/?$/.exec(url.pathname);
    if (!m) return null;
    return `/m/${m[1]}${url.searchParams.get('c') ? `?c=${encodeURIComponent(url.searchParams.get('c'))}` : ''}`;
  } catch { return null; }
}

/** An Aprenda page (static, gateway/static/aprenda/): `index` or a ruleset's, in `lang`. */
export function learnHref(page, lang = 'pt-BR') {
  return `/static/aprenda/${lang === 'en' ? 'en/' : ''}${page}.html`;
}

/** What an Aprenda page's links ask of the home screen: `?regra=<ruleset>` chooses it, `&ajuda=1` opens its
 * step-by-step help, `&lang=` the language the page was read in. */
export function linkedRequest(search, rulesetIds) {
  const q = new URLSearchParams(search);
  const ruleset = rulesetIds.includes(q.get('regra')) ? q.get('regra') : null;
  const lang = ['pt-BR', 'en'].includes(q.get('lang')) ? q.get('lang') : null;
  return { ruleset, help: ruleset !== null && q.get('ajuda') === '1', lang };
}

/** The names at a table but the player's own seat's (empty seats left out): who a row of "Minhas mesas" is with. */
export function opponents(names, seat) {
  return (names || []).filter((n, i) => i !== seat && n);
}

/** Ask for the player's name: creates the guest session (or renames it, or the account); or sign in. */
export function nameForm(ctx, { title, note = '', onDone }) {
  const input = h('input', {
    id: 'name-input', testid: 'name-input', type: 'text', maxlength: '24', autocomplete: 'nickname',
    placeholder: t('name.placeholder'), value: ctx.session()?.name || '', required: true,
  });
  let busy = false;
  const submit = async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) { ctx.toast(t('name.empty'), 'error'); input.focus(); return; }
    if (busy) return;
    busy = true;
    try {
      if (ctx.session()) await api.rename(name); else await api.createSession(name);
      ctx.sessionChanged();
      onDone();
    } catch (err) {
      ctx.toast(errorText(err.code), 'error');
    } finally {
      busy = false;
    }
  };
  const first = !ctx.session();
  return h('form', { class: 'panel name-form', onsubmit: submit, testid: 'name-form' },
    h('h2', {}, h('label', { for: 'name-input' }, title)),
    note ? h('p', { class: 'muted' }, note) : null,
    h('div', { class: 'row' }, input,
      h('button', { class: 'btn btn-primary', type: 'submit', testid: 'btn-name' }, t(first ? 'name.play' : 'name.save'))),
    first ? h('p', { class: 'name-account' },
      h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-name-login',
        onclick: () => ctx.openAccount('login') }, t('account.to_login'))) : null);
}

export function createHome(ctx) {
  const el = h('div', { class: 'home', testid: 'home' });
  const linked = linkedRequest(location.search, ctx.catalog.rulesets.map((r) => r.name));
  const form = { ruleset: linked.ruleset || ctx.catalog.rulesets[0].name, seats: 4, values: {}, watch: false, busy: false };
  const names = {}; // the players of listed tables the socket does not follow (asked once each)
  const mineEl = h('section', { class: 'panel my-tables', testid: 'my-tables' });
  let destroyed = false;
  form.houseOpen = false; // "Regras da casa" folded until opened
  form.open = false; // "Só por convite" (the default) or "Aberta" (listed): visibilityFieldset
  let strangers = null; // {quick, open}: made once there is a session (the open tables are polled)
  if (linked.ruleset || linked.lang) { // asked once: a reload or a language switch starts from a plain home
    history.replaceState(null, '', '/');
    if (linked.ruleset) ctx.setHelpRuleset(linked.ruleset);
    setTimeout(() => { // once this screen is the app's
      if (destroyed) return;
      if (linked.lang) setLang(linked.lang);
      if (linked.help) ctx.openHelp(linked.ruleset);
    }, 0);
  }

  // "Minhas mesas" (GET /api/my-tables), kept live by the turn watch: whose turn, unread chat lines
  async function loadMine() {
    if (!ctx.session()) return;
    await ctx.turns.refresh();
    // who sits at the tables the socket does not follow (one small request each): the opponents, whose turn
    const ask = ctx.turns.mine().rows.slice(0, 12).filter((r) => !r.names && !names[r.table_id]);
    await Promise.all(ask.map(async (r) => {
      try {
        const info = await api.table(r.table_id);
        names[r.table_id] = (info.players || []).map((p) => p.name);
      } catch { /* the list still shows the seat */ }
    }));
    renderMine();
  }
  const offTurns = ctx.turns.onChange(() => renderMine());

  let editingName = false;

  function optionControl(o) {
    const key = o.name;
    const id = `opt-${key}`;
    const current = key in form.values ? form.values[key] : optionDefault(rulesetOf(ctx.catalog, form.ruleset), key);
    const set = (v) => { form.values[key] = v; if (key === 'teams') render(); };
    const hint = o.hint ? h('small', { class: 'muted' }, pick(o.hint)) : null;
    const kind = control(o);
    if (kind === 'check') {
      return h('label', { class: 'opt opt-check', for: id },
        h('input', { id, type: 'checkbox', testid: id, checked: current === o.on,
          onchange: (e) => set(e.target.checked ? o.on : o.off) }),
        h('span', {}, pick(o.label)));
    }
    if (kind === 'number') {
      return h('label', { class: 'opt opt-field', for: id },
        h('span', { class: 'opt-name' }, pick(o.label)),
        h('input', { id, type: 'number', min: String(o.min), step: '1', inputmode: 'numeric', testid: id,
          value: form.values[key] ?? '', placeholder: t('create.default'),
          oninput: (e) => set(e.target.value === '' ? null : Number(e.target.value)) }),
        hint);
    }
    const values = o.values.map((x) => x.value);
    return h('label', { class: 'opt opt-field', for: id },
      h('span', { class: 'opt-name' }, pick(o.label)),
      h('select', { id, testid: id, onchange: (e) => set(values[Number(e.target.value)]) },
        values.map((v, i) => h('option', { value: String(i), selected: v === current }, valueText(o, v)))),
      hint);
  }

  function createForm() {
    const rs = rulesetOf(ctx.catalog, form.ruleset);
    const { min, max } = rs.seats;
    const teams = form.values.teams === true;
    if (teams) form.seats = 4;
    form.seats = Math.min(max, Math.max(min, form.seats));
    const { main, house } = optionGroups(rs);
    const submit = async (e) => {
      e.preventDefault();
      if (form.busy) return;
      form.busy = true;
      try {
        const stake = stakeOf(form); // ⚔ chips per seat (0: not competitive)
        const res = await api.createTable(form.ruleset, cleanOptions(rs, form.values), form.seats, form.watch,
          { ...(stake ? { stake } : {}), ...(form.open ? { open: true } : {}) });
        ctx.navigate(res.link || `/m/${res.table_id}?c=${res.invitation}`);
      } catch (err) {
        ctx.toast(errorText(err.code), 'error');
      } finally {
        form.busy = false;
      }
    };
    const seatOptions = [];
    for (let n = min; n <= max; n += 1) seatOptions.push(h('option', { value: String(n), selected: n === form.seats }, String(n)));
    return h('form', { class: 'panel create-form', onsubmit: submit, testid: 'create-form' },
      h('h2', {}, t('create.title')),
      rulesetChoice(),
      // everything but the ruleset and the seats folded: the form fits a phone's screen
      h('details', { class: 'house', testid: 'house-rules', open: form.houseOpen,
        ontoggle: (e) => { form.houseOpen = e.target.open; } },
      h('summary', { testid: 'house-rules-toggle' }, t('create.house')),
      h('p', { class: 'ruleset-desc' }, t(`rs.${form.ruleset}.desc`)),
      main.map(optionControl),
      house.map(optionControl),
      h('label', { class: 'opt opt-check' },
        h('input', { type: 'checkbox', testid: 'opt-watch', checked: form.watch,
          onchange: (e) => { form.watch = e.target.checked; } }),
        h('span', {}, t('create.watch'))),
      visibilityFieldset(form), // "Só por convite" or "Aberta"
      competitiveFieldset(ctx, form, render)), // ⚔ Mesa competitiva and its stake
      h('div', { class: 'create-go' },
        h('label', { class: 'opt opt-field create-seats', for: 'opt-seats' },
          h('span', { class: 'opt-name' }, t('create.seats')),
          h('select', { id: 'opt-seats', testid: 'opt-seats', disabled: teams,
            onchange: (e) => { form.seats = Number(e.target.value); } }, seatOptions)),
        h('button', { class: 'btn btn-primary btn-big', type: 'submit', testid: 'btn-create' }, t('create.submit'))));
  }

  /** The rulesets as a row of choices (their words are under "Regras da casa"), and the Aprenda page of the chosen. */
  function rulesetChoice() {
    return h('fieldset', { class: 'rulesets' },
      h('legend', {}, t('create.ruleset')),
      h('div', { class: 'ruleset-pills' }, ctx.catalog.rulesets.map(({ name: id, label }) => h('label', {
        class: `ruleset-choice${id === form.ruleset ? ' selected' : ''}`, testid: `ruleset-${id}` },
      h('input', { type: 'radio', name: 'ruleset', value: id, checked: id === form.ruleset,
        onchange: () => { form.ruleset = id; form.values = {}; ctx.setHelpRuleset(id); render(); } }),
      h('span', { class: 'ruleset-name' }, pick(label))))),
      h('p', { class: 'learn-ruleset' }, h('a', { href: learnHref(form.ruleset, getLang()), testid: 'lobby-learn' },
        t('learn.ruleset', { name: rulesetLabel(ctx.catalog, form.ruleset) }))));
  }

  function notifyToggle() {
    const permission = notifyPermission();
    if (permission === 'unsupported') return null;
    const on = notifyOn();
    return h('div', { class: 'turn-alerts' },
      h('button', {
        class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-notify', 'data-focus': 'notify',
        'aria-pressed': on ? 'true' : 'false', disabled: permission === 'denied',
        onclick: async () => { // a tap: the browser may ask its question now
          const now = await setNotify(!on);
          if (!on && !now) ctx.toast(t('turn.notify_blocked'), 'error');
          renderMine();
        },
      }, on ? '🔔 ' : '🔕 ', t('turn.notify')),
      permission === 'denied' ? h('small', { class: 'muted', testid: 'notify-blocked' }, t('turn.notify_blocked')) : null);
  }

  function myTableRow(r) {
    let turn = '';
    const mineTurn = r.my_turn || (r.status === 'playing' && r.on_turn === r.seat);
    if (r.status === 'playing' && r.on_turn !== null && r.on_turn !== undefined && r.on_turn >= 0) {
      if (mineTurn) turn = t('mine.your_turn');
      else turn = t('mine.turn_of', { name: (r.names || names[r.table_id])?.[r.on_turn] || t('seat', { n: r.on_turn }) });
    }
    const others = opponents(r.names || names[r.table_id], r.seat);
    return h('li', { class: `my-table${mineTurn ? ' my-turn' : ''}`, testid: `my-table-${r.table_id}`,
      'data-my-turn': mineTurn ? 'true' : 'false' },
    h('a', { href: `/m/${r.table_id}`, 'data-link': true, class: 'my-table-link', 'data-focus': `mine-${r.table_id}` },
      mineTurn ? h('span', { class: 'my-table-bell', 'aria-hidden': 'true' }, '🔔') : null,
      h('span', { class: 'my-table-rs' }, rulesetLabel(ctx.catalog, r.ruleset)),
      h('span', { class: `status status-${r.status}` }, t(`status.${r.status}`)),
      turn ? h('span', { class: 'my-table-turn', testid: 'my-table-turn' }, turn) : null,
      others.length ? h('span', { class: 'my-table-with', testid: 'my-table-with' }, t('mine.with', { names: others.join(', ') })) : null,
      r.unread ? h('span', { class: 'tag tag-unread', testid: 'my-table-unread', title: t('mine.unread', { n: r.unread }) },
        '💬 ', String(r.unread), h('span', { class: 'sr-only' }, ` ${t('mine.unread', { n: r.unread })}`)) : null,
      h('span', { class: 'muted my-table-time' }, r.last_move_at ? timeAgo(r.last_move_at) : '')));
  }

  function renderMine() {
    if (destroyed) return;
    const mine = ctx.turns.mine();
    const waiting = mine.rows.filter((r) => r.my_turn).length;
    keepFocus(mineEl, () => mount(mineEl,
      h('div', { class: 'panel-head' },
        h('h2', {}, t('mine.title'),
          waiting ? h('span', { class: 'tag tag-turn', testid: 'mine-waiting' }, t('mine.waiting', { n: waiting })) : null),
        h('button', { class: 'btn btn-small btn-ghost', type: 'button', onclick: loadMine, testid: 'btn-refresh',
          'data-focus': 'mine-refresh' }, t('mine.refresh'))),
      notifyToggle(),
      mine.loading ? h('p', { class: 'muted' }, t('loading'))
        : mine.rows.length ? h('ul', { class: 'my-table-list' }, mine.rows.map(myTableRow))
          : h('p', { class: 'muted' }, mine.error ? errorText(mine.error) : t('mine.none'))));
  }

  function joinByLink() {
    const input = h('input', { type: 'url', id: 'join-link', testid: 'join-link', placeholder: `${location.origin}/m/…` });
    return h('form', { class: 'panel join-form', onsubmit: (e) => {
      e.preventDefault();
      const path = parseTableLink(input.value);
      if (!path) { ctx.toast(t('join.bad_link'), 'error'); return; }
      ctx.navigate(path);
    } },
    h('label', { for: 'join-link' }, t('join.by_link')),
    h('div', { class: 'row' }, input, h('button', { class: 'btn', type: 'submit' }, t('join.go'))));
  }

  function render() {
    if (destroyed) return;
    const s = ctx.session();
    if (!s || editingName) {
      mount(el, h('section', { class: 'hero' }, h('h1', {}, t('app.title')), h('p', {}, t('app.tagline'))),
        nameForm(ctx, { title: t('name.title'), onDone: () => { editingName = false; render(); loadMine(); } }));
      return;
    }
    if (!strangers) {
      strangers = { open: createOpenTables(ctx, { seatedAt: () => new Set(ctx.turns.mine().rows.map((r) => r.table_id)) }),
        quick: createQuickMatch(ctx, { preferred: linked.ruleset, onChange: () => render() }) };
    }
    if (strangers.quick.active) { // the waiting screen, alone
      mount(el, strangers.quick.waitingEl);
      strangers.quick.render();
      return;
    }
    strangers.quick.render();
    strangers.open.render();
    renderMine();
    mount(el,
      h('section', { class: 'hero hero-small' },
        h('h1', {}, t('name.hello', { name: s.name })),
        h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-change-name',
          onclick: () => { editingName = true; render(); } }, t('name.change'))),
      h('div', { class: 'home-grid' },
        h('div', { class: 'home-play' }, strangers.quick.formEl, createForm()),
        h('div', { class: 'home-side' }, mineEl, strangers.open.el, joinByLink())));
  }

  if (ctx.session()) loadMine();
  return {
    el,
    render,
    destroy() {
      destroyed = true;
      offTurns();
      strangers?.quick.destroy(); // a ticket still waiting is taken back
      strangers?.open.destroy();
    },
  };
}
