// Shared reactions at the table (👏 aplausos, 😂 risos…): a seated player sends one in a tap, as a chat
// line of its own kind (docs/protocol.md: {"chat":{"reaction":"aplausos"}}, rate-limited like the chat);
// everyone at the table — watchers too — sees it rise over the screen, with a sound, and finds it in the
// chat's log. Only reactions heard live show: a subscription's first chat frame is its past.

import { h, reducedMotion } from '../dom.js';
import { t } from '../i18n.js';

/** The reactions the chat service takes (services/chat/__init__.py REACTIONS), in the order offered. */
export const REACTIONS = [
  { id: 'aplausos', emoji: '👏' }, { id: 'risos', emoji: '😂' }, { id: 'uau', emoji: '😮' },
  { id: 'amei', emoji: '😍' }, { id: 'ops', emoji: '😬' }, { id: 'boa', emoji: '👍' },
];
const EMOJI = Object.fromEntries(REACTIONS.map((r) => [r.id, r.emoji]));
const SHOWN_MS = 1800;

/** A reaction line in words, as the chat's log shows it: "👏 Aplausos" ('' for a line that is none). */
export function reactionText(line) {
  return line?.reaction && EMOJI[line.reaction] ? `${EMOJI[line.reaction]} ${t(`react.${line.reaction}`)}` : '';
}

/** The row of reaction buttons; `onReact(id)` sends one. */
export function reactionBar(onReact) {
  return h('div', { class: 'reaction-bar', role: 'group', testid: 'reactions', 'aria-label': t('react.title') },
    REACTIONS.map(({ id, emoji }) => h('button', {
      class: 'btn btn-ghost reaction-btn', type: 'button', testid: `react-${id}`, 'aria-label': t(`react.${id}`),
      title: t(`react.${id}`), onclick: () => onReact(id),
    }, h('span', { 'aria-hidden': 'true' }, emoji))));
}

/** The lines of `after` that `before` did not have and are reactions. */
export function newReactions(before, after) {
  const had = new Set(before.map((l) => `${l.time}|${l.seat}|${l.reaction || ''}`));
  return after.filter((l) => l.reaction && !had.has(`${l.time}|${l.seat}|${l.reaction}`));
}

/**
 * A table screen's reactions: `subscribed()` at every (re)subscription, `heard(before, after)` for each
 * chat frame (the chat lines before and after it); each reaction heard live rises in `layer` and sounds.
 */
export function tableReactions(layer, nameOf, playSound) {
  let live = false;
  return {
    subscribed() { live = false; },
    heard(before, after) {
      if (!live) { live = true; return []; } // the subscription's past
      const lines = newReactions(before, after);
      for (const line of lines) {
        const shown = h('div', { class: `reaction-burst${reducedMotion() ? ' still' : ''}`, testid: 'reaction-burst',
          'data-reaction': line.reaction },
        h('span', { class: 'reaction-emoji', 'aria-hidden': 'true' }, EMOJI[line.reaction] || ''),
        h('span', { class: 'reaction-who' }, `${nameOf(line.seat)}: ${t(`react.${line.reaction}`)}`));
        layer.append(shown);
        setTimeout(() => shown.remove(), SHOWN_MS);
        playSound('reaction');
      }
      return lines;
    },
  };
}
