// Disputes (docs/disputes.md): "Reportar problema" in a table's pause menu, "Meus relatos"
// (/relatos: what one reported and the staff's answer) and the staff's desk (/staff: the open
// disputes, each opened at its moment with the record's verification beside it, and closed as
// dismissed or upheld with a note; upheld may annul the match).

import { ApiError, loadSession } from './api.js';
import { h, mount } from './dom.js';
import { errorText, getLang, t } from './i18n.js';
import { looksList } from './stafflooks.js';

export const MAX_REPORT = 500; // characters of a report or a note (the gateway's limit)

// Header values are byte strings: the name's UTF-8 bytes (as api.js sends it).
function headerName(name) {
  return Array.from(new TextEncoder().encode(name), (b) => String.fromCharCode(b)).join('');
}

/** One call to the disputes' API: an account's cookie goes by itself, a guest's token in the header. */
async function call(method, path, body) {
  const headers = { Accept: 'application/json' };
  const s = loadSession();
  if (s && !s.account && s.token) {
    headers.Authorization = `Bearer ${s.token}`;
    if (s.name) headers['X-Player-Name'] = headerName(s.name);
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || (res.status >= 500 ? 'unavailable' : 'bad_request'), err.message);
  }
  return data;
}

export const disputesApi = {
  report: (tableId, text) => call('POST', `/api/tables/${encodeURIComponent(tableId)}/disputes`, { text }),
  mine: () => call('GET', '/api/disputes/mine'),
  me: () => call('GET', '/api/me'),
  open: (closed = false) => call('GET', `/api/staff/disputes${closed ? '?status=closed' : ''}`),
  look: (id) => call('GET', `/api/staff/disputes/${encodeURIComponent(id)}`),
  looks: () => call('GET', '/api/staff/looks'),
  close: (id, verdict, note, annul) => call('POST', `/api/staff/disputes/${encodeURIComponent(id)}/close`, { verdict, note, annul }),
};

function when(iso) {
  try {
    return new Date(iso).toLocaleString(getLang(), { dateStyle: 'short', timeStyle: 'short' });
  } catch { return iso; }
}

// -- "Reportar problema" in the pause menu (table/menu.js): the menu's `report` and `reported` views

/** The pause menu's "Reportar problema" item. */
export function reportItem(p) {
  return h('button', { class: 'btn menu-item', type: 'button', testid: 'menu-report', 'data-focus': 'menu-report',
    onclick: () => { p.set({ menu: 'report' }); p.focus('report-text'); } }, t('dispute.report'));
}

/** The form: a short text of what went wrong, sent with the table's moment (the gateway records it). */
export function reportView(p, back) {
  const text = h('textarea', { id: 'report-text', testid: 'report-text', 'data-focus': 'report-text', maxlength: String(MAX_REPORT),
    rows: '4', 'aria-describedby': 'report-help' });
  const error = h('p', { class: 'form-error', role: 'alert', testid: 'report-error' });
  const send = h('button', { class: 'btn btn-primary', type: 'button', testid: 'report-send', 'data-focus': 'report-send',
    onclick: async () => {
      const value = text.value.trim();
      if (!value) { error.textContent = t('dispute.empty'); text.focus(); return; }
      send.disabled = true;
      try {
        await disputesApi.report(p.tableId, value);
      } catch (err) {
        send.disabled = false;
        error.textContent = errorText(err.code || 'unavailable');
        return;
      }
      p.set({ menu: 'reported' });
      p.focus('report-done');
    } }, t('dispute.send'));
  return [
    h('h2', { id: 'menu-title' }, t('dispute.report')),
    h('label', { for: 'report-text' }, t('dispute.what')),
    text,
    h('p', { class: 'muted', id: 'report-help' }, t('dispute.help', { n: MAX_REPORT })),
    error,
    h('div', { class: 'row menu-confirm' }, send,
      h('button', { class: 'btn btn-ghost', type: 'button', testid: 'report-cancel', 'data-focus': 'report-cancel',
        onclick: () => { p.set({ menu: back }); p.focus('menu-report'); } }, t('cancel'))),
  ];
}

/** After sending: where the staff's answer will be. */
export function reportedView(p) {
  return [
    h('h2', { id: 'menu-title' }, t('dispute.sent_title')),
    h('p', { testid: 'report-sent' }, t('dispute.sent')),
    h('a', { class: 'btn btn-small', href: '/relatos', 'data-link': true, testid: 'report-mine' }, t('dispute.mine')),
    h('button', { class: 'btn btn-primary menu-item', type: 'button', testid: 'report-done', 'data-focus': 'report-done',
      onclick: () => { p.set({ menu: null }); p.focus('btn-menu'); } }, t('menu.back_to_game')),
  ];
}

// -- "Meus relatos" (/relatos)

function status(d) {
  if (d.status === 'open') return t('dispute.status.open');
  return t(`dispute.verdict.${d.verdict}`) + (d.annulled ? ` · ${t('dispute.annulled')}` : '');
}

export function createMyReportsScreen(ctx) {
  const el = h('div', { class: 'disputes-page', testid: 'my-reports' });
  let data = { loading: true, disputes: [], error: '' };
  let destroyed = false;

  async function load() {
    try {
      const res = await disputesApi.mine();
      data = { loading: false, disputes: res.disputes, error: '' };
    } catch (err) {
      data = { loading: false, disputes: [], error: err.code || 'unavailable' };
    }
    if (!destroyed) render();
  }

  function item(d) {
    return h('li', { class: 'panel dispute-item', testid: 'my-report', dataset: { dispute: d.dispute_id, status: d.status } },
      h('p', { class: 'dispute-meta muted' }, when(d.opened_at), ' · ',
        h('a', { href: `/m/${encodeURIComponent(d.table_id)}`, 'data-link': true }, t('dispute.table', { id: d.table_id }))),
      h('p', { class: 'dispute-text' }, d.text),
      h('p', { class: `dispute-status dispute-${d.status}`, testid: 'my-report-status' }, status(d)),
      d.note ? h('blockquote', { class: 'dispute-note', testid: 'my-report-note' }, t('dispute.staff_says'), ' ', d.note) : null);
  }

  function render() {
    if (destroyed) return;
    document.title = `${t('dispute.mine')} · ${t('app.title')}`;
    let body;
    if (!ctx.session()) body = h('p', { class: 'muted' }, t('dispute.none'));
    else if (data.loading) body = h('p', { class: 'muted', role: 'status' }, t('loading'));
    else if (data.error) body = h('p', { class: 'notice notice-warn', role: 'alert' }, errorText(data.error));
    else if (!data.disputes.length) body = h('p', { class: 'muted', testid: 'my-reports-empty' }, t('dispute.none'));
    else body = h('ol', { class: 'dispute-list' }, data.disputes.map(item));
    mount(el, h('section', { class: 'panel' }, h('h1', {}, t('dispute.mine')), h('p', { class: 'muted' }, t('dispute.mine_intro')), body));
  }

  if (ctx.session()) load();
  return { el, render, destroy() { destroyed = true; document.title = t('app.title'); } };
}

// -- the staff's desk (/staff, /staff?encerrados=1, /staff?vistas=1, /staff?relato=<id>)

/** A match fair play settled for nothing (docs/rankings.md), on the desk: when, why, who, and its replay. */
export function markItem(m) {
  return h('li', { class: 'panel dispute-item', testid: 'staff-mark', dataset: { table: m.table_id } },
    h('p', { class: 'dispute-meta muted' }, when(m.ended_at), ' · ', t('dispute.table', { id: m.table_id })),
    h('p', {}, t(`staff.mark.${m.reason}`), ' — ', m.players.join(', ')),
    h('a', { class: 'btn btn-small', href: `/m/${encodeURIComponent(m.table_id)}/rever?partida=${m.match_no}`,
      'data-link': true }, t('staff.mark.replay')));
}

function marksSection(marks) {
  if (!marks.length) return null;
  return h('section', { testid: 'staff-marks' }, h('h2', {}, t('staff.marks')), h('p', { class: 'muted' }, t('staff.marks_hint')),
    h('ol', { class: 'dispute-list' }, marks.map(markItem)));
}

export function createStaffScreen(ctx, disputeId) {
  const el = h('div', { class: 'disputes-page staff-page', testid: 'staff-page' });
  const closedList = new URLSearchParams(location.search).get('encerrados') === '1';
  const looksPage = new URLSearchParams(location.search).get('vistas') === '1'; // every staff look (stafflooks.js)
  let data = { loading: true, staff: false, disputes: [], marks: [], look: null, looks: null, error: '' };
  let destroyed = false;
  let form = { verdict: 'dismissed', annul: false, note: '', sending: false, error: '' };

  async function load() {
    try {
      const me = ctx.session()?.account ? await disputesApi.me() : null;
      if (!me?.staff) {
        data = { ...data, loading: false, staff: false };
      } else if (disputeId) {
        data = { ...data, loading: false, staff: true, look: await disputesApi.look(disputeId) }; // recorded: who looked, when
      } else if (looksPage) {
        data = { ...data, loading: false, staff: true, looks: (await disputesApi.looks()).looks };
      } else {
        const { disputes, marks = [] } = await disputesApi.open(closedList);
        data = { ...data, loading: false, staff: true, disputes, marks: closedList ? [] : marks };
      }
    } catch (err) {
      data = { ...data, loading: false, error: err.code || 'unavailable' };
    }
    if (!destroyed) render();
  }

  function listItem(d) {
    return h('li', { class: 'panel dispute-item', testid: 'staff-dispute', dataset: { dispute: d.dispute_id } },
      h('p', { class: 'dispute-meta muted' }, when(d.opened_at), ' · ', d.reporter_name, ' · ', t('dispute.table', { id: d.table_id })),
      h('p', { class: 'dispute-text' }, d.text),
      d.status === 'closed' ? h('p', { class: 'dispute-status' }, status(d), d.note ? ` — ${d.note}` : '') : null,
      h('a', { class: 'btn btn-small btn-primary', href: `/staff?relato=${encodeURIComponent(d.dispute_id)}`, 'data-link': true,
        testid: 'staff-open' }, t('staff.open')));
  }

  function verification(v) {
    return h('div', { class: `notice ${v.ok ? 'notice-ok' : 'notice-warn'}`, testid: 'staff-verification', dataset: { ok: String(v.ok) } },
      h('strong', {}, v.ok ? t('staff.verified') : t('staff.not_verified')), ' ', h('code', {}, v.text));
  }

  function steps(look) {
    const list = look.steps;
    const moment = list.findLastIndex((s) => !s.after);
    return h('ol', { class: 'staff-steps', testid: 'staff-steps' }, list.map((s, i) => h('li', {
      class: `staff-step${s.after ? ' staff-after' : ''}${i === moment ? ' staff-moment' : ''}`,
      testid: i === moment ? 'staff-moment' : 'staff-step', dataset: { seq: String(s.seq) },
    }, h('span', { class: 'muted' }, `seq ${s.seq} `), s.text,
    i === moment ? h('strong', { class: 'staff-moment-mark' }, ` ← ${t('staff.moment')}`) : null)));
  }

  async function close() {
    if (!form.note.trim()) { form = { ...form, error: 'empty' }; render(); return; }
    form = { ...form, sending: true, error: '' };
    render();
    try {
      await disputesApi.close(disputeId, form.verdict, form.note.trim(), form.verdict === 'upheld' && form.annul);
    } catch (err) {
      form = { ...form, sending: false, error: err.code || 'unavailable' };
      render();
      return;
    }
    ctx.toast(t('staff.closed'), 'info');
    ctx.navigate('/staff');
  }

  function closeForm(d) {
    if (d.status !== 'open') {
      return h('p', { class: 'dispute-status', testid: 'staff-closed' }, status(d), d.note ? ` — ${d.note}` : '');
    }
    const radio = (value) => h('label', { class: 'staff-verdict' }, h('input', {
      type: 'radio', name: 'verdict', value, testid: `staff-verdict-${value}`, checked: form.verdict === value,
      onchange: () => { form = { ...form, verdict: value }; render(); },
    }), ' ', t(`dispute.verdict.${value}`));
    return h('form', { class: 'staff-close', testid: 'staff-close', onsubmit: (e) => { e.preventDefault(); close(); } },
      h('fieldset', {}, h('legend', {}, t('staff.verdict')), radio('dismissed'), radio('upheld')),
      form.verdict === 'upheld' && d.match_no > 0 ? h('label', { class: 'staff-annul' }, h('input', {
        type: 'checkbox', testid: 'staff-annul', checked: form.annul, onchange: (e) => { form = { ...form, annul: e.target.checked }; },
      }), ' ', t('staff.annul', { n: d.match_no })) : null,
      h('label', { for: 'staff-note' }, t('staff.note')),
      h('textarea', { id: 'staff-note', testid: 'staff-note', rows: '3', maxlength: String(MAX_REPORT),
        oninput: (e) => { form = { ...form, note: e.target.value }; } }, form.note),
      form.error ? h('p', { class: 'form-error', role: 'alert' }, form.error === 'empty' ? t('staff.note_needed') : errorText(form.error)) : null,
      h('button', { class: 'btn btn-primary', type: 'submit', testid: 'staff-submit', disabled: form.sending }, t('staff.close')));
  }

  function detail(look) {
    const d = look.dispute;
    return [
      h('a', { class: 'btn btn-small btn-ghost', href: '/staff', 'data-link': true, testid: 'staff-back' }, t('staff.back')),
      h('h2', {}, t('dispute.table', { id: d.table_id })),
      h('p', { class: 'dispute-meta muted' }, when(d.opened_at), ' · ', d.reporter_name,
        d.seat >= 0 ? ` (${t('seat', { n: d.seat })})` : ` (${t('staff.watching')})`, ' · ', look.players.join(', ')),
      h('blockquote', { class: 'dispute-text', testid: 'staff-text' }, d.text),
      verification(look.verification),
      h('h3', {}, t('staff.record')),
      // the replay viewer at this moment, every hand shown (the look is recorded on this dispute)
      h('a', { class: 'btn btn-small', testid: 'staff-replay', 'data-link': true,
        href: `/m/${encodeURIComponent(d.table_id)}/rever?relato=${encodeURIComponent(d.dispute_id)}&lance=${d.table_seq}` },
      `⏪ ${t('replay.at_moment')}`),
      steps(look),
      closeForm(d),
      h('p', { class: 'muted', testid: 'staff-looks' }, t('staff.looks', { n: look.looks.length }), ' ',
        look.looks.map((l) => `${l.name} (${when(l.at)})`).join(', ')),
    ];
  }

  function render() {
    if (destroyed) return;
    document.title = `${t('staff.title')} · ${t('app.title')}`;
    let body;
    if (data.loading) body = h('p', { class: 'muted', role: 'status' }, t('loading'));
    else if (data.error) body = h('p', { class: 'notice notice-warn', role: 'alert', testid: 'staff-error' }, errorText(data.error));
    else if (!data.staff) body = h('p', { class: 'notice', testid: 'staff-only' }, t('staff.only'));
    else if (data.look) body = detail(data.look);
    else if (data.looks) body = looksList(data.looks);
    else if (!data.disputes.length) body = h('p', { class: 'muted', testid: 'staff-empty' }, t(closedList ? 'staff.empty_closed' : 'staff.empty'));
    else body = h('ol', { class: 'dispute-list', testid: 'staff-disputes' }, data.disputes.map(listItem));
    const tabs = data.staff && !data.look ? h('nav', { class: 'rank-tabs', 'aria-label': t('staff.title') },
      [['open', '/staff', !closedList && !looksPage], ['closed', '/staff?encerrados=1', closedList],
        ['looks', '/staff?vistas=1', looksPage]].map(([key, path, current]) => h('a', {
        class: `rank-tab${current ? ' selected' : ''}`, href: path, 'data-link': true, testid: `staff-tab-${key}`,
        'aria-current': current ? 'page' : null,
      }, t(`staff.tab.${key}`)))) : null;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.testid;
    const marks = data.staff && !data.look ? marksSection(data.marks) : null;
    mount(el, h('section', { class: 'panel' }, h('h1', {}, t('staff.title')), tabs, body, marks));
    if (focused === 'staff-note') el.querySelector('[data-testid="staff-note"]')?.focus();
  }

  load();
  return { el, render, destroy() { destroyed = true; document.title = t('app.title'); } };
}
