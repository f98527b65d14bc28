// The players' avatars: a small set drawn by the client (SVG), named by short ids (the accounts
// service keeps the id, [a-z0-9-]{1,32}: docs/accounts.md). An account without one, or with an
// id this client does not draw, gets a plain silhouette in a colour of its name.
// No style attributes (the page's CSP forbids them): presentation attributes only.
// Pure strings, unit-tested in node; avatarEl wraps one for the screens.

import { h } from './dom.js';

const INK = '#1d2630';
const star = (x, y, r, fill) => {
  const pts = [];
  for (let i = 0; i < 10; i += 1) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 ? r * 0.45 : r;
    pts.push(`${(x + d * Math.cos(a)).toFixed(1)},${(y + d * Math.sin(a)).toFixed(1)}`);
  }
  return `<polygon points="${pts.join(' ')}" fill="${fill}"/>`;
};
const rays = (n, r1, r2, stroke) => Array.from({ length: n }, (_, i) => {
  const a = (2 * Math.PI * i) / n;
  const p = (r) => [(32 + r * Math.cos(a)).toFixed(1), (32 + r * Math.sin(a)).toFixed(1)];
  const [x1, y1] = p(r1);
  const [x2, y2] = p(r2);
  return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${stroke}" stroke-width="3.5" stroke-linecap="round"/>`;
}).join('');

/** The set, in the picker's order: id, background, drawing (a 64×64 box). */
export const AVATARS = [
  { id: 'copas', bg: '#fde2e4', art: '<path d="M32 49C13 36 14 19 24.5 19c4 0 6.5 2.6 7.5 5.6 1-3 3.5-5.6 7.5-5.6C50 19 51 36 32 49z" fill="#d62839"/>' },
  { id: 'ouros', bg: '#fff0d6', art: '<path d="M32 13l14 19-14 19-14-19z" fill="#e4572e"/>' },
  { id: 'paus', bg: '#dff3e7', art: `<circle cx="32" cy="22" r="8.5" fill="${INK}"/><circle cx="22.5" cy="35" r="8.5" fill="${INK}"/>`
    + `<circle cx="41.5" cy="35" r="8.5" fill="${INK}"/><path d="M30 33l-3 17h10l-3-17z" fill="${INK}"/>` },
  { id: 'espadas', bg: '#e3e8f4', art: '<path d="M32 13c-6 10-16 14-16 23 0 7 8 10 14 5l-3 9h10l-3-9c6 5 14 2 14-5 0-9-10-13-16-23z" fill="#233a6b"/>' },
  { id: 'gato', bg: '#f6e7c8', art: '<path d="M15 28l4-17 11 9zM49 28l-4-17-11 9z" fill="#8a5a2b"/><circle cx="32" cy="35" r="17" fill="#b07a3f"/>'
    + `<ellipse cx="25" cy="33" rx="2.6" ry="3.6" fill="${INK}"/><ellipse cx="39" cy="33" rx="2.6" ry="3.6" fill="${INK}"/>`
    + '<path d="M29 39h6l-3 3z" fill="#f2a0a8"/><path d="M12 38l12 2M12 44l12-2M52 38l-12 2M52 44l-12-2" stroke="#5a3a1a" stroke-width="1.5"/>' },
  { id: 'coruja', bg: '#e4ecd9', art: '<path d="M16 22l5-9 6 7M48 22l-5-9-6 7" fill="#6b4a2f"/><ellipse cx="32" cy="37" rx="18" ry="19" fill="#7d5a3a"/>'
    + '<ellipse cx="32" cy="44" rx="10" ry="10" fill="#c9a97f"/><circle cx="24.5" cy="31" r="7" fill="#fff"/><circle cx="39.5" cy="31" r="7" fill="#fff"/>'
    + `<circle cx="24.5" cy="31" r="3.2" fill="${INK}"/><circle cx="39.5" cy="31" r="3.2" fill="${INK}"/><path d="M29 37h6l-3 6z" fill="#f5b82e"/>` },
  { id: 'raposa', bg: '#fde6d2', art: '<path d="M13 12l13 11h12l13-11-2 21-17 19-17-19z" fill="#e8742a"/>'
    + '<path d="M15 33l17 19-9-17zM49 33l-17 19 9-17z" fill="#fff"/>'
    + `<circle cx="25" cy="30" r="2.6" fill="${INK}"/><circle cx="39" cy="30" r="2.6" fill="${INK}"/><circle cx="32" cy="48" r="2.8" fill="${INK}"/>` },
  { id: 'sapo', bg: '#d8f0f5', art: '<circle cx="22" cy="25" r="8" fill="#3e9b4f"/><circle cx="42" cy="25" r="8" fill="#3e9b4f"/>'
    + '<ellipse cx="32" cy="39" rx="21" ry="14" fill="#3e9b4f"/><circle cx="22" cy="24" r="4.6" fill="#fff"/><circle cx="42" cy="24" r="4.6" fill="#fff"/>'
    + `<circle cx="22" cy="24" r="2.2" fill="${INK}"/><circle cx="42" cy="24" r="2.2" fill="${INK}"/>`
    + '<path d="M21 41q11 8 22 0" fill="none" stroke="#1f5a2a" stroke-width="2.5" stroke-linecap="round"/>' },
  { id: 'sol', bg: '#fff5c2', art: `${rays(8, 15, 24, '#f29e0c')}<circle cx="32" cy="32" r="11" fill="#f5b82e"/>` },
  { id: 'lua', bg: '#23304d', art: '<path d="M37 15a17 17 0 1 0 12 27 14 14 0 1 1-12-27z" fill="#f4e3a1"/>'
    + `${star(17, 19, 3.5, '#fff')}${star(46, 16, 2.5, '#fff')}${star(50, 49, 2, '#fff')}` },
  { id: 'coroa', bg: '#efe3f7', art: '<path d="M14 44l2-22 9 10 7-14 7 14 9-10 2 22z" fill="#f5b82e" stroke="#c98f0a" stroke-width="1.5"/>'
    + '<rect x="14" y="44" width="36" height="6" rx="1.5" fill="#c98f0a"/><circle cx="32" cy="37" r="3" fill="#d62839"/>'
    + '<circle cx="22" cy="39" r="2.2" fill="#1d6fe0"/><circle cx="42" cy="39" r="2.2" fill="#1d6fe0"/>' },
  { id: 'peixe', bg: '#d6ecff', art: '<path d="M43 32l12-10v20z" fill="#2a7bc4"/><ellipse cx="29" cy="32" rx="16" ry="11" fill="#3c97e0"/>'
    + `<circle cx="22" cy="29" r="2.4" fill="${INK}"/><path d="M30 24q4 8 0 16" fill="none" stroke="#2a7bc4" stroke-width="2"/>` },
];

export const AVATAR_IDS = AVATARS.map((a) => a.id);
const BY_ID = new Map(AVATARS.map((a) => [a.id, a]));
const PLAIN = ['#0f7a4a', '#1d6fe0', '#c62828', '#8e44ad', '#e65100', '#00838f', '#6d4c41', '#37474f'];

/** Whether `id` is one of the avatars this client draws. */
export function isAvatar(id) { return BY_ID.has(id); }

/** A colour for a name (the same name, the same colour): the plain avatar's. */
export function nameColour(name = '') {
  let hash = 0;
  for (const ch of name.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return PLAIN[hash % PLAIN.length];
}

const PERSON = '<circle cx="32" cy="25" r="11" fill="#fff" fill-opacity=".9"/>'
  + '<path d="M12 56c2-12 10-17 20-17s18 5 20 17" fill="#fff" fill-opacity=".9"/>';
// a bot is seen as one at a glance, around the felt as in the lists: a robot's head, not a person's
const ROBOT = '<path d="M32 21v-6" stroke="#fff" stroke-width="3" stroke-linecap="round"/><circle cx="32" cy="13" r="3.5" fill="#fff"/>'
  + '<rect x="16" y="21" width="32" height="26" rx="7" fill="#fff" fill-opacity=".92"/>'
  + '<rect x="10" y="29" width="5" height="10" rx="2" fill="#fff" fill-opacity=".92"/>'
  + '<rect x="49" y="29" width="5" height="10" rx="2" fill="#fff" fill-opacity=".92"/>'
  + `<circle cx="25" cy="32" r="4" fill="${INK}"/><circle cx="39" cy="32" r="4" fill="${INK}"/>`
  + `<rect x="24" y="40" width="16" height="3" rx="1.5" fill="${INK}"/>`;

/** The avatar `id` as SVG markup; for '' or an unknown id, a silhouette (a robot's for a `bot`) in a colour of `name`. */
export function avatarSVG(id, name = '', bot = false) {
  const a = BY_ID.get(id);
  const body = a
    ? `<circle cx="32" cy="32" r="32" fill="${a.bg}"/>${a.art}`
    : `<circle cx="32" cy="32" r="32" fill="${nameColour(name)}"/>${bot ? ROBOT : PERSON}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" focusable="false" aria-hidden="true">`
    + `${body}</svg>`;
}

/** An avatar on screen (decorative: the name is always written beside it). `size`: 'sm', 'md' or 'lg'. */
export function avatarEl(id, name, size = 'sm', bot = false) {
  return h('span', { class: `avatar avatar-${size}`, 'aria-hidden': 'true', html: avatarSVG(id, name, bot),
    dataset: { avatar: isAvatar(id) ? id : bot ? 'robot' : '' } });
}
