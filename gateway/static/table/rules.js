// "Regras desta mesa": the ruleset and every option and house rule of this table in plain words.
// One rendering for the table's lobby (a <details>) and, during play, the pause menu.

import { goalText, rulesetLabel, tableRules, turnsClockwise } from '../catalog.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';

const list = (lines, cls) => (lines.length ? h('ul', { class: cls }, lines.map((line) => h('li', {}, line))) : null);

/** The rules of the table as a list of nodes (no heading). */
export function rulesContent(p) {
  const { info, view } = p.st;
  const rules = tableRules(p.rs, info.options);
  // before the start, the goal of the match once every seat is taken
  const seated = info.status === 'lobby' ? { ...info, players: Array.from({ length: info.seats }) } : info;
  const goal = p.rs?.rounds ? t('rules.rounds', { n: p.rs.rounds }) : goalText(p.rs, seated, view);
  const cw = turnsClockwise(p.rs);
  return [
    h('p', { class: 'rules-ruleset' }, h('strong', {}, rulesetLabel(p.catalog, info.ruleset)), ' — ', t(`rs.${info.ruleset}.desc`)),
    h('ul', { class: 'rules-main', testid: 'rules-main' },
      goal ? h('li', {}, goal) : null,
      h('li', {}, cw ? t('rules.turns_cw') : t('rules.turns_ccw')),
      rules.main.map((line) => h('li', {}, line))),
    rules.house.length ? h('h4', {}, t('rules.house')) : null,
    list(rules.house, 'rules-house'),
    rules.off.length ? h('h4', {}, t('rules.off')) : null,
    list(rules.off, 'rules-off muted'),
  ];
}

/** The table's rules folded under "Regras desta mesa" (the table's lobby). */
export function renderTableRules(p) {
  return h('details', { class: 'table-rules', testid: 'table-rules' },
    h('summary', {}, t('lobby.options')), ...rulesContent(p));
}
