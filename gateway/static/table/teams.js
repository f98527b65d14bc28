// Teams (seed 002, jogo em duplas) in the table's lobby: who partners whom (table_info.partners:
// the seats opposite each other, 0 & 2 and 1 & 3), and for the creator, before the start, the
// control that moves a player to another seat (the two change places: a `move_seat` command).

import { h } from '../dom.js';
import { t } from '../i18n.js';

/** The pair (0, 1, …) a seat plays in, or -1 without teams. */
export function teamOf(info, seat) {
  return (info.partners || []).findIndex((pair) => pair.includes(seat));
}

/** The seat's pair, as a tag in its lobby row. */
export function teamTag(info, seat) {
  const team = teamOf(info, seat);
  if (team < 0) return null;
  return h('span', { class: `tag tag-team tag-team-${team}`, testid: `seat-team-${seat}` }, '👥 ', t('teams.pair', { n: team + 1 }));
}

/** Who partners whom, one line per pair ("Dupla 1: Ana e Tito"). */
export function renderTeams(p) {
  const { info } = p.st;
  if (!info.partners) return null;
  const who = (seat) => info.players[seat]?.name ?? t('teams.empty');
  return h('div', { class: 'teams', testid: 'teams' },
    h('h3', {}, t('teams.title')),
    h('ul', { class: 'teams-pairs' }, info.partners.map((pair, i) => h('li', { testid: `team-${i}` },
      h('strong', {}, t('teams.pair', { n: i + 1 }), ': '), t('teams.names', { a: who(pair[0]), b: who(pair[1]) })))),
    h('p', { class: 'muted' }, info.creator && info.status === 'lobby' ? t('teams.hint_creator') : t('teams.hint')));
}

/** The creator's control on a seated player's row: "Trocar com…" another seated player. */
export function moveControl(p, seat) {
  const { info } = p.st;
  if (!info.partners || !info.creator || info.status !== 'lobby' || info.players.length < 2) return null;
  const others = info.players.map((pl, i) => i).filter((i) => i !== seat);
  const select = h('select', {
    class: 'move-seat', testid: `move-seat-${seat}`, 'aria-label': t('teams.move_label', { name: info.players[seat].name }),
    onchange: (e) => { if (e.target.value !== '') p.send({ move_seat: { seat, to: Number(e.target.value) } }); },
  }, h('option', { value: '' }, t('teams.move')),
  others.map((i) => h('option', { value: String(i) }, t('teams.move_to', { n: i + 1, name: info.players[i].name }))));
  return select;
}
