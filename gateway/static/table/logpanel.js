// The event log panel: the table's last moves, worded in the current language.

import { h, mount } from '../dom.js';
import { t } from '../i18n.js';
import { formatEntry } from './eventlog.js';

const SHOWN = 80;

export function buildLog() {
  // the log scrolls: focusable, so a keyboard can scroll it too; it names itself by its title
  const title = h('h3', { class: 'log-title', id: 'event-log-title' });
  const list = h('ol', { class: 'event-log', testid: 'event-log', 'aria-live': 'polite', tabindex: '0',
    'aria-labelledby': 'event-log-title' });
  return { el: h('section', { class: 'panel log-panel' }, title, list), title, list };
}

export function renderLog(panel, log) {
  panel.title.textContent = t('table.log');
  panel.el.hidden = !log.length;
  mount(panel.list, ...log.slice(-SHOWN).map((entry) => h('li', { class: entry.cls ? `log-${entry.cls}` : '' }, formatEntry(entry))));
  panel.list.scrollTop = panel.list.scrollHeight;
}
