// Above the table: the free seat offered to whoever holds the invitation, "you are watching",
// and a player away for too long (whom the others may end the match for).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { refusedSeat, stakeJoinLine } from '../competitiveui.js';

export function renderNotices(p) {
  const { info, view, joinDismissed } = p.st;
  const items = [];
  const free = info.players.length < info.seats;
  if (!p.seated) {
    const canSit = p.invitation && free && !joinDismissed && (info.status === 'lobby'
      || (info.status === 'playing' && view?.late_join)); // between rounds, where the rules let a newcomer in
    if (canSit && p.st.seatRefused) items.push(refusedSeat(p, p.st.seatRefused)); // ⚔ an account, chips
    if (canSit) {
      items.push(h('div', { class: 'notice notice-join', testid: 'join-offer' },
        h('p', {}, t('join.offer')), stakeJoinLine(info), // ⚔ what the seat costs, and who may take it
        h('div', { class: 'row' },
          h('button', { class: 'btn btn-primary', type: 'button', testid: 'btn-join', 'data-focus': 'join', onclick: p.join }, t('join.sit')),
          h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-watch', onclick: () => p.set({ joinDismissed: true }) }, t('join.watch')))));
    } else if (info.status === 'lobby' ? !info.creator : !view) {
      // once the felt is shown, the line in the hand's place says it (game.js): not twice on a phone
      items.push(h('p', { class: 'notice', testid: 'spectator-notice' }, p.invitation || info.status !== 'lobby' ? t('join.watching') : t('join.no_invite')));
    }
  }
  if (info.absent_seat !== null && info.absent_seat !== undefined && info.status === 'playing') {
    const mine = p.seated && p.me !== info.absent_seat;
    items.push(h('div', { class: 'notice notice-warn', testid: 'absence-notice' },
      h('p', {}, t('table.absent', { name: p.nameOf(info.absent_seat) })),
      mine ? h('button', { class: 'btn btn-danger', type: 'button', testid: 'btn-absence', 'data-focus': 'absence',
        onclick: () => p.send({ claim_absence: {} }) }, t('table.absence')) : null));
  }
  return items;
}
