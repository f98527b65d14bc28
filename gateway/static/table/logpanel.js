// The event log panel: the table's last moves, worded in the current language.

import { h, mount } from '../dom.js';
import { t } from '../i18n.js';
import { formatEntry } from './eventlog.js';

const SHOWN = 80;

export function buildLog() {
  const list = h('ol', { class: 'event-log', testid: 'event-log', 'aria-live': 'polite' });
  const title = h('h3', { class: 'log-title' });
  return { el: h('section', { class: 'panel log-panel' }, title, list), title, list };
}

export function renderLog(panel, log) {
  panel.title.textContent = t('table.log');
  panel.el.hidden = !log.length;
  mount(panel.list, ...log.slice(-SHOWN).map((entry) => h('li', { class: entry.cls ? `log-${entry.cls}` : '' }, formatEntry(entry))));
  panel.list.scrollTop = panel.list.scrollHeight;
}
