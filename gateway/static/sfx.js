// The table's sounds played: each name (table/sounds.js) is a few ZzFX parameter arrays
// (ZzFX, MIT, Frank Force: the npm package `zzfx`, copied to /static/vendor/ by `make setup`, a chunk of the build;
// docs/client.md), the calls are also spoken in pt-BR where the browser has a pt-BR voice, and
// the turn vibrates a phone. Browsers let a page make sound only after a gesture: the library is
// loaded at the page's first tap or key (its AudioContext made then), and nothing plays before.
// Every sound asks the device's setting first (sound.js: on/off, volume). Each sound played is
// announced as a `mm-sound` event on window ({name, volume}), which the e2e tests listen to.

import { soundOn, volume } from './sound.js';

const LOUDEST = 0.45; // ZzFX's master volume at 100 % (its own default, .3, is about our default 70 %)

// [delay in ms, ZzFX parameters: volume, randomness, frequency, attack, sustain, release, shape,
// shapeCurve, slide, deltaSlide, pitchJump, pitchJumpTime, repeatTime, noise, modulation,
// bitCrush, delay, sustainVolume, decay, tremolo, filter]
const CALL = [[0, [1, 0, 660, 0.01, 0.07, 0.18, 1, 1, 0, 0, 220, 0.06, 0, 0, 0, 0, 0, 0.8]]];
export const SOUNDS = {
  card: [[0, [0.9, 0.05, 260, 0, 0.01, 0.05, 4, 1.5, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0.5, 0.02, 0, 2400]]],
  draw: [[0, [0.6, 0.1, 700, 0.01, 0.03, 0.1, 4, 1, -30, 0, 0, 0, 0, 3, 0, 0, 0, 0.6, 0, 0, 1800]]],
  shuffle: [[0, [0.5, 0.2, 500, 0, 0.3, 0.08, 4, 1, 0, 0, 0, 0, 0.035, 5, 0, 0, 0, 0.5, 0, 0.6, 2000]]],
  turn: [[0, [0.6, 0, 880, 0.01, 0.05, 0.15, 0, 1]], [130, [0.6, 0, 1318.5, 0.01, 0.05, 0.22, 0, 1]]],
  mau: CALL,
  maumau: CALL,
  last: CALL,
  penalty: [[0, [0.8, 0, 200, 0.01, 0.12, 0.25, 2, 1, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0.7, 0, 0, -900]]],
  round_won: [[0, [0.7, 0, 523.3, 0.01, 0.06, 0.15, 0]], [110, [0.7, 0, 659.3, 0.01, 0.06, 0.15, 0]],
    [220, [0.8, 0, 784, 0.01, 0.12, 0.3, 0]]],
  round_lost: [[0, [0.6, 0, 392, 0.01, 0.08, 0.2, 1]], [160, [0.6, 0, 311.1, 0.01, 0.1, 0.3, 1]]],
  match_won: [[0, [0.7, 0, 523.3, 0.01, 0.06, 0.12, 1]], [120, [0.7, 0, 659.3, 0.01, 0.06, 0.12, 1]],
    [240, [0.7, 0, 784, 0.01, 0.06, 0.12, 1]], [360, [0.9, 0, 1046.5, 0.02, 0.3, 0.5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.8, 0, 0.2]]],
  reaction: [[0, [0.5, 0, 987.8, 0.01, 0.04, 0.12, 0, 1, 0, 0, 493.9, 0.05]]],
  match_lost: [[0, [0.6, 0, 392, 0.01, 0.1, 0.2, 1]], [180, [0.6, 0, 349.2, 0.01, 0.1, 0.2, 1]],
    [360, [0.6, 0, 261.6, 0.02, 0.2, 0.5, 1]]],
};

/** The words of the calls, spoken in pt-BR whatever the page's language: they are the game's words. */
export const CALL_WORDS = { mau: 'Mau!', maumau: 'Mau-Mau!', last: 'Última!' };
const BUZZ = [120, 60, 120]; // ms: the turn, on a phone

let zzfx = null; // the library's module, once a gesture loaded it
let loading = null;

/** The voice to speak the calls with: a Brazilian one, else any Portuguese; null when there is none. */
export function pickVoice(voices) {
  const pt = (voices || []).filter((v) => /^pt([-_]|$)/i.test(v.lang || ''));
  return pt.find((v) => /^pt[-_]BR$/i.test(v.lang)) || pt[0] || null;
}

function load() {
  loading ||= import('./vendor/zzfx.js').then((m) => { zzfx = m; }).catch(() => { loading = null; }); // a missing file: silent
}

/**
 * From the page's first tap or key on, the library is there; a later gesture wakes its audio (a tab
 * put to sleep, Safari's context made outside the tap), from inside the gesture as browsers ask.
 */
export function unlockSfxOnGesture() {
  const wake = () => {
    const ctx = zzfx?.ZZFX.audioContext;
    if (!ctx) load();
    else if (ctx.state === 'suspended') ctx.resume().catch(() => { /* stays silent */ });
  };
  for (const type of ['pointerdown', 'keydown']) window.addEventListener(type, wake, { capture: true, passive: true });
}

function say(word) {
  const synth = globalThis.speechSynthesis;
  const voice = synth && typeof SpeechSynthesisUtterance === 'function' && pickVoice(synth.getVoices());
  if (!voice) return false; // no Portuguese voice here: the chime alone
  const u = new SpeechSynthesisUtterance(word);
  u.voice = voice;
  u.lang = voice.lang;
  u.volume = volume() / 100;
  synth.speak(u);
  return true;
}

/** Play one of SOUNDS (when the sound is on and a gesture came); whether it was played. */
export function playSound(name) {
  const notes = SOUNDS[name];
  // a context not running yet (or asleep) would keep the notes and play them late, all at once
  if (!notes || !soundOn() || zzfx?.ZZFX.audioContext.state !== 'running') return false;
  const level = volume();
  zzfx.ZZFX.volume = LOUDEST * level / 100;
  for (const [at, params] of notes) {
    if (at) setTimeout(() => zzfx.zzfx(...params), at);
    else zzfx.zzfx(...params);
  }
  if (CALL_WORDS[name]) say(CALL_WORDS[name]);
  if (name === 'turn') globalThis.navigator?.vibrate?.(BUZZ);
  window.dispatchEvent(new CustomEvent('mm-sound', { detail: { name, volume: level } }));
  return true;
}
