// The match's end, its own screen: why it ended, the winner (avatar and name, first thing seen),
// REVANCHE and NOVA MESA, the final standings (1º, 2º… with the scores and, at a competitive
// table ⚔, each one's chips and XP), the pot and the vote on the one who left, then the last
// round's board. The order and the ⚔ changes are standings.js's (pure).

import { signed, xpText } from '../competitive.js';
import { matchStakeLine, renderPenaltyVote } from '../competitiveui.js';
import { h } from '../dom.js';
import { getLang, listNames, t } from '../i18n.js';
import { renderRoundBoard } from './roundboard.js';
import { seatAvatar } from './seats.js';
import { stakeChanges, standings } from './standings.js';

function reasonLine(p) {
  const { info } = p.st;
  if (info.status !== 'ended') return null;
  const reason = info.end_reason || '';
  if (reason === 'expired') return h('p', { class: 'match-reason' }, t('match.ended.expired'));
  const by = info.ended_by;
  if (reason && by !== null && by !== undefined && by >= 0) return h('p', { class: 'match-reason' }, t(`match.ended.${reason}`, { name: p.nameOf(by) }));
  return null;
}

function hero(p) {
  const winners = p.st.info.winners || [];
  if (!winners.length) return null;
  const you = winners.length === 1 && winners[0] === p.me;
  return h('div', { class: `match-hero${you ? ' match-hero-you' : ''}`, testid: 'match-hero' },
    h('div', { class: 'match-hero-avatars' }, winners.map((seat) => seatAvatar(p, seat, 'lg'))),
    h('p', { class: 'match-winner', testid: 'match-winner' },
      you ? t('match.you_won') : t('match.winner', { names: listNames(winners.map(p.nameOf)), n: winners.length })));
}

// open until every person answers: all accept (a new match starts) or one declines (closed for everyone)
function rematch(p) {
  const { info } = p.st;
  if (info.status !== 'over') return [];
  if (info.rematch_closed) return [h('p', { class: 'muted', testid: 'rematch-closed' }, t('match.rematch_closed'))];
  const votes = info.rematch || [];
  const parts = [];
  if (votes.length) parts.push(h('p', { class: 'muted', testid: 'rematch-votes' }, t('match.rematch_votes', { names: listNames(votes.map(p.nameOf)) })));
  if (votes.includes(p.me)) parts.push(h('p', { class: 'muted', testid: 'rematch-waiting' }, t('match.rematch_waiting')));
  return parts;
}

function buttons(p) {
  const { info } = p.st;
  const open = info.status === 'over' && p.seated && !info.rematch_closed;
  const row = [];
  if (open && !(info.rematch || []).includes(p.me)) {
    row.push(h('button', { class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-rematch', 'data-focus': 'rematch',
      onclick: () => p.send({ rematch: { accept: true } }) }, t('match.rematch')));
  }
  if (!p.replay) { // the home screen's create form, this ruleset chosen (lobby.js reads ?regra=)
    row.push(h('a', { class: 'btn btn-accent btn-big', href: `/?regra=${encodeURIComponent(info.ruleset)}`, 'data-link': true,
      testid: 'btn-new-table' }, t('match.new_table')));
  }
  if (open) {
    row.push(h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-rematch-no', 'data-focus': 'rematch-no',
      onclick: () => p.send({ rematch: { accept: false } }) }, t('match.rematch_no')));
  }
  return row.length ? h('div', { class: 'row match-buttons' }, row) : null;
}

function changeLine(change) {
  if (!change) return null;
  const lang = getLang();
  return h('span', { class: `standing-change${change.chips < 0 ? ' xp-neg' : ''}`, testid: 'standing-change' },
    t('profile.chips_change', { s: signed(change.chips, lang), n: Math.abs(change.chips) }), ' · ', xpText(change.xp, lang));
}

function standingsList(p) {
  const { info, view: v } = p.st;
  const rows = standings({ scores: v?.scores || [], winners: info.winners || [], lowestWins: !!p.rs?.lowest_wins, seats: info.players.length });
  const changes = stakeChanges(info);
  const points = !!v && (info.options || {}).scoring !== 'none' && !(info.options || {}).quick;
  return h('ol', { class: 'standings', testid: 'standings', 'aria-label': t('match.standings') }, rows.map((r) => h('li', {
    class: `standing${r.winner ? ' standing-winner' : ''}${r.seat === p.me ? ' me' : ''}`, testid: `standing-${r.seat}`,
    dataset: { place: String(r.place), seat: String(r.seat) },
  },
  h('span', { class: 'standing-place', testid: 'standing-place' }, t('match.place', { n: r.place })),
  seatAvatar(p, r.seat, 'sm'),
  h('span', { class: 'standing-name' }, p.nameOf(r.seat)),
  points ? h('span', { class: 'standing-score', testid: 'standing-score', dataset: { score: String(r.score) } }, t('match.points', { n: r.score })) : null,
  changes && !info.players[r.seat]?.bot ? changeLine(changes[r.seat]) : null)));
}

/** The match-end screen's parts (under review.js's dialog); its title is the dialog's (`titleId`). */
export function renderMatchEnd(p, titleId) {
  const { info, view: v } = p.st;
  const parts = [h('h2', { class: 'match-title', id: titleId }, t('match.over')), reasonLine(p), hero(p), buttons(p), ...rematch(p),
    h('h3', { class: 'standings-title' }, t('match.standings')), standingsList(p),
    matchStakeLine(p), renderPenaltyVote(p)]; // ⚔ the pot, and "Penalizar quem saiu?"
  if (p.seated) parts.push(p.offerAccount()); // a guest's tables are kept only on this device: offer to keep them
  const links = [];
  if (!p.replay) { // "Rever partida": the match step by step, as this person saw it (replay.js)
    links.push(h('a', { href: `/m/${encodeURIComponent(p.tableId)}/rever?partida=${info.match_no || 0}`, 'data-link': true,
      class: 'btn btn-small', testid: 'btn-replay' }, `⏪ ${t('replay.open')}`));
  }
  links.push(h('a', { href: '/', 'data-link': true, class: 'btn btn-ghost btn-small' }, t('match.home')));
  parts.push(h('div', { class: 'row match-links' }, links));
  if (v?.round_over) parts.push(h('div', { class: 'last-round' }, renderRoundBoard(p, { last: true })));
  return h('div', { class: 'match-end', testid: 'match-end' }, parts);
}
