// The sound setting (the pause menu's "Som"), kept on this device. The client plays no sound
// yet: any sound added later asks soundOn() first, so a player who turned it off hears nothing.

const SOUND_KEY = 'mm.sound';
let here = null; // this page's choice, when the browser keeps nothing (private mode)

export function soundOn() {
  if (here !== null) return here;
  try { return globalThis.localStorage?.getItem(SOUND_KEY) !== 'off'; } catch { return true; }
}

export function setSound(on) {
  here = !!on;
  try { globalThis.localStorage?.setItem(SOUND_KEY, on ? 'on' : 'off'); } catch { /* this page only */ }
}
