// The rankings' and profiles' pure part: the addresses (/ranking?regra=&modo=&periodo=,
// /jogador/<name>), the words for a period, a category, a match of the history. No DOM: unit-tested in node.

import { listNames, t } from './i18n.js';

export const CATEGORIES = ['official', 'training'];
export const PERIODS = ['today', 'week', 'month', 'season', 'all'];
// the addresses speak Portuguese, like the players (`/?regra=` of the Aprenda pages)
const CATEGORY_WORD = { official: 'oficial', training: 'treino' };
const PERIOD_WORD = { today: 'hoje', week: 'semana', month: 'mes', season: 'temporada', all: 'historico' };
const CATEGORY_ICON = { official: '👥', training: '🤖' };

const fromWord = (words, word) => Object.keys(words).find((k) => words[k] === word) || null;

/** What a ranking address asks for: {ruleset, category, period}, each valid (the defaults otherwise). */
export function parseRankingSearch(search, rulesetIds) {
  const q = new URLSearchParams(search);
  return {
    ruleset: rulesetIds.includes(q.get('regra')) ? q.get('regra') : rulesetIds[0],
    category: fromWord(CATEGORY_WORD, q.get('modo')) || 'official',
    period: fromWord(PERIOD_WORD, q.get('periodo')) || 'today',
  };
}

/** The address of a ranking (`by` 'xp': the XP ranking, `&por=xp`; wins need no word). */
export function rankingPath({ ruleset, category, period, by = 'wins' }) {
  const q = new URLSearchParams({ regra: ruleset, modo: CATEGORY_WORD[category], periodo: PERIOD_WORD[period] });
  if (by === 'xp') q.set('por', 'xp');
  return `/ranking?${q}`;
}

// what a ranking counts: wins (seed 004) or the XP of competitive tables (seed 002, ⚔)
export const SCORES = ['wins', 'xp'];
const SCORE_WORD = { wins: 'vitorias', xp: 'xp' };

/** What a ranking address counts: 'wins' (the default) or 'xp' (`por=xp`). */
export function parseRankingBy(search) {
  return fromWord(SCORE_WORD, new URLSearchParams(search).get('por')) || 'wins';
}

/** The address of a player's profile. */
export function profilePath(name) {
  return `/jogador/${encodeURIComponent(name)}`;
}

/** The name in a profile's address, or null when `pathname` is no profile's. */
export function parseProfilePath(pathname) {
  const m = /^\/jogador\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  try {
    const name = decodeURIComponent(m[1]);
    return name.trim() ? name : null;
  } catch { return null; }
}

/** Whether two spellings are one account's name (the accounts service folds case and accents). */
export function sameName(a, b) {
  const fold = (s) => (s || '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
  return fold(a) !== '' && fold(a) === fold(b);
}

/** "👥 OFICIAL" / "🤖 TREINO" (null for anything else). */
export function categoryMark(category, lang) {
  if (!CATEGORY_ICON[category]) return null;
  return { icon: CATEGORY_ICON[category], text: t(`category.${category}`, {}, lang) };
}

/** The period a ranking shows, in words, from the gateway's key: "1 de dezembro de 2026", "semana 49 de 2026", … */
export function periodCaption(period, key, lang) {
  const locale = lang === 'en' ? 'en-GB' : 'pt-BR';
  /** @param {number} y @param {number} m @param {Intl.DateTimeFormatOptions} [opts] */
  const date = (y, m, d = 1, opts = { month: 'long', year: 'numeric' }) => new Intl.DateTimeFormat(locale,
    { ...opts, timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
  let m;
  if (period === 'today' && (m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key || ''))) {
    return date(+m[1], +m[2], +m[3], { day: 'numeric', month: 'long', year: 'numeric' });
  }
  if (period === 'week' && (m = /^(\d{4})-W(\d{2})$/.exec(key || ''))) return t('ranking.week_of', { n: +m[2], y: m[1] }, lang);
  if (period === 'month' && (m = /^(\d{4})-(\d{2})$/.exec(key || ''))) return date(+m[1], +m[2]);
  if (period === 'season' && (m = /^(\d{4})-T([1-4])$/.exec(key || ''))) {
    const q = +m[2];
    const first = date(+m[1], q * 3 - 2, 1, { month: 'short' }).replace('.', '');
    const last = date(+m[1], q * 3, 1, { month: 'short' }).replace('.', '');
    return t('ranking.season_of', { n: q, y: m[1], from: first, to: last }, lang);
  }
  if (period === 'all') return t('ranking.all_time', {}, lang);
  return '';
}

/** A share of wins as a percentage: "67%" (whole numbers). */
export function percent(rate, lang) {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'pt-BR', { style: 'percent', maximumFractionDigits: 0 })
    .format(Number(rate) || 0);
}

/** "desde dezembro de 2026" from the account's ISO registration time. */
export function sinceText(iso, lang) {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const when = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'pt-BR', { month: 'long', year: 'numeric' }).format(new Date(ms));
  return t('profile.since', { when }, lang);
}

/**
 * One match of a profile's history in words: {result, opponents, ended} where `result` is the
 * key 'won' or 'lost', `opponents` the other seats' names ("Ana e Tito (robô)") and `ended` how
 * the match ended, said of this player (who gave up, whose absence ended it).
 */
export function matchSummary(m, lang) {
  const others = (m.players || []).filter((p) => p.seat !== m.seat)
    .map((p) => (p.bot ? t('profile.bot_name', { name: p.name }, lang) : p.name));
  const reason = ['played', 'gave_up', 'absence', 'expired'].includes(m.end_reason) ? m.end_reason : 'played';
  const whose = reason === 'gave_up' || reason === 'absence' ? (m.left ? '_self' : '_other') : '';
  return {
    result: m.won ? 'won' : 'lost',
    opponents: others.length ? t('profile.against', { names: listNames(others, lang) }, lang) : '',
    ended: t(`profile.end.${reason}${whose}`, {}, lang),
  };
}
