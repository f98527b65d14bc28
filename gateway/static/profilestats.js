// A profile's public part (profile.js): the statistics per ruleset and category, and the last matches.

import { rulesetLabel } from './catalog.js';
import { h } from './dom.js';
import { getLang, t, timeAgo } from './i18n.js';
import { categoryBadge } from './rankingpage.js';
import { matchSummary, percent } from './rankings.js';
// ⚔ competitive tables: each match's XP and chips
import { signed, xpText } from './competitive.js';

/** Statistics per ruleset and category: played, wins, their share, XP. */
export function statsView(data, catalog) {
  const rows = data.statistics || [];
  return h('section', { class: 'panel profile-stats', testid: 'profile-stats', 'aria-labelledby': 'profile-stats-title' },
    h('h2', { id: 'profile-stats-title' }, t('profile.stats')),
    rows.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'stats-table' },
      h('thead', {}, h('tr', {},
        ['profile.ruleset', 'profile.category', 'profile.played', 'profile.wins'].map((k) => h('th', { scope: 'col' }, t(k))),
        h('th', { scope: 'col', 'aria-label': t('profile.win_rate') }, // "%" when a phone has no room for the word
          h('span', { class: 'th-long', 'aria-hidden': 'true' }, t('profile.win_rate')),
          h('span', { class: 'th-short', 'aria-hidden': 'true' }, '%')),
        h('th', { scope: 'col', title: t('profile.xp_hint') }, 'XP'))),
      h('tbody', {}, rows.map((r) => h('tr', { testid: `stats-${r.ruleset}-${r.category}` },
        h('th', { scope: 'row' }, rulesetLabel(catalog, r.ruleset)),
        h('td', {}, categoryBadge(r.category)),
        h('td', { class: 'num', testid: 'stats-played' }, String(r.played)),
        h('td', { class: 'num', testid: 'stats-wins' }, String(r.wins)),
        h('td', { class: 'num', testid: 'stats-rate' }, percent(r.win_rate, getLang())),
        h('td', { class: `num${r.xp < 0 ? ' xp-neg' : ''}`, testid: 'stats-xp' }, signed(r.xp || 0, getLang())))))))
      : h('p', { class: 'muted' }, t('profile.stats_none')));
}

/** The last matches, each linking to its table and to its replay. */
export function historyView(data, catalog) {
  const rows = data.history || [];
  return h('section', { class: 'panel profile-history', testid: 'profile-history', 'aria-labelledby': 'profile-history-title' },
    h('h2', { id: 'profile-history-title' }, t('profile.history')),
    rows.length ? h('ul', { class: 'history-list' }, rows.map((m) => {
      const s = matchSummary(m, getLang());
      const result = t(`profile.${s.result}`);
      const ruleset = rulesetLabel(catalog, m.ruleset);
      return h('li', { class: `history-item history-${s.result}`, testid: `history-${m.table_id}-${m.match_no}` },
        h('a', { class: 'history-link', href: `/m/${encodeURIComponent(m.table_id)}`, 'data-link': true,
          'aria-label': t('profile.see_table', { ruleset, result }) },
        h('span', { class: `result result-${s.result}`, testid: 'history-result' }, result),
        h('span', { class: 'history-rs' }, ruleset),
        categoryBadge(m.category),
        m.annulled ? h('span', { class: 'tag history-annulled', testid: 'history-annulled', title: t('dispute.annulled_hint') },
          t('dispute.annulled_tag')) : null, // staff annulled it (docs/disputes.md): in no total
        h('span', { class: 'history-opponents', testid: 'history-opponents' }, s.opponents),
        h('span', { class: 'muted history-end', testid: 'history-end' }, s.ended),
        m.xp ? h('span', { class: `history-xp${m.xp < 0 ? ' xp-neg' : ''}`, testid: 'history-xp' }, xpText(m.xp, getLang())) : null,
        m.chips ? h('span', { class: `history-chips${m.chips < 0 ? ' xp-neg' : ''}`, testid: 'history-chips' },
          t('profile.chips_change', { s: signed(m.chips, getLang()), n: Math.abs(m.chips) })) : null,
        h('span', { class: 'muted history-time' }, timeAgo(m.ended_at))),
      // "Rever partida": the match step by step, as the one asking saw it (replay.js)
      h('a', { class: 'btn btn-small btn-ghost history-replay', testid: 'history-replay', 'data-link': true,
        href: `/m/${encodeURIComponent(m.table_id)}/rever?partida=${m.match_no}`, 'aria-label': t('replay.open_match', { ruleset, result }) },
      `⏪ ${t('replay.open')}`));
    })) : h('p', { class: 'muted' }, t('profile.history_none')));
}
