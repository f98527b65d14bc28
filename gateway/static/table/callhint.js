// The call's first-time hint: the first time a call is due on this device, a note under the
// actions bar says when to make it (before the second-to-last card; Mau-Mau: before the last)
// and what forgetting costs. It goes for good once dismissed ("ENTENDI") or once the call is made.

import { h } from '../dom.js';
import { t } from '../i18n.js';

const SEEN_KEY = 'mm.hint.call';
let seenHere = false; // the browser keeps nothing (private mode): this page remembers

export function callHintSeen() {
  if (seenHere) return true;
  try { return globalThis.localStorage?.getItem(SEEN_KEY) === 'seen'; } catch { return false; }
}

export function markCallHintSeen() {
  seenHere = true;
  try { globalThis.localStorage?.setItem(SEEN_KEY, 'seen'); } catch { /* this page only */ }
}

/** The hint for `call` ('mau', 'maumau', 'last'), or null once seen. */
export function renderCallHint(p, call) {
  if (callHintSeen()) return null;
  return h('div', { class: 'call-hint', role: 'note', testid: 'call-hint' },
    h('p', {}, t(`table.call_hint.${call}`)),
    h('button', {
      class: 'btn btn-small btn-accent', type: 'button', testid: 'call-hint-ok', 'data-focus': 'call-hint-ok',
      onclick: () => { markCallHintSeen(); p.set({}); p.focus('btn-mau'); },
    }, t('table.call_hint.ok')));
}
