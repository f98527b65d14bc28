// The home screen: your name (a guest session), "Jogar agora" and "Jogar contra robôs", creating a
// table (createform.js), the open tables and the list of your tables with whom and whose turn it is.

import { api } from './api.js';
import { rulesetLabel } from './catalog.js';
import { createTableForm } from './createform.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, getLang, pick, setLang, t, timeAgo } from './i18n.js';
// playing with strangers: the open tables and "Jogar agora"
import { createOpenTables } from './opentables.js';
import { createQuickMatch } from './quickmatch.js';
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

/** An Aprenda page (made by the gateway from the learning data: gateway/learn/): `index` or a ruleset's, in `lang`;
 * a ruleset without learning data leads to the index. */
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

/** The rulesets as a row of choices (their words are under "Regras da casa"), and the Aprenda page of the chosen. */
function rulesetChoice(ctx, form, redraw) {
  return h('fieldset', { class: 'rulesets' },
    h('legend', {}, t('create.ruleset')),
    h('div', { class: 'ruleset-pills' }, ctx.catalog.rulesets.map(({ name: id, label }) => h('label', {
      class: `ruleset-choice${id === form.ruleset ? ' selected' : ''}`, testid: `ruleset-${id}` },
    h('input', { type: 'radio', name: 'ruleset', value: id, checked: id === form.ruleset,
      onchange: () => { form.ruleset = id; form.values = {}; ctx.setHelpRuleset(id); redraw(); } }),
    h('span', { class: 'ruleset-name' }, pick(label))))),
    h('p', { class: 'learn-ruleset' }, h('a', { href: learnHref(form.ruleset, getLang()), testid: 'lobby-learn' },
      t('learn.ruleset', { name: rulesetLabel(ctx.catalog, form.ruleset) }))));
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
        h('div', { class: 'home-play' }, strangers.quick.formEl, createTableForm(ctx, form, render, rulesetChoice(ctx, form, render))),
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
