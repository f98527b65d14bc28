// Every word a player reads: pt-BR first (the players' words, /work/shared/GLOSSARY.md), English second.
// The words are in i18n/<lang>.js; this is the lookup, the current language and the formats.
// Pure module: no DOM access except through setLang/applyLang, so it can be unit-tested in node.

import { pt } from './i18n/pt-BR.js';

export const LANGS = ['pt-BR', 'en'];
const LANG_KEY = 'mm.lang';

/** The words of each language loaded so far: pt-BR always; English fetched when first chosen (a chunk of
 * its own: the first screen carries one language's words, not both). */
export const STRINGS = { 'pt-BR': pt };
const LOADERS = { en: () => import('./i18n/en.js').then((m) => m.en) };

let current = 'pt-BR';
const listeners = new Set();

function storage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

/** Have the words of `lang` at hand (fetched once). */
export async function ensureLang(lang) {
  if (!STRINGS[lang] && LOADERS[lang]) STRINGS[lang] = await LOADERS[lang]();
}

/** The language the device chose before: pt-BR at once, English as soon as its words came (listeners hear it). */
export function initLang() {
  const saved = storage()?.getItem(LANG_KEY);
  current = 'pt-BR';
  applyLang();
  if (LANGS.includes(saved) && saved !== current) setLang(saved);
  return current;
}

export function getLang() { return current; }

/** Switch to `lang` (at once when its words are here, else once they came); the promise settles when it has. */
export function setLang(lang) {
  if (!LANGS.includes(lang) || lang === current) return Promise.resolve();
  if (!STRINGS[lang]) return ensureLang(lang).then(() => setLang(lang));
  current = lang;
  storage()?.setItem(LANG_KEY, lang);
  applyLang();
  for (const fn of listeners) fn(lang);
  return Promise.resolve();
}

export function toggleLang() { return setLang(current === 'pt-BR' ? 'en' : 'pt-BR'); }

export function onLangChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

function applyLang() {
  if (globalThis.document) {
    document.documentElement.lang = current;
    document.title = t('app.title');
  }
}

/** The text for `key` in the current language (pt-BR when the English table lacks it). */
export function t(key, vars = {}, lang = current) {
  const entry = STRINGS[lang]?.[key] ?? pt[key];
  if (entry === undefined) return key;
  return typeof entry === 'function' ? entry(vars) : entry;
}

export function has(key) { return key in pt; }

/** Of words given per language ({'pt-BR': …, en: …}: the gateway's labels), those of the current one. */
export function pick(labels, lang = current) {
  return labels?.[lang] ?? labels?.['pt-BR'] ?? '';
}

/** A refusal code in the player's words. */
export function errorText(code, lang = current) {
  return has(`err.${code}`) ? t(`err.${code}`, {}, lang) : t('err.unknown', { code }, lang);
}

export const SUIT_SYMBOL = { C: '♣', D: '♦', H: '♥', S: '♠' };
const COLOR_LETTERS = 'RGBY';

function isColourName(name) {
  return /^(W|W\+4|[RGBY](\d|skip|rev|\+2))$/.test(name);
}

/** A card in a few characters, as the log shows it: "7♥", "J♠", "7 vermelho", "curinga +4". */
export function cardShort(name, lang = current) {
  if (!name) return '';
  if (isColourName(name)) {
    if (name === 'W' || name === 'W+4') return t(`card.${name}`, {}, lang);
    const color = t(`color.${name[0]}`, {}, lang);
    const v = name.slice(1);
    const value = /^\d$/.test(v) ? v : t(`card.${v}`, {}, lang);
    return t('card.colour', { value, color }, lang);
  }
  const suit = name.slice(-1);
  return name.slice(0, -1) + (SUIT_SYMBOL[suit] || suit);
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A card's spoken name (the card buttons' aria-label): "Valete de copas", "Sete de espadas", "Curinga +4". */
export function cardLabel(name, lang = current) {
  if (!name) return capital(t('card.back', {}, lang));
  const number = (n) => t(`num.${n}`, {}, lang);
  if (isColourName(name)) {
    if (name === 'W' || name === 'W+4') return capital(t(`card.${name}`, {}, lang));
    const v = name.slice(1);
    const value = /^\d$/.test(v) ? number(v) : t(`card.${v}`, {}, lang);
    return capital(t('card.colour', { value, color: t(`color.${name[0]}`, {}, lang) }, lang));
  }
  const rank = name.slice(0, -1);
  const suit = t(`suit.${name.slice(-1)}`, {}, lang);
  return capital(t('card.of', { rank: 'JQKA'.includes(rank) ? t(`rank.${rank}`, {}, lang) : number(rank), suit }, lang));
}

/** A chosen suit or colour letter in words with its symbol: "♥ copas", "azul". */
export function suitText(letter, lang = current) {
  if (!letter) return '';
  if (COLOR_LETTERS.includes(letter)) return t(`color.${letter}`, {}, lang);
  return `${SUIT_SYMBOL[letter] || ''} ${t(`suit.${letter}`, {}, lang)}`.trim();
}

/** "há 5 min" from an ISO time or milliseconds. */
export function timeAgo(when, now = Date.now(), lang = current) {
  const ms = typeof when === 'number' ? when : Date.parse(when);
  if (!Number.isFinite(ms)) return '';
  const min = Math.max(0, Math.floor((now - ms) / 60000));
  if (min < 1) return t('ago.now', {}, lang);
  if (min < 60) return t('ago.min', { n: min }, lang);
  const h = Math.floor(min / 60);
  if (h < 24) return t('ago.hour', { n: h }, lang);
  return t('ago.day', { n: Math.floor(h / 24) }, lang);
}

/** "Ana, Tito e Luna" / "Ana, Tito and Luna". */
export function listNames(names, lang = current) {
  if (names.length <= 1) return names.join('');
  const and = lang === 'en' ? ' and ' : ' e ';
  return names.slice(0, -1).join(', ') + and + names[names.length - 1];
}
