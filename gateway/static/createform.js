// "Criar uma mesa" on the home screen: the ruleset, the seats and CRIAR MESA in sight; the ruleset's
// words, its options in plain words, who may sit and the competitive stake folded behind "Regras da
// casa" (so the whole lobby fits a phone's screen). `form` is the home screen's: it survives redraws.

import { api } from './api.js';
import { cleanOptions, control, optionDefault, optionGroups, rulesetOf, valueText } from './catalog.js';
import { h } from './dom.js';
import { errorText, pick, t } from './i18n.js';
import { visibilityFieldset } from './opentables.js';
// competitive tables (⚔): the form's own block
import { stakeOf } from './competitive.js';
import { competitiveFieldset } from './competitiveui.js';

/** One option of the ruleset as a checkbox, a number or a select of its values. */
function optionControl(ctx, form, redraw, o) {
  const key = o.name;
  const id = `opt-${key}`;
  const current = key in form.values ? form.values[key] : optionDefault(rulesetOf(ctx.catalog, form.ruleset), key);
  const set = (v) => { form.values[key] = v; if (key === 'teams') redraw(); };
  // what the option does, read with the control (its description), not as part of its name
  const hint = o.hint ? h('small', { class: 'muted opt-hint', id: `${id}-hint` }, pick(o.hint)) : null;
  const described = hint ? { 'aria-describedby': `${id}-hint` } : {};
  const kind = control(o);
  if (kind === 'check') {
    return h('div', { class: 'opt opt-check' },
      h('input', { id, type: 'checkbox', testid: id, checked: current === o.on, ...described,
        onchange: (e) => set(e.target.checked ? o.on : o.off) }),
      h('span', {}, h('label', { for: id }, pick(o.label)), hint));
  }
  if (kind === 'number') {
    return h('label', { class: 'opt opt-field', for: id },
      h('span', { class: 'opt-name' }, pick(o.label)),
      h('input', { id, type: 'number', min: String(o.min), step: '1', inputmode: 'numeric', testid: id, ...described,
        value: form.values[key] ?? '', placeholder: t('create.default'),
        oninput: (e) => set(e.target.value === '' ? null : Number(e.target.value)) }),
      hint);
  }
  const values = o.values.map((x) => x.value);
  return h('label', { class: 'opt opt-field', for: id },
    h('span', { class: 'opt-name' }, pick(o.label)),
    h('select', { id, testid: id, ...described, onchange: (e) => set(values[Number(e.target.value)]) },
      values.map((v, i) => h('option', { value: String(i), selected: v === current }, valueText(o, v)))),
    hint);
}

/** "Regras da casa": everything but the ruleset and the seats, folded until opened (and kept open). */
function houseRules(ctx, form, redraw) {
  const rs = rulesetOf(ctx.catalog, form.ruleset);
  const { main, house } = optionGroups(rs);
  const option = (o) => optionControl(ctx, form, redraw, o);
  return h('details', { class: 'house', testid: 'house-rules', open: form.houseOpen,
    ontoggle: (e) => { form.houseOpen = e.target.open; } },
  h('summary', { testid: 'house-rules-toggle' }, t('create.house')),
  h('p', { class: 'ruleset-desc' }, t(`rs.${form.ruleset}.desc`)),
  main.map(option),
  house.map(option),
  h('label', { class: 'opt opt-check' },
    h('input', { type: 'checkbox', testid: 'opt-watch', checked: form.watch,
      onchange: (e) => { form.watch = e.target.checked; } }),
    h('span', {}, t('create.watch'))),
  visibilityFieldset(form), // "Só por convite" or "Aberta"
  competitiveFieldset(ctx, form, redraw)); // ⚔ Mesa competitiva and its stake
}

/** The form; `rulesetChoice` is the row of rulesets the home screen draws (with its Aprenda link). */
export function createTableForm(ctx, form, redraw, rulesetChoice) {
  const rs = rulesetOf(ctx.catalog, form.ruleset);
  const { min, max } = rs.seats;
  const teams = form.values.teams === true;
  if (teams) form.seats = 4;
  form.seats = Math.min(max, Math.max(min, form.seats));
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
    rulesetChoice,
    houseRules(ctx, form, redraw),
    h('div', { class: 'create-go' },
      h('label', { class: 'opt opt-field create-seats', for: 'opt-seats' },
        h('span', { class: 'opt-name' }, t('create.seats')),
        h('select', { id: 'opt-seats', testid: 'opt-seats', disabled: teams,
          onchange: (e) => { form.seats = Number(e.target.value); } }, seatOptions)),
      h('button', { class: 'btn btn-primary btn-big', type: 'submit', testid: 'btn-create' }, t('create.submit'))));
}
