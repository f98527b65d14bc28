// The table's lobby, before the start: the seats, the invitation, bots, the start, the table's rules.

import { copyText, h } from '../dom.js';
import { t } from '../i18n.js';
import { renderTableRules } from './rules.js';
import { moveControl, renderTeams, teamTag } from './teams.js';
import { stakeNote } from '../competitiveui.js';

function seatList(p) {
  const { info } = p.st;
  const seats = [];
  for (let i = 0; i < info.seats; i += 1) {
    const pl = info.players[i];
    seats.push(h('li', { class: `seat${pl ? '' : ' seat-empty'}${i === p.me ? ' seat-me' : ''}`, testid: `seat-${i}` },
      h('span', { class: 'seat-no' }, String(i + 1)),
      pl ? h('span', { class: 'seat-name' }, pl.name, pl.bot ? h('span', { class: 'tag tag-bot' }, t('bot')) : null,
        i === p.me ? h('span', { class: 'tag tag-me' }, t('you')) : null)
        : h('span', { class: 'muted' }, t('empty_seat')),
      teamTag(info, i), pl ? moveControl(p, i) : null)); // teams: the pair, and the creator's move
  }
  return h('ol', { class: 'seats', testid: 'seats' }, seats);
}

function invite(p, invitation) {
  const link = `${location.origin}/m/${p.tableId}?c=${encodeURIComponent(invitation)}`;
  const copy = async () => p.toast(await copyText(link) ? t('lobby.copied') : link, 'info');
  const share = async () => {
    if (navigator.share) {
      try { await navigator.share({ title: t('app.title'), text: t('lobby.invite.hint'), url: link }); return; } catch (e) {
        if (e && e.name === 'AbortError') return;
      }
    }
    await copy();
  };
  return h('div', { class: 'invite' },
    h('label', { for: 'invite-link' }, t('lobby.invite')),
    h('p', { class: 'muted' }, t('lobby.invite.hint')),
    h('div', { class: 'row' },
      h('input', { id: 'invite-link', testid: 'invite-link', type: 'text', readonly: true, value: link,
        onfocus: (e) => e.target.select() }),
      navigator.share ? h('button', { class: 'btn', type: 'button', testid: 'btn-share', 'data-focus': 'share', onclick: share }, t('lobby.share')) : null,
      h('button', { class: 'btn', type: 'button', testid: 'btn-copy', 'data-focus': 'copy', onclick: copy }, t('lobby.copy'))));
}

function creatorActions(p) {
  const { info, botLevel } = p.st;
  const full = info.players.length >= info.seats;
  const min = p.rs?.seats.min ?? 2;
  // the select keeps its value between renders in the state, without re-rendering
  const level = h('select', { id: 'bot-level', testid: 'bot-level' },
    ['', 'weak', 'medium', 'strong'].map((lv) => h('option', { value: lv }, t(`lobby.level.${lv}`))));
  level.value = botLevel;
  level.addEventListener('change', () => p.remember({ botLevel: level.value }));
  const enough = info.players.length >= min;
  return h('div', { class: 'lobby-actions' },
    h('label', { class: 'opt opt-field', for: 'bot-level' }, h('span', { class: 'opt-name' }, t('lobby.bot_level')), level),
    h('div', { class: 'row' },
      h('button', { class: 'btn', type: 'button', testid: 'btn-bots', 'data-focus': 'bots', disabled: full || info.stake > 0,
        onclick: () => p.send({ fill_bots: { level: level.value } }) }, t('lobby.bots')),
      h('button', { class: 'btn btn-primary btn-big', type: 'button', testid: 'btn-start', 'data-focus': 'start', disabled: !enough,
        onclick: () => p.send({ start: {} }) }, t('lobby.start'))),
    enough ? null : h('p', { class: 'muted' }, t('lobby.need_players', { n: min })),
    info.stake > 0 ? h('p', { class: 'muted', testid: 'stake-no-bots' }, t('stake.no_bots')) : null); // ⚔ people only
}

export function renderLobby(p) {
  const { info } = p.st;
  const parts = [h('h2', {}, t('lobby.title')), stakeNote(info), seatList(p), renderTeams(p)]; // ⚔: what a seat costs
  if (info.invitation) parts.push(invite(p, info.invitation));
  if (info.status === 'lobby') {
    if (info.creator) {
      parts.push(creatorActions(p));
    } else if (p.seated) {
      parts.push(h('p', { class: 'muted', testid: 'waiting-start' }, t('lobby.waiting_start')),
        h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-leave', onclick: () => p.send({ leave: {} }) }, t('lobby.leave')));
    }
  }
  parts.push(renderTableRules(p));
  return h('div', { class: 'panel' }, ...parts);
}
