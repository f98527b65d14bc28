// The chat panel: built once (what is being typed survives every render), then re-labelled and
// refilled. Seated players write; spectators read.

import { h, mount } from '../dom.js';
import { t } from '../i18n.js';
import { reactionBar, reactionText } from './reactions.js';

/** The panel's elements; `onSend(text, input)` sends a line, `onReact(id)` a reaction. */
export function buildChat(onSend, onReact) {
  const input = h('input', { type: 'text', id: 'chat-input', testid: 'chat-input', maxlength: '300', autocomplete: 'off' });
  const send = h('button', { class: 'btn', type: 'submit', testid: 'chat-send' });
  const form = h('form', { class: 'chat-form', onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) onSend(text, input);
  } }, input, send);
  const log = h('ol', { class: 'chat-log', testid: 'chat-log', 'aria-live': 'polite' });
  const note = h('p', { class: 'muted chat-readonly', testid: 'chat-readonly' });
  const title = h('h3', { class: 'chat-title' });
  const reactions = h('div', { class: 'chat-reactions' });
  const el = h('section', { class: 'panel chat-panel', testid: 'chat' }, title, reactions, log, form, note);
  return { el, title, input, send, form, log, note, reactions, onReact };
}

/** The panel's words and whether this viewer may write. */
export function renderChatFrame(c, seated) {
  c.title.textContent = t('table.chat');
  c.input.placeholder = t('table.chat_placeholder');
  c.input.setAttribute('aria-label', t('table.chat'));
  c.send.textContent = t('table.chat_send');
  c.form.hidden = !seated;
  mount(c.reactions, seated ? reactionBar(c.onReact) : null); // drawn again: its words follow the language
  c.note.hidden = seated;
  c.note.textContent = t('table.chat_readonly');
}

export function renderChatLog(c, lines, me) {
  mount(c.log, ...lines.map((line) => h('li', { class: line.seat === me ? 'chat-me' : '' },
    h('strong', {}, line.seat === me ? t('you') : line.name), ': ', h('span', {}, reactionText(line) || line.text))));
  c.log.scrollTop = c.log.scrollHeight;
}


/** What the chat's panel sends: a line (its input emptied once stored) and a reaction; a refusal is shown. */
export function chatSenders(ctx, tableId) {
  return {
    async sendChat(text, input) {
      const ack = await ctx.conn.command(tableId, { chat: { text } });
      if (ack.ok) input.value = '';
      else ctx.refusal(ack);
    },
    async sendReaction(reaction) {
      const ack = await ctx.conn.command(tableId, { chat: { reaction } });
      if (!ack.ok) ctx.refusal(ack);
    },
  };
}
