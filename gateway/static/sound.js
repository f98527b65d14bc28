// The sound settings (the pause menu's "Som" and its volume, the top bar's 🔊), kept on this device.
// Every sound asks soundOn() first, so a player who turned it off hears nothing (the table's
// sounds: sfx.js; the beep when a table turns to the player: alerts.js), and plays at volume().

const SOUND_KEY = 'mm.sound';
const VOLUME_KEY = 'mm.volume';
export const DEFAULT_VOLUME = 70; // percent
let here = null; // this page's choice, when the browser keeps nothing (private mode)
let hereVolume = null;
const listeners = new Set();

function stored(key) {
  try { return globalThis.localStorage?.getItem(key) ?? null; } catch { return null; }
}

function store(key, value) {
  try { globalThis.localStorage?.setItem(key, value); } catch { /* this page only */ }
}

export function soundOn() {
  if (here !== null) return here;
  return stored(SOUND_KEY) !== 'off';
}

export function setSound(on) {
  here = !!on;
  store(SOUND_KEY, on ? 'on' : 'off');
  for (const fn of listeners) fn(here);
}

/**
 * The volume in percent (0–100) as the device keeps it; anything unreadable is the default.
 *
 * parseVolume('35') → 35, parseVolume('loud') → 70, parseVolume('250') → 100
 */
export function parseVolume(raw) {
  if (raw === null || raw === undefined || raw === '') return DEFAULT_VOLUME;
  const n = Math.round(Number(raw));
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : DEFAULT_VOLUME;
}

/** The volume in percent, 0–100 (the pause menu's slider). */
export function volume() {
  return hereVolume ?? parseVolume(stored(VOLUME_KEY));
}

export function setVolume(percent) {
  hereVolume = parseVolume(percent);
  store(VOLUME_KEY, String(hereVolume));
  for (const fn of listeners) fn(soundOn());
}

/** Calls `fn` when a setting changes on this page (the top bar's button follows the pause menu's). */
export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
