// How the tab tells the player that tables wait for them: the title ("(2) Sua vez! · …"), a badge
// on the tab's icon (drawn on a canvas), a short beep (WebAudio, only when sound is on) and a
// browser notification (only when the tab is hidden and the player asked for them).

import { t } from './i18n.js';
import { soundOn, volume } from './sound.js';
import { badgeText, bareTitle, titleWith } from './turns.js';

const NOTIFY_KEY = 'mm.notify';

function ls() { try { return globalThis.localStorage || null; } catch { return null; } }

// -- the title and the icon

let waiting = 0;
let plainIcon = null; // the page's own icon (href), put back when nothing waits
let observing = false;

function applyTitle() {
  const want = titleWith(bareTitle(document.title), waiting, t('turn.title', { n: waiting }));
  if (document.title !== want) document.title = want;
}

/** Keep the count in front of whatever title the screens set (they set document.title as they please). */
function observeTitle() {
  if (observing) return;
  let el = document.querySelector('head > title');
  if (!el) {
    el = document.createElement('title');
    document.head.append(el);
  }
  new MutationObserver(applyTitle).observe(el, { childList: true, characterData: true, subtree: true });
  observing = true;
}

function drawIcon(n) {
  const c = document.createElement('canvas');
  c.width = 64;
  c.height = 64;
  const g = c.getContext('2d');
  if (!g) return null;
  g.fillStyle = '#0b5d3b'; // the felt
  g.beginPath();
  g.moveTo(12, 4); g.lineTo(52, 4); g.quadraticCurveTo(60, 4, 60, 12); g.lineTo(60, 52);
  g.quadraticCurveTo(60, 60, 52, 60); g.lineTo(12, 60); g.quadraticCurveTo(4, 60, 4, 52); g.lineTo(4, 12);
  g.quadraticCurveTo(4, 4, 12, 4);
  g.fill();
  g.fillStyle = '#f5b82e';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.font = 'bold 38px sans-serif';
  g.fillText('♠', 24, 38);
  g.fillStyle = '#c62828'; // the badge
  g.beginPath();
  g.arc(43, 21, 20, 0, 2 * Math.PI);
  g.fill();
  g.fillStyle = '#fff';
  g.font = `bold ${n > 9 ? 22 : 28}px sans-serif`;
  g.fillText(badgeText(n), 43, 23);
  return c.toDataURL('image/png');
}

function applyIcon() {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  if (plainIcon === null) plainIcon = link.getAttribute('href') || 'data:,';
  const href = waiting > 0 ? drawIcon(waiting) : plainIcon;
  if (href && link.getAttribute('href') !== href) link.setAttribute('href', href);
  link.dataset.waiting = String(waiting);
}

/** How many tables wait for the player now: the title and the icon say it. */
export function showWaiting(n) {
  observeTitle();
  if (n === waiting && plainIcon !== null) return;
  waiting = n;
  applyTitle();
  applyIcon();
}

/** The title again in the current language. */
export function retitle() { if (observing) applyTitle(); }

// -- the beep

let audio = null;

/** Browsers let a page make sound only after a gesture: the first tap or key makes (or wakes) the audio. */
export function unlockAudioOnGesture() {
  const unlock = () => {
    try {
      if (!audio) {
        const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
        if (Ctx) audio = new Ctx();
      } else if (audio.state === 'suspended') {
        audio.resume().catch(() => { /* stays silent */ });
      }
    } catch { audio = null; }
  };
  for (const type of ['pointerdown', 'keydown']) window.addEventListener(type, unlock, { capture: true, passive: true });
}

/** Two short notes, when the sound is on (the pause menu's "Som", the top bar's 🔊), at its volume. Whether it sounded. */
export function beep() {
  if (!soundOn() || !audio || audio.state !== 'running') return false;
  const peak = Math.max(0.0002, 0.25 * volume() / 100);
  try {
    const now = audio.currentTime;
    for (const [freq, at] of [[880, 0], [1318.5, 0.15]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(peak, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.13);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.14);
    }
    return true;
  } catch { return false; }
}

// -- browser notifications

export function notifySupported() {
  return typeof globalThis.Notification === 'function';
}

/** 'granted', 'denied', 'default' or 'unsupported'. */
export function notifyPermission() {
  return notifySupported() ? Notification.permission : 'unsupported';
}

/** Whether the player asked for notifications on this device (and the browser allows them). */
export function notifyOn() {
  return notifyPermission() === 'granted' && ls()?.getItem(NOTIFY_KEY) === 'on';
}

/** "Avisar quando for minha vez": asks the browser's permission (call it from a tap). Whether it is on now. */
export async function setNotify(on) {
  if (!on) {
    ls()?.setItem(NOTIFY_KEY, 'off');
    return false;
  }
  if (!notifySupported()) return false;
  let permission = Notification.permission;
  if (permission === 'default') {
    try { permission = await Notification.requestPermission(); } catch { permission = 'denied'; }
  }
  ls()?.setItem(NOTIFY_KEY, permission === 'granted' ? 'on' : 'off');
  return permission === 'granted';
}

/** A notification (one per table: a later one replaces it); a click brings the tab and calls `onClick`. */
export function notify(title, body, tag, onClick) {
  if (!notifyOn()) return false;
  try {
    // renotify: a newer turn sounds again though its tag is the same (not yet in TypeScript's DOM types)
    const options = /** @type {NotificationOptions} */ ({ body, tag, renotify: true, lang: document.documentElement.lang || 'pt-BR' });
    const n = new Notification(title, options);
    n.onclick = () => {
      try { window.focus(); } catch { /* the browser decides */ }
      onClick?.();
      n.close();
    };
    return true;
  } catch {
    return false; // Chrome on Android only shows them through a service worker: the title and the beep remain
  }
}
