// Automatic mode (seed 002, "Jogo em modo automático"): the robot mark on every automatic seat
// (table_info.auto), and for a seated player the switch: "Modo automático" puts the seat in it
// (the system plays its turns at once), "Voltar a jogar" takes it back (so does any action).
// Presence (issue 15): each person's dot (table_info.away), and the stand-in — automatic because
// its player is away — marked "🤖 jogando por Ana".

import { h } from '../dom.js';
import { t } from '../i18n.js';

/** Whether `seat` is in automatic mode now. */
export function isAuto(info, seat) {
  return (info?.auto || []).includes(seat);
}

/** Whether the seat's player has no page of the site open (table_info.away, during a match). */
export function isAway(info, seat) {
  return info?.status === 'playing' && (info?.away || []).includes(seat);
}

/** Whether a stand-in plays the seat: automatic while its player is away (a timed table, a minute away). */
export function isStandIn(info, seat) {
  return isAuto(info, seat) && isAway(info, seat);
}

/** The robot mark of an automatic seat (null for a seat that plays for itself): "🤖 jogando por Ana" for a stand-in. */
export function autoMark(info, seat) {
  if (!isAuto(info, seat)) return null;
  if (isStandIn(info, seat)) {
    const name = info.players?.[seat]?.name || t('seat', { n: seat });
    return h('span', { class: 'tag tag-auto tag-standin', testid: `auto-mark-${seat}`, 'data-standin': 'true',
      title: t('standin.mark_title', { name }) }, '🤖 ', t('standin.mark', { name }));
  }
  return h('span', { class: 'tag tag-auto', testid: `auto-mark-${seat}`, title: t('auto.mark_title') }, '🤖 ', t('auto.mark'));
}

/** The presence dot of a person's seat during a match: on-line (green) or away (grey); null for a bot. */
export function presenceDot(info, seat) {
  const pl = info?.players?.[seat];
  if (!pl || pl.bot || info.status !== 'playing') return null;
  const away = isAway(info, seat);
  const label = t(away ? 'presence.away' : 'presence.here', { name: pl.name || t('seat', { n: seat }) });
  return h('span', { class: `presence-dot ${away ? 'presence-away' : 'presence-here'}`, testid: `presence-${seat}`,
    'data-presence': away ? 'away' : 'here', role: 'img', 'aria-label': label, title: label });
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
