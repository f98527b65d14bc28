// The rulesets as the gateway describes them (GET /api/rulesets, read from the rules engine by
// services/rules/catalog.py): what the lobby offers, a table's rules in words, its goal.
// Pure functions of that description, so they can be unit-tested in node.

import { cardKind } from './cards.js';
import { pick, t } from './i18n.js';

/** The description of ruleset `id`, or null. */
export function rulesetOf(catalog, id) {
  return catalog?.rulesets.find((rs) => rs.name === id) || null;
}

/** A ruleset's name in the current language (its id when the catalog does not know it). */
export function rulesetLabel(catalog, id) {
  const rs = rulesetOf(catalog, id);
  return rs ? pick(rs.label) : id;
}

function optionOf(rs, key) {
  return rs?.options.find((o) => o.name === key) || null;
}

/** The value an option has when it is not sent. */
export function optionDefault(rs, key) {
  const o = optionOf(rs, key);
  if (!o) return null;
  return o.default ?? o.values?.[0]?.value ?? null;
}

/** The options of a ruleset that one may set, in the order shown: its own, then the house rules. */
export function optionGroups(rs) {
  return { main: rs.options.filter((o) => !o.house), house: rs.options.filter((o) => o.house) };
}

/** An option asked with a checkbox, a select of values, or a free number. */
export function control(o) {
  if (o.kind === 'flag') return 'check';
  return o.values ? 'select' : 'number';
}

function freeNumber(o, v) {
  const n = Number(v);
  return Number.isInteger(n) && n >= o.min && (o.max === null || n <= o.max) ? n : null;
}

/** Only the options that differ from the ruleset's defaults (what POST /api/tables receives). */
export function cleanOptions(rs, values) {
  const out = {};
  for (const o of rs.options) {
    const v = values[o.name];
    if (v === null || v === undefined || v === '') continue;
    if (control(o) === 'number') {
      const n = freeNumber(o, v);
      if (n !== null) out[o.name] = n;
    } else if (v !== optionDefault(rs, o.name)) {
      out[o.name] = v;
    }
  }
  return out;
}

/** A value of an option in words. */
export function valueText(o, value) {
  const known = o.values?.find((x) => x.value === value);
  return known ? pick(known.label) : String(value);
}

/**
 * Every option of a table in plain words, the ones left at their defaults included (the table's
 * lobby and, during play, "Regras desta mesa"): `main` its ruleset's own options, `house` the
 * house rules' values and the house rules in play (✓), `off` the rules that are off (✗). The
 * points goal is left to goalText, which says the table's own or the ruleset's.
 */
export function tableRules(rs, options) {
  const rules = { main: [], house: [], off: [] };
  if (!rs) return rules;
  const set = options || {};
  for (const o of rs.options) {
    if (o.name === 'target_points') continue;
    const value = Object.hasOwn(set, o.name) ? set[o.name] : optionDefault(rs, o.name);
    const label = pick(o.label);
    if (o.kind === 'flag') {
      if (value === o.off) rules.off.push(`✗ ${label}`);
      else (o.house ? rules.house : rules.main).push(`✓ ${label}`);
    } else if (value !== null && value !== undefined) {
      (o.house ? rules.house : rules.main).push(`${label}: ${valueText(o, value)}`);
    } else if (o.values?.some((x) => x.value === null)) { // "Tempo de jogada: sem limite"
      rules.main.push(`${label}: ${valueText(o, null)}`);
    }
  }
  return rules;
}

/** The title of a round's end board at tables of ruleset `rs` ("Fim da rodada" unless it has its own). */
export function roundTitle(rs) {
  return rs?.round_title ? pick(rs.round_title) : t('review.title');
}

/** Whether direction +1 goes clockwise at tables of this ruleset (GET /api/rulesets' `turns`). */
export function turnsClockwise(rs) {
  return rs?.turns !== 'counter_clockwise';
}

/** The match's goal in words: its rounds, no points, or the total that ends it. */
export function goalText(rs, info, view) {
  if (!rs) return '';
  const o = info.options || {};
  if (rs.rounds) {
    const n = Math.min(rs.rounds, (view?.rounds_played ?? 0) + (view?.round_over ? 0 : 1));
    return t('table.rounds_of', { n, total: rs.rounds });
  }
  if (o.quick) return t('table.quick_game');
  if (o.scoring === 'none') return t('table.no_points');
  const goal = o.target_points || rs.goal?.[String(info.players.length)];
  if (!goal) return '';
  return t(rs.lowest_wins ? 'table.goal_low' : 'table.goal', { n: goal });
}

/** What card `name` does at a table of ruleset `rs` with `options`, in the words printed on it ("+2",
 * "Pula a vez"), or '' for a plain card: the catalog's `effects`, with what the table's options change. */
export function cardEffect(rs, options, name) {
  const kind = cardKind(name);
  if (!rs?.effects || !kind) return '';
  let effect = rs.effects[kind] ?? null;
  for (const [option, byValue] of Object.entries(rs.option_effects || {})) {
    const value = options?.[option];
    const changed = value === undefined || value === null ? null : byValue[String(value)];
    if (changed && kind in changed) effect = changed[kind];
  }
  return effect ? pick(effect) : '';
}
