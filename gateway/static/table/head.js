// The table's head line: the ruleset, the status, the goal, the turn time, teams.

import { goalText, rulesetLabel } from '../catalog.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { categoryBadge } from '../rankingpage.js';
import { stakeBadge } from '../competitiveui.js';

export function renderHead(p) {
  const { info, view } = p.st;
  const bits = [h('h1', { class: 'table-title' }, rulesetLabel(p.catalog, info.ruleset)),
    h('span', { class: `status status-${info.status}`, testid: 'table-status' }, t(`status.${info.status}`)),
    categoryBadge(info.category, { testid: 'table-category' })]; // 👥 OFICIAL / 🤖 TREINO: where its result counts
  if (info.stake > 0) bits.push(stakeBadge(info.stake, { testid: 'table-stake' })); // ⚔ 50 fichas: a competitive table
  if (view && info.status !== 'lobby') bits.push(h('span', { class: 'muted' }, goalText(p.rs, info, view)));
  if (info.options?.turn_seconds) {
    bits.push(h('span', { class: 'muted' }, t('table.timer', { s: t('table.seconds', { n: info.options.turn_seconds }) })));
  }
  if (info.options?.teams) bits.push(h('span', { class: 'muted' }, t('table.teams')));
  return bits;
}
