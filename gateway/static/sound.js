// The sound setting (the pause menu's "Som", the top bar's 🔊), kept on this device. Every sound
// asks soundOn() first, so a player who turned it off hears nothing (the beep when a table turns
// to the player: alerts.js).

const SOUND_KEY = 'mm.sound';
let here = null; // this page's choice, when the browser keeps nothing (private mode)
const listeners = new Set();

export function soundOn() {
  if (here !== null) return here;
  try { return globalThis.localStorage?.getItem(SOUND_KEY) !== 'off'; } catch { return true; }
}

export function setSound(on) {
  here = !!on;
  try { globalThis.localStorage?.setItem(SOUND_KEY, on ? 'on' : 'off'); } catch { /* this page only */ }
  for (const fn of listeners) fn(here);
}

/** Calls `fn` when the setting changes on this page (the top bar's button follows the pause menu's). */
export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
