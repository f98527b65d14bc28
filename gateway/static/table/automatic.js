// Automatic mode (seed 002, "Jogo em modo automático"): the robot mark on every automatic seat
// (table_info.auto), and for a seated player the switch: "Modo automático" puts the seat in it
// (the system plays its turns at once), "Voltar a jogar" takes it back (so does any action).

import { h } from '../dom.js';
import { t } from '../i18n.js';

/** Whether `seat` is in automatic mode now. */
export function isAuto(info, seat) {
  return (info?.auto || []).includes(seat);
}

/** The robot mark of an automatic seat (null for a seat that plays for itself). */
export function autoMark(info, seat) {
  if (!isAuto(info, seat)) return null;
  return h('span', { class: 'tag tag-auto', testid: `auto-mark-${seat}`, title: t('auto.mark_title') }, '🤖 ', t('auto.mark'));
}

/** The seated player's switch, during a match: on (with the notice) or off. */
export function renderAutoMode(p) {
  const { info } = p.st;
  if (!p.seated || info.status !== 'playing') return null;
  if (isAuto(info, p.me)) {
    return h('div', { class: 'notice notice-auto', testid: 'auto-notice', role: 'status' },
      h('p', {}, '🤖 ', t('auto.on')),
      h('button', { class: 'btn btn-primary', type: 'button', testid: 'btn-auto-off', 'data-focus': 'auto-off',
        onclick: () => p.send({ auto_mode: { on: false } }) }, t('auto.back')));
  }
  return h('div', { class: 'auto-switch' },
    h('button', { class: 'btn btn-ghost btn-small', type: 'button', testid: 'btn-auto-on', 'data-focus': 'auto-on',
      title: t('auto.hint'), onclick: () => p.send({ auto_mode: { on: true } }) }, '🤖 ', t('auto.turn_on')));
}
