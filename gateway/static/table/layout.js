// The table screen's skeleton: its head, the main column (notices, the table's lobby, the game)
// and the side (scores, log, chat), built once so the chat's input survives every render.

import { h, mount } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { buildChat } from './chat.js';
import { buildLog } from './logpanel.js';

/** The regions of the screen, mounted in `el` with the layer reactions rise in; `sendChat(text, input)` sends a chat
 * line, `sendReaction(reaction)` a reaction. */
export function buildRegions(el, sendChat, sendReaction, reactionLayer) {
  const chat = buildChat(sendChat, sendReaction);
  const log = buildLog();
  const scores = h('section', { class: 'panel scoreboard', testid: 'scoreboard' });
  const regions = {
    head: h('div', { class: 'table-head' }),
    notice: h('div', { class: 'table-notices' }),
    lobby: h('section', { class: 'table-lobby', testid: 'table-lobby' }),
    game: h('section', { class: 'game', testid: 'game', 'aria-label': t('lobby.title') }),
    scores, log, chat,
    side: h('aside', { class: 'table-side' }, scores, log.el, chat.el),
    menu: h('div', { class: 'table-menu' }),
  };
  const main = h('div', { class: 'table-main' }, regions.notice, regions.lobby, regions.game);
  mount(el, regions.head, h('div', { class: 'table-layout' }, main, regions.side), regions.menu, reactionLayer);
  return regions;
}

/** What a link to a table that does not exist shows. */
export function unknownTable() {
  return h('section', { class: 'panel' }, h('h2', {}, errorText('unknown_table')),
    h('a', { href: '/', 'data-link': true, class: 'btn btn-primary' }, t('match.home')));
}
