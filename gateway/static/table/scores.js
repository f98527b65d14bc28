// The scoreboard beside the table: every seat's total, who is on turn, the match's goal.

import { goalText } from '../catalog.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { autoMark } from './automatic.js';

/** The scoreboard's content, or null before the first deal (the board is hidden then). */
export function renderScores(p) {
  const { info, view: v } = p.st;
  if (!v) return null;
  const live = !v.round_over && info.status === 'playing';
  const rows = info.players.map((pl, seat) => h('tr', { class: `${live && v.turn === seat ? 'on-turn' : ''}${seat === p.me ? ' me' : ''}` },
    h('th', { scope: 'row' }, pl.name, seat === p.me ? ` (${t('you')})` : '', autoMark(info, seat)),
    h('td', { class: 'num' }, String(v.scores?.[seat] ?? 0))));
  return [h('h3', {}, t('table.scores')),
    h('p', { class: 'muted' }, goalText(p.rs, info, v)),
    h('table', { class: 'score-table' }, h('tbody', {}, rows))];
}
