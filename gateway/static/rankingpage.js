// The Ranking screen (/ranking?regra=&modo=&periodo=): the wins ranking of a ruleset, OFICIAL or
// TREINO, over a period (Hoje, Semana, Mês, Temporada, Histórico), page after page ("MAIS").
// Every tab is a link: a ranking has an address. The words and addresses are in rankings.js.

import { api } from './api.js';
import { avatarEl } from './avatars.js';
import { rulesetLabel } from './catalog.js';
import { h, mount } from './dom.js';
import { errorText, getLang, t } from './i18n.js';
import { CATEGORIES, categoryMark, parseRankingSearch, PERIODS, periodCaption, profilePath, rankingPath, sameName } from './rankings.js';
// the XP ranking (⚔ competitive tables): "Vitórias / XP", `&por=xp` in the address
import { xpText } from './competitive.js';
import { parseRankingBy, SCORES } from './rankings.js';

/** A row of tabs, each a link to another ranking (the one shown marked `aria-current`). */
function tabs(label, testid, items) {
  return h('nav', { class: 'rank-tabs', 'aria-label': label, testid },
    items.map(({ key, text, path, current }) => h('a', {
      class: `rank-tab${current ? ' selected' : ''}`, href: path, 'data-link': true, testid: `${testid}-${key}`,
      'aria-current': current ? 'page' : null,
    }, text)));
}

/** A category's mark: "👥 OFICIAL" (the icon hidden from screen readers). */
export function categoryBadge(category, attrs = {}) {
  const mark = categoryMark(category);
  if (!mark) return null;
  return h('span', { class: `category category-${category}`, title: t(`category.${category}_hint`), ...attrs },
    h('span', { 'aria-hidden': 'true' }, `${mark.icon} `), h('span', { class: 'category-text' }, mark.text));
}

export function createRankingScreen(ctx) {
  const el = h('div', { class: 'ranking-page', testid: 'ranking-page' });
  const q = parseRankingSearch(location.search, ctx.catalog.rulesets.map((r) => r.name));
  q.by = parseRankingBy(location.search); // wins or xp
  const canonical = rankingPath(q);
  if (location.pathname + location.search !== canonical) history.replaceState(null, '', canonical);
  let data = { loading: true, rows: [], more: false, page: 0, key: '', error: '' };
  let destroyed = false;

  async function load(page) {
    const first = page ? data.rows.length : 0; // the first row a page adds: where the keyboard goes on
    data = { ...data, loading: true, error: '' };
    render();
    try {
      const res = await api.rankings({ ...q, page });
      if (destroyed) return;
      data = { loading: false, rows: page ? [...data.rows, ...res.rows] : res.rows, more: res.more, page, key: res.period_key, error: '' };
    } catch (err) {
      if (destroyed) return;
      data = { ...data, loading: false, error: err.code || 'unavailable' };
    }
    render();
    if (page) el.querySelector(`[data-row="${first}"] a`)?.focus({ preventScroll: true });
  }

  function row(r, i) {
    const me = ctx.session();
    const mine = me?.account && sameName(me.name, r.name);
    return h('li', { class: `rank-row${mine ? ' rank-me' : ''}${r.position <= 3 ? ` rank-top rank-top-${r.position}` : ''}`,
      testid: 'ranking-row', dataset: { row: String(i), name: r.name, position: String(r.position) } },
    h('span', { class: 'rank-pos', testid: 'ranking-position' }, t('ranking.position', { n: r.position })),
    avatarEl(r.avatar, r.name, 'sm'),
    h('a', { class: 'rank-name', href: profilePath(r.name), 'data-link': true, testid: 'ranking-name' }, r.name),
    mine ? h('span', { class: 'tag tag-me' }, t('ranking.you')) : null,
    q.by === 'xp' ? h('span', { class: `rank-wins rank-xp${r.xp < 0 ? ' rank-xp-neg' : ''}`, testid: 'ranking-xp' }, xpText(r.xp, getLang()))
      : h('span', { class: 'rank-wins', testid: 'ranking-wins' }, t('ranking.wins_n', { n: r.wins })));
  }

  function body() {
    if (data.error && !data.rows.length) {
      return h('div', { class: 'notice notice-warn', role: 'alert', testid: 'ranking-error' },
        h('p', {}, errorText(data.error)),
        h('button', { class: 'btn btn-small', type: 'button', onclick: () => load(0) }, t('ranking.retry')));
    }
    if (data.loading && !data.rows.length) return h('p', { class: 'muted', role: 'status' }, t('loading'));
    if (!data.rows.length) {
      return h('div', { class: 'rank-empty', testid: 'ranking-empty' },
        h('p', {}, t(q.by === 'xp' ? 'ranking.empty_xp' : 'ranking.empty')),
        q.period !== 'all' ? h('a', { class: 'btn btn-small', href: rankingPath({ ...q, period: 'all' }), 'data-link': true },
          t('ranking.see_all')) : null);
    }
    return [
      h('ol', { class: 'rank-list', testid: 'ranking-rows', 'aria-label': t('ranking.title') }, data.rows.map(row)),
      data.more ? h('div', { class: 'row rank-more' }, h('button', {
        class: 'btn', type: 'button', testid: 'ranking-more', disabled: data.loading, onclick: () => load(data.page + 1),
      }, t('ranking.more'))) : null,
      data.error ? h('p', { class: 'form-error', role: 'alert' }, errorText(data.error)) : null,
    ];
  }

  function render() {
    if (destroyed) return;
    const caption = periodCaption(q.period, data.key, getLang());
    document.title = `${t('ranking.title')} · ${t('app.title')}`;
    const s = ctx.session();
    mount(el,
      h('section', { class: 'panel rank-panel' },
        h('div', { class: 'rank-head' },
          h('h1', {}, t('ranking.title')),
          h('p', { class: 'muted rank-intro' }, t(q.by === 'xp' ? 'ranking.intro_xp' : 'ranking.intro'))),
        tabs(t('ranking.scores'), 'ranking-by', SCORES.map((b) => ({
          key: b, text: t(`ranking.by.${b}`), path: rankingPath({ ...q, by: b }), current: b === q.by }))),
        tabs(t('ranking.rulesets'), 'ranking-ruleset', ctx.catalog.rulesets.map(({ name }) => ({
          key: name, text: rulesetLabel(ctx.catalog, name), path: rankingPath({ ...q, ruleset: name }), current: name === q.ruleset }))),
        tabs(t('ranking.categories'), 'ranking-category', CATEGORIES.map((c) => {
          const mark = categoryMark(c);
          return { key: c, text: `${mark.icon} ${mark.text}`, path: rankingPath({ ...q, category: c }), current: c === q.category };
        })),
        tabs(t('ranking.periods'), 'ranking-period', PERIODS.map((p) => ({
          key: p, text: t(`ranking.period.${p}`), path: rankingPath({ ...q, period: p }), current: p === q.period }))),
        h('div', { class: 'rank-caption' },
          h('h2', { testid: 'ranking-caption' }, `${rulesetLabel(ctx.catalog, q.ruleset)} `, categoryBadge(q.category)),
          h('p', { class: 'muted', testid: 'ranking-period-caption' }, t(`ranking.period.${q.period}`), caption ? ` · ${caption}` : '')),
        body(),
        s?.account ? null : h('p', { class: 'muted rank-accounts', testid: 'ranking-accounts-only' }, t('ranking.accounts_only'), ' ',
          h('button', { class: 'btn btn-small btn-accent', type: 'button', onclick: () => ctx.openAccount('register') },
            t('account.register')))));
  }

  load(0);
  return { el, render, destroy() { destroyed = true; document.title = t('app.title'); } };
}
