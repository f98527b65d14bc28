// Cards drawn as SVG, in code: French cards (rank + suit), colour-deck cards, backs, deck designs;
// the court cards' figures are pictures (Adrian Kennard's, CC0: docs/client.md) fetched only when a
// J, Q or K is drawn, and a special card carries what it does ("+2", "Pula a vez") from the catalog.
// Pure module (returns markup strings), so it can be unit-tested in node.

export const DESIGNS = {
  classic: {
    face: '#fffdf7', edge: '#b9b2a0', ink: { C: '#1b1b1b', S: '#1b1b1b', H: '#c62828', D: '#c62828' },
    back: '#1f4fa3', backInk: '#dfe8fb', emblem: '#f5c542', court: '#f3ead2',
  },
  fourcolor: {
    face: '#ffffff', edge: '#b0b7c0', ink: { C: '#1e7b34', S: '#1b1b1b', H: '#c62828', D: '#1559b5' },
    back: '#1e7b34', backInk: '#d8f0dc', emblem: '#ffffff', court: '#eef3f7',
  },
  night: {
    face: '#1d2433', edge: '#4a5775', ink: { C: '#e8ecf5', S: '#e8ecf5', H: '#ff7b8a', D: '#ff7b8a' },
    back: '#3b1f5c', backInk: '#b79be0', emblem: '#f2c14e', court: '#2a3347',
  },
  tropical: {
    face: '#fff6e0', edge: '#d9b97a', ink: { C: '#00564a', S: '#00564a', H: '#d84315', D: '#d84315' },
    back: '#e8620c', backInk: '#ffe0b2', emblem: '#00564a', court: '#fde7b8',
  },
};
export const DESIGN_IDS = Object.keys(DESIGNS);
export const DEFAULT_DESIGN = 'classic';

/** Where the court cards' figures are served (`make setup` writes them: tools/court-figures.mjs). */
export const FIGURES = '/static/vendor/cards/';
let figuresShown = false;

/** From now on court cards carry their figure: called once the page's first screen has loaded (app.js),
 * so the pictures never compete with what the first screen needs. */
export function showFigures() { figuresShown = true; }

export const COLOURS = { R: '#d7263d', G: '#22a04b', B: '#1e6fd0', Y: '#f2b705' };

/** What a card name means: {family:'french', rank, suit} or {family:'colour', colour, value} (colour null for wilds). */
export function parseCard(name) {
  if (typeof name !== 'string') return null;
  if (name === 'W' || name === 'W+4') return { family: 'colour', colour: null, value: name };
  let m = /^([RGBY])(\d|skip|rev|\+2)$/.exec(name);
  if (m) return { family: 'colour', colour: m[1], value: m[2] };
  m = /^(10|[2-9JQKA])([CDHS])$/.exec(name);
  if (m) return { family: 'french', rank: m[1], suit: m[2] };
  return null;
}

/** A card's kind as the catalog's `effects` name it: its French rank ("7", "J") or its colour-card value ("+2", "W+4"). */
export function cardKind(name) {
  const c = parseCard(name);
  if (!c) return null;
  return c.family === 'french' ? c.rank : c.value;
}

export function isRed(name) {
  const c = parseCard(name);
  return !!c && c.family === 'french' && (c.suit === 'H' || c.suit === 'D');
}

// Suit shapes in a 100×100 box, drawn as paths (no font needed).
export const SUIT_PATHS = {
  H: 'M50 92C22 68 4 51 4 31C4 15 16 4 30 4C40 4 46 10 50 19C54 10 60 4 70 4C84 4 96 15 96 31C96 51 78 68 50 92Z',
  D: 'M50 2L88 50L50 98L12 50Z',
  S: 'M50 4C80 30 96 44 96 61C96 75 86 83 74 83C65 83 58 79 54 72C56 83 61 90 69 96H31C39 90 44 83 46 72C42 79 35 83 26 83C14 83 4 75 4 61C4 44 20 30 50 4Z',
  C: 'M50 6A21 21 0 0 1 68 38A21 21 0 1 1 55 74C57 84 62 91 69 96H31C38 91 43 84 45 74A21 21 0 1 1 32 38A21 21 0 0 1 50 6Z',
};

function suitPath(suit, x, y, size, fill) {
  const s = size / 100;
  return `<path d="${SUIT_PATHS[suit]}" fill="${fill}" transform="translate(${(x - size / 2).toFixed(2)} ${(y - size / 2).toFixed(2)}) scale(${s.toFixed(4)})"/>`;
}

const FONT = 'font-family="Georgia, \'DejaVu Serif\', serif" font-weight="700"';
const SANS = 'font-family="system-ui, \'DejaVu Sans\', Arial, sans-serif" font-weight="800"';

function svgOpen(extra = '') {
  return `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false"${extra}>`;
}

// Pip layouts for number cards: [x, y] in the 100×140 card, rotated pips below the middle.
const PIPS = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[32, 30], [68, 30], [32, 110], [68, 110]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110], [68, 110]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110], [68, 110]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110], [68, 110]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90], [32, 110], [68, 110]],
  9: [[32, 28], [68, 28], [32, 55], [68, 55], [50, 70], [32, 85], [68, 85], [32, 112], [68, 112]],
  10: [[32, 28], [68, 28], [50, 42], [32, 55], [68, 55], [32, 85], [68, 85], [50, 98], [32, 112], [68, 112]],
};

function frenchFace(card, d) {
  const ink = d.ink[card.suit];
  const corner = (flip) => {
    const g = `<text x="11" y="22" font-size="${card.rank === '10' ? 17 : 20}" text-anchor="middle" ${FONT} fill="${ink}">${card.rank}</text>`
      + suitPath(card.suit, 11, 33, 13, ink);
    return flip ? `<g transform="rotate(180 50 70)">${g}</g>` : g;
  };
  let centre;
  if (card.rank === 'A') {
    centre = suitPath(card.suit, 50, 70, 46, ink);
  } else if ('JQK'.includes(card.rank)) {
    // the letter until the figure has come (and where it cannot)
    centre = `<rect x="19" y="21" width="62" height="98" rx="3" fill="${d.court}" stroke="${ink}" stroke-width="1.5"/>`
      + `<text x="50" y="82" font-size="40" text-anchor="middle" ${FONT} fill="${ink}">${card.rank}</text>`
      + (figuresShown ? `<image class="card-figure" href="${FIGURES}${card.rank}${card.suit}.svg" x="19.75" y="21.75" width="60.5" height="96.5" preserveAspectRatio="xMidYMid slice"/>` : '')
      + `<rect x="19" y="21" width="62" height="98" rx="3" fill="none" stroke="${ink}" stroke-width="1.5"/>`;
  } else {
    const n = Number(card.rank);
    const size = n >= 9 ? 15 : 17;
    centre = (PIPS[n] || []).map(([x, y]) => (y > 70
      ? `<g transform="rotate(180 ${x} ${y})">${suitPath(card.suit, x, y, size, ink)}</g>`
      : suitPath(card.suit, x, y, size, ink))).join('');
  }
  return `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="${d.face}" stroke="${d.edge}" stroke-width="2"/>`
    + corner(false) + corner(true) + centre;
}

// Symbols of the colour deck, drawn around (cx, cy) with a given size.
function colourGlyph(value, cx, cy, size, fill) {
  const s = size / 40;
  const tr = `transform="translate(${cx} ${cy}) scale(${s.toFixed(3)})"`;
  if (value === 'skip') {
    return `<g ${tr}><circle r="15" fill="none" stroke="${fill}" stroke-width="6"/><path d="M-10 10L10 -10" stroke="${fill}" stroke-width="6" stroke-linecap="round"/></g>`;
  }
  if (value === 'rev') {
    return `<g ${tr} fill="${fill}"><path d="M-16 -2L-4 -16V-8H14V2H-4V10Z"/><path d="M16 2L4 16V8H-14V-2H4V-10Z"/></g>`;
  }
  const text = value === 'W' ? '' : value.replace('W', '');
  return `<text x="${cx}" y="${cy + size * 0.36}" font-size="${size}" text-anchor="middle" ${SANS} fill="${fill}">${text}</text>`;
}

function colourFace(card) {
  const wild = card.colour === null;
  const bg = wild ? '#1c1c1c' : COLOURS[card.colour];
  const ink = wild ? '#1c1c1c' : COLOURS[card.colour];
  let oval = `<ellipse cx="50" cy="70" rx="34" ry="52" transform="rotate(28 50 70)" fill="#ffffff"/>`;
  if (wild) {
    // four colour quarters inside the oval
    oval = `<g transform="rotate(28 50 70)">`
      + `<path d="M50 70V18A34 52 0 0 1 84 70Z" fill="${COLOURS.R}"/>`
      + `<path d="M50 70H84A34 52 0 0 1 50 122Z" fill="${COLOURS.B}"/>`
      + `<path d="M50 70V122A34 52 0 0 1 16 70Z" fill="${COLOURS.Y}"/>`
      + `<path d="M50 70H16A34 52 0 0 1 50 18Z" fill="${COLOURS.G}"/>`
      + `<ellipse cx="50" cy="70" rx="34" ry="52" fill="none" stroke="#ffffff" stroke-width="3"/></g>`;
  }
  const big = wild ? (card.value === 'W+4' ? colourGlyph('+4', 50, 70, 34, '#ffffff') : '')
    : colourGlyph(card.value, 50, 70, card.value.length > 1 ? 34 : 46, ink);
  const bigStroke = wild && card.value === 'W+4'
    ? `<text x="50" y="82" font-size="34" text-anchor="middle" ${SANS} fill="none" stroke="#1c1c1c" stroke-width="1.5">+4</text>` : '';
  const cornerValue = wild ? (card.value === 'W+4' ? '+4' : 'W') : card.value;
  const corner = (flip) => {
    const g = colourGlyph(cornerValue, 15, 18, cornerValue.length > 1 ? 14 : 18, '#ffffff');
    return flip ? `<g transform="rotate(180 50 70)">${g}</g>` : g;
  };
  return `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#ffffff" stroke="#8a8a8a" stroke-width="2"/>`
    + `<rect x="6" y="6" width="88" height="128" rx="6" fill="${bg}"/>`
    + oval + big + bigStroke + corner(false) + corner(true);
}

const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * What a special card does, on a dark band along its foot (clear of the turned corner). Its letters
 * are 18 of the card's 100 units, bold: 9–10 px on a phone's 52 px hand card, where 13 gave 7.
 */
function effectBand(text) {
  const fit = text.length > 6 ? ' textLength="70" lengthAdjust="spacingAndGlyphs"' : '';
  return '<g class="card-effect"><rect x="3" y="112.5" width="76" height="24" rx="4" fill="#1b1b1b" fill-opacity=".9"/>'
    + `<text x="41" y="130.5" font-size="18" font-weight="700" text-anchor="middle" ${SANS} fill="#ffffff"${fit}>${escapeText(text)}</text></g>`;
}

/** The front of a card as SVG markup; `effect`: what it does at this table, printed on it ("+2"). */
export function cardSVG(name, design = DEFAULT_DESIGN, { effect = '' } = {}) {
  const d = DESIGNS[design] || DESIGNS[DEFAULT_DESIGN];
  const card = parseCard(name);
  if (!card) return backSVG(design);
  const body = card.family === 'colour' ? colourFace(card) : frenchFace(card, d);
  return `${svgOpen(` data-card="${name.replace(/[^0-9A-Za-z+]/g, '')}"`)}${body}${effect ? effectBand(effect) : ''}</svg>`;
}

/** The back of a card in a deck design: a frame, a lattice of small diamonds and an emblem. */
export function backSVG(design = DEFAULT_DESIGN) {
  const d = DESIGNS[design] || DESIGNS[DEFAULT_DESIGN];
  let lattice = '';
  for (let y = 16; y <= 124; y += 12) {
    for (let x = 16 + ((y / 12) % 2) * 6; x <= 84; x += 12) {
      lattice += `M${x} ${y - 4}L${x + 4} ${y}L${x} ${y + 4}L${x - 4} ${y}Z`;
    }
  }
  return `${svgOpen(' data-back="1"')}`
    + `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="${d.back}" stroke="${d.edge}" stroke-width="2"/>`
    + `<rect x="8" y="8" width="84" height="124" rx="5" fill="none" stroke="${d.backInk}" stroke-width="2"/>`
    + `<path d="${lattice}" fill="${d.backInk}" opacity="0.35"/>`
    + `<ellipse cx="50" cy="70" rx="24" ry="17" fill="${d.back}" stroke="${d.emblem}" stroke-width="3"/>`
    + `<text x="50" y="77" font-size="19" text-anchor="middle" ${SANS} fill="${d.emblem}">MM</text>`
    + '</svg>';
}

/** A suit symbol alone (the suit chooser, the follow indicator). */
export function suitSVG(suit, design = DEFAULT_DESIGN, size = 24) {
  const d = DESIGNS[design] || DESIGNS[DEFAULT_DESIGN];
  const fill = design === 'night' ? { C: '#1b1b1b', S: '#1b1b1b', H: '#c62828', D: '#c62828' }[suit] : d.ink[suit];
  return `<svg class="suit-svg" width="${size}" height="${size}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">`
    + `<path d="${SUIT_PATHS[suit]}" fill="${fill}"/></svg>`;
}

/** Points a card left in a hand is worth at a table of ruleset `rs` (GET /api/rulesets), for the round review. */
export function cardPoints(rs, name) {
  return rs?.points[name] ?? 0;
}
