// `make setup`: the figures of the court cards (J, Q, K of each suit) as SVG files, from the npm package
// @letele/playing-cards (Adrian Kennard's card designs, CC0-1.0), which ships them only as React
// components. Each component is called with a stand-in for React.createElement that returns the element
// tree, and the tree is written out as SVG markup: gateway/static/vendor/cards/<card>.svg (KH.svg…),
// cut to the figure's frame (the corners are drawn by cards.js in the deck design's ink).
//   node tools/court-figures.mjs <the package's dist/index.esm.js> <out dir>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// React's names for SVG attributes that keep their capitals in SVG; every other camelCase name is hyphenated
const KEEP = new Set(['viewBox', 'preserveAspectRatio', 'patternUnits', 'patternContentUnits', 'patternTransform',
  'gradientUnits', 'gradientTransform', 'clipPathUnits', 'maskUnits', 'maskContentUnits', 'stdDeviation',
  'textLength', 'lengthAdjust', 'markerWidth', 'markerHeight', 'refX', 'refY', 'startOffset', 'spreadMethod']);
const RENAME = { className: 'class', xlinkHref: 'href', xmlnsXlink: 'xmlns:xlink', xmlSpace: 'xml:space' };
const FIGURE_BOX = '-84 -133 168 266'; // the court figure's frame within the card's -120 -168 240 336

function attrName(key) {
  if (RENAME[key]) return RENAME[key];
  if (KEEP.has(key)) return key;
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const escape = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function markup(node) {
  if (node === null || node === undefined || node === false) return '';
  if (typeof node !== 'object') return escape(node);
  if (typeof node.type === 'function') return markup(node.type({ ...node.props, children: node.children }));
  const attrs = Object.entries(node.props || {})
    .filter(([k, v]) => v !== undefined && v !== null && k !== 'children' && !k.startsWith('aria-'))
    .map(([k, v]) => ` ${attrName(k)}="${escape(v)}"`).join('');
  return `<${node.type}${attrs}>${node.children.map(markup).join('')}</${node.type}>`;
}

const React = { createElement: (type, props, ...children) => ({ type, props: props || {}, children: children.flat() }) };

async function components(path) {
  const source = readFileSync(path, 'utf8')
    .replace(/^import .*$/gm, '')
    .replace(/^/, 'const _extends = Object.assign;\nconst React = globalThis.__courtReact;\n');
  globalThis.__courtReact = React;
  return import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
}

const [, , dist, out] = process.argv;
const deck = await components(dist);
mkdirSync(out, { recursive: true });
for (const suit of 'CDHS') {
  for (const rank of 'JQK') {
    const tree = deck[`${suit}${rank.toLowerCase()}`]({});
    tree.props = { xmlns: 'http://www.w3.org/2000/svg', viewBox: FIGURE_BOX, preserveAspectRatio: 'xMidYMid slice' };
    writeFileSync(join(out, `${rank}${suit}.svg`), markup(tree));
  }
}
