// The "?" help: an animated step-by-step tutorial, one scene per rule of a ruleset.
// The steps are the rulesets' learning data (gateway/static/aprenda/data/<ruleset>.json, `tutorial`),
// served by GET /api/tutorials: this module names no ruleset, and a ruleset without steps gets none.
// A scene is data (the top card, a hand, the card that moves, a badge, a chooser…) drawn with cards.js.
// Opened at a table, it goes on with one scene per house rule that table has on (tutorialhouse.js).

import { api, loadTableCache } from './api.js';
import { backSVG, cardSVG, COLOURS, suitSVG } from './cards.js';
import { rulesetOf } from './catalog.js';
import { h, mount, reducedMotion, trapTab } from './dom.js';
import { getLang, onLangChange, t } from './i18n.js';
import { houseSteps } from './tutorialhouse.js';

const BUTTON_LABEL = {
  draw: 'table.draw', pass: 'table.pass', mau: 'table.say_mau', maumau: 'table.say_maumau', last: 'table.say_last',
  burn: 'table.burn', double: 'table.double', quick: 'table.quick', liar: 'table.liar', challenge: 'table.challenge',
};

let open = null;

function card(name, design, extra = {}) {
  return h('span', { class: `tut-card card-face ${extra.class || ''}`, html: name ? cardSVG(name, design) : backSVG(design), ...extra.attrs });
}

/** What a points scene shows: a card alone is worth what the catalog says (`points`), a [card, words] pair its words. */
export function pointsShown(entries, points) {
  return entries.map((x) => (Array.isArray(x) ? x : [x, points?.[x] ?? '']));
}

function scene(sc, design, points) {
  if (sc.points) {
    return h('div', { class: 'tut-scene tut-points' },
      pointsShown(sc.points, points).map(([c, p], i) => h('div', { class: 'tut-point', style: { animationDelay: `${i * 0.25}s` } },
        card(c, design), h('strong', {}, `${p}`))));
  }
  if (sc.row) { // cards in a row (a deck, a deal), one after the other
    return h('div', { class: 'tut-scene tut-row' },
      sc.row.map((c, i) => card(c, design, { class: 'tut-row-card', attrs: { style: { animationDelay: `${i * 0.18}s` } } })));
  }
  if (sc.teams) { // four seats, partners opposite: A at the top and bottom, B at the sides
    const seat = (team, where) => h('div', { class: `tut-seat tut-seat-${where} tut-team-${team.toLowerCase()}` },
      card(null, design), h('span', { class: 'tag' }, `👥 ${team}`));
    return h('div', { class: 'tut-scene tut-teams' },
      seat('A', 'top'), seat('B', 'left'), h('div', { class: 'tut-seat-mid' }, card('R5', design)), seat('B', 'right'), seat('A', 'bottom'));
  }
  const plays = [].concat(sc.play ?? []); // an Ace with company moves two cards, the second one after the first
  const handCards = sc.hand.map((c, i) => {
    const k = plays.indexOf(c);
    const moving = k >= 0 && (sc.double ? true : sc.hand.indexOf(c) === i);
    const cls = [moving ? 'tut-move' : '', moving && k > 0 ? 'tut-move-then' : '',
      (sc.ok || []).includes(c) ? 'tut-ok' : '', (sc.no || []).includes(c) ? 'tut-no' : ''].join(' ');
    return card(c, design, { class: cls });
  });
  for (const c of [].concat(sc.draw ?? [])) handCards.push(card(c, design, { class: 'tut-drawn' }));
  const pile = h('div', { class: 'tut-pile' }, card(sc.top, design),
    sc.follow ? h('span', { class: 'tut-follow', html: suitSVG(sc.follow, 'classic', 22) }) : null);
  const table = h('div', { class: 'tut-table' },
    h('div', { class: 'tut-stock' }, card(null, design)),
    pile,
    sc.opponent ? h('div', { class: 'tut-opponent' }, card(null, design), h('span', {}, '1')) : null,
    sc.badge ? h('div', { class: 'tut-badge' }, Array.isArray(sc.badge) ? sc.badge[getLang() === 'en' ? 1 : 0] : sc.badge) : null);
  const buttons = (sc.buttons || []).map((b) => h('span', { class: `btn btn-small tut-btn tut-btn-${b}` }, t(BUTTON_LABEL[b])));
  let chooser = null;
  if (sc.choose) {
    const colours = 'RGBY'.includes(sc.choose);
    chooser = h('div', { class: 'tut-choose' },
      h('strong', {}, colours ? t('table.which_color') : t('table.which_suit')),
      h('div', { class: 'tut-choose-row' }, (colours ? ['R', 'G', 'B', 'Y'] : ['C', 'D', 'H', 'S']).map((x) => h('span', {
        class: `tut-choice${x === sc.choose ? ' tut-chosen' : ''}`,
        html: colours ? null : suitSVG(x, 'classic', 22),
      }, colours ? h('span', { class: 'swatch', style: { background: COLOURS[x] } }) : null))));
  }
  return h('div', { class: 'tut-scene' }, table,
    buttons.length ? h('div', { class: 'tut-buttons' }, buttons) : null,
    h('div', { class: 'tut-hand' }, handCards), chooser);
}

// The moving card flies to the pile: measure the distance once it is laid out.
function aim(root) {
  const pile = root.querySelector('.tut-pile .tut-card');
  const stock = root.querySelector('.tut-stock .tut-card');
  for (const el of root.querySelectorAll('.tut-move')) {
    if (!pile) break;
    const a = el.getBoundingClientRect();
    const b = pile.getBoundingClientRect();
    el.style.setProperty('--dx', `${b.left - a.left}px`);
    el.style.setProperty('--dy', `${b.top - a.top}px`);
  }
  for (const el of root.querySelectorAll('.tut-drawn')) {
    if (!stock) break;
    const a = el.getBoundingClientRect();
    const b = stock.getBoundingClientRect();
    el.style.setProperty('--dx', `${b.left - a.left}px`);
    el.style.setProperty('--dy', `${b.top - a.top}px`);
  }
  root.classList.toggle('tut-static', !!reducedMotion());
  root.classList.add('tut-run');
}

// Asked once each (again after a failure): the catalog (a card's points, the defaults a table's options
// differ from) and every ruleset's tutorial.
let catalogAsked = null;
let tutorialsAsked = null;

function askCatalog() {
  catalogAsked = catalogAsked || api.rulesets().catch(() => { catalogAsked = null; return null; });
  return catalogAsked;
}

function askTutorials() {
  tutorialsAsked = tutorialsAsked || api.tutorials().then((r) => r.tutorials)
    .catch(() => { tutorialsAsked = null; return null; });
  return tutorialsAsked;
}

/** The tutorial of `ruleset` in `list` (GET /api/tutorials' `tutorials`), or null: none is made up for it. */
export function tutorialOf(list, ruleset) {
  return (list || []).find((x) => x.ruleset === ruleset) || null;
}

/** The table this page shows (/m/<id>), or null. */
function tableHere() {
  const m = /^\/m\/([A-Za-z0-9-]{1,64})\/?$/.exec(window.location.pathname);
  return m ? m[1] : null;
}

/**
 * At a table of `ruleset`: {ruleset, steps} with a scene for each house rule it has on (its
 * options as the table screen keeps them since its first picture); elsewhere null. `own` is the
 * ruleset's tutorial: what its house scenes say differently (`house`).
 */
function houseOfThisTable(ruleset, own, catalog) {
  const id = tableHere();
  const info = id ? loadTableCache(id)?.table_info : null;
  if (!info || info.ruleset !== ruleset) return null;
  const steps = houseSteps(rulesetOf(catalog, ruleset), info.options, own.house);
  return steps.length ? { ruleset, steps } : null;
}

/** The steps' header: the title, the ruleset's select (the ruleset itself first when it has no tutorial), the step. */
function header(rs, list, labelOf, title, counter, pick) {
  const known = (list || []).map((x) => x.ruleset);
  const ids = known.includes(rs) ? known : [rs, ...known];
  const select = h('select', { 'aria-label': t('tut.which'), testid: 'tutorial-ruleset', onchange: (e) => pick(e.target.value) },
    ids.map((id) => h('option', { value: id, selected: id === rs, disabled: !known.includes(id) }, labelOf(id))));
  return [
    h('div', { class: 'tut-head' },
      h('h2', { id: 'tut-title' }, t('tut.title'), title ? [' · ', h('span', { testid: 'tutorial-title' }, title)] : null),
      h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'tutorial-close', 'aria-label': t('close'), onclick: closeTutorial }, '✕')),
    h('div', { class: 'tut-meta' }, select, counter),
  ];
}

/** Open the tutorial for a ruleset (the table's, or the one picked on the home screen); `labelOf` names a ruleset. */
export function openTutorial(ruleset, design = 'classic', labelOf = (id) => id) {
  closeTutorial();
  const previous = document.activeElement;
  let rs = ruleset;
  let list = null; // the rulesets' tutorials, once they came ([] when they could not)
  let failed = false;
  let catalog = null;
  let step = 0;
  let house = null; // this table's house rules: more steps after the ruleset's own
  const stepsOf = (id) => {
    const own = tutorialOf(list, id)?.steps || [];
    return own.length && house && house.ruleset === id ? [...own, ...house.steps] : own;
  };
  const pick = (id) => { rs = id; step = 0; render(); };
  const body = h('div', { class: 'tut-body' });
  const dialog = h('div', {
    class: 'tutorial', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'tut-title', testid: 'tutorial', tabindex: '-1',
  }, body);
  const backdrop = h('div', { class: 'tut-backdrop', onclick: (e) => { if (e.target === backdrop) closeTutorial(); } }, dialog);

  // No steps for this ruleset (or not come yet): say so, never another ruleset's steps instead.
  function renderNone() {
    const said = list === null
      ? h('p', { class: 'tut-text muted', testid: 'tutorial-loading', 'aria-busy': 'true' }, '…')
      : h('p', { class: 'tut-text', testid: 'tutorial-none', 'aria-live': 'polite' }, t(failed ? 'tut.failed' : 'tut.none'));
    mount(body, ...header(rs, list, labelOf, null, null, pick), said);
    body.querySelector('[data-testid="tutorial-close"]').focus({ preventScroll: true });
  }

  function render() {
    const steps = stepsOf(rs);
    if (!steps.length) { renderNone(); return; }
    step = Math.min(step, steps.length - 1);
    const s = steps[step];
    const [title, text] = getLang() === 'en' ? s.en : s.pt;
    const sceneEl = scene(s.scene, design, rulesetOf(catalog, rs)?.points);
    const last = step === steps.length - 1;
    mount(body,
      ...header(rs, list, labelOf, title,
        h('span', { class: 'muted', testid: 'tutorial-step', 'aria-live': 'polite' }, t('tut.step', { n: step + 1, total: steps.length })), pick),
      h('div', { class: 'tut-dots', 'aria-hidden': 'true' },
        steps.map((x, i) => h('span', { class: `tut-dot${i === step ? ' on' : ''}${x.id ? ' tut-dot-house' : ''}` }))),
      s.id ? h('p', { class: 'tut-house', testid: 'tutorial-house', 'data-option': s.id }, t('tut.house')) : null,
      sceneEl,
      h('p', { class: 'tut-text', testid: 'tutorial-text' }, text),
      h('div', { class: 'tut-nav' },
        h('button', { class: 'btn', type: 'button', testid: 'tutorial-prev', disabled: step === 0, onclick: () => { step -= 1; render(); } }, t('tut.prev')),
        h('button', { class: 'btn btn-primary', type: 'button', testid: 'tutorial-next',
          onclick: () => { if (last) closeTutorial(); else { step += 1; render(); } } }, last ? t('tut.done') : t('tut.next'))));
    requestAnimationFrame(() => aim(sceneEl));
    body.querySelector('[data-testid="tutorial-next"]').focus({ preventScroll: true });
  }

  const onKey = (e) => {
    if (e.key === 'Escape') { e.preventDefault(); closeTutorial(); }
    else if (e.key === 'ArrowRight' && step < stepsOf(rs).length - 1 && e.target.tagName !== 'SELECT') { step += 1; render(); }
    else if (e.key === 'ArrowLeft' && step > 0 && e.target.tagName !== 'SELECT') { step -= 1; render(); }
    else trapTab(e, dialog);
  };
  document.addEventListener('keydown', onKey);
  const offLang = onLangChange(render);
  document.body.append(backdrop);
  document.body.classList.add('modal-open');
  const me = { backdrop, onKey, offLang, previous };
  open = me;
  render();
  Promise.all([askTutorials(), askCatalog()]).then(([tutorials, described]) => {
    if (open !== me) return;
    list = tutorials || [];
    failed = !tutorials;
    catalog = described;
    const own = tutorialOf(list, rs);
    house = own ? houseOfThisTable(rs, own, catalog) : null;
    render();
  });
}

export function closeTutorial() {
  if (!open) return;
  const { backdrop, onKey, offLang, previous } = open;
  open = null;
  document.removeEventListener('keydown', onKey);
  offLang();
  backdrop.remove();
  document.body.classList.remove('modal-open');
  if (previous && previous.focus) previous.focus({ preventScroll: true });
}
