// The staff's looks on the desk (/staff?vistas=1; docs/disputes.md, "Who looked"): every time a
// staff member saw a table's hands in full, at a dispute or at the replay of a table that was over,
// newest first: who, when, which table, from which report.

import { h } from './dom.js';
import { getLang, t } from './i18n.js';

function when(iso) {
  try {
    return new Date(iso).toLocaleString(getLang(), { dateStyle: 'short', timeStyle: 'short' });
  } catch { return iso; }
}

/** One look: who, when, the table (its replay) and the report it was opened from, if any. */
function lookItem(l) {
  return h('li', { class: 'staff-look', testid: 'staff-look', dataset: { table: l.table_id, dispute: l.dispute_id || '' } },
    h('strong', {}, l.name), ' · ', when(l.at), ' · ',
    h('a', { href: `/m/${encodeURIComponent(l.table_id)}/rever`, 'data-link': true }, t('dispute.table', { id: l.table_id })),
    ' · ', l.dispute_id
      ? h('a', { href: `/staff?relato=${encodeURIComponent(l.dispute_id)}`, 'data-link': true }, t('staff.look_report'))
      : h('span', { class: 'muted' }, t('staff.look_replay')));
}

/** The list of looks, or a line saying there is none. */
export function looksList(looks) {
  if (!looks.length) return h('p', { class: 'muted', testid: 'staff-looks-empty' }, t('staff.looks_empty'));
  return h('ol', { class: 'staff-looks-list', testid: 'staff-looks-list' }, looks.map(lookItem));
}
