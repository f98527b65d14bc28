// "Rever partida" (/m/<table>/rever[?partida=N]): a finished table's history step by step, as this
// person saw it (GET /api/tables/{id}/replay: their seat's view, a spectator's, or the staff's
// every hand). Each step is drawn by the table screen's own regions (table/*.js) from the state
// replaysteps.js folds; the controls step back and forward, seek with a slider, play and pause
// at 1×, 2× or 4×. Nothing here acts on the table. The staff's desk opens it at a dispute's moment
// (?relato=<id>&lance=<seq>): the look is recorded on that dispute, the moment marked.

import { api } from './api.js';
import { rulesetOf } from './catalog.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, t } from './i18n.js';
import { allHands, viewerLine } from './replayviews.js';
import { playSound } from './sfx.js';
import { animate, captureRects } from './table/animate.js';
import { renderFelt } from './table/board.js';
import { formatEntry } from './table/eventlog.js';
import { renderHand } from './table/hand.js';
import { renderHead } from './table/head.js';
import { buildLog, renderLog } from './table/logpanel.js';
import { renderReview } from './table/review.js';
import { renderScores } from './table/scores.js';
import { cuesOf } from './table/sounds.js';
import { legalOf, mySeat } from './table/state.js';
import {
  back, buildSteps, delay, forward, initialPlayer, momentIndex, seek, setSpeed, SPEEDS, startIndex, tick, togglePlay,
} from './replaysteps.js';

const noop = () => null;

/** `match`: the match to open at (a profile's history); `relato`, `moment`: the dispute and its table sequence (the desk). */
export function createReplayScreen(ctx, tableId, { match = 0, relato = '', moment = 0 } = {}) {
  const el = h('div', { class: 'table-screen replay-screen', testid: 'replay-screen' });
  let data = null; // the API's answer
  let steps = []; // replaysteps.buildSteps
  let player = initialPlayer(0);
  let error = '';
  let destroyed = false;
  let timer = 0;
  let reviewHidden = false;
  let regions = null;
  let momentAt = -1; // the step of the disputed moment (staff), if any

  async function load() {
    try {
      data = await api.replay(tableId, relato);
      steps = buildSteps(tableId, data.steps, ctx.catalog);
      momentAt = momentIndex(data.steps, moment);
      player = initialPlayer(steps.length, momentAt >= 0 ? momentAt : startIndex(data.steps, match));
      error = '';
    } catch (err) {
      error = err.code || 'unavailable';
    }
    render();
  }

  function move(next, { animated = false } = {}) {
    if (destroyed || next === player) return;
    const from = player.index;
    const rects = animated && regions ? captureRects(regions.game) : null;
    player = next;
    if (player.index !== from) reviewHidden = false;
    render();
    const step = steps[player.index];
    if (rects && player.index === from + 1 && step) {
      animate(regions.game, step.events, rects, { me: mySeat(step.st), playRect: null, design: ctx.design });
      if (player.playing) for (const name of cuesOf(steps[from].st, step.st, step.events)) playSound(name); // not a step by hand
    }
  }

  function schedule() {
    if (timer) clearTimeout(timer);
    timer = player.playing ? setTimeout(() => { timer = 0; move(tick(player), { animated: true }); }, delay(player)) : 0;
  }

  /** What the table's regions render from, for this step: nothing in it acts. */
  function props(step) {
    const st = { ...step.st, reviewHidden, info: { ...step.st.info, penalty: null } };
    const me = mySeat(st);
    return {
      st, me, seated: false, g: legalOf(st), catalog: ctx.catalog, rs: rulesetOf(ctx.catalog, st.info.ruleset),
      design: ctx.design, setDesign: ctx.setDesign, tableId, invitation: '', replay: true,
      nameOf: (seat) => (seat === me ? t('you') : st.info?.players?.[seat]?.name ?? t('seat', { n: seat })),
      set: (patch) => { if ('reviewHidden' in patch) { reviewHidden = !!patch.reviewHidden; render(); } },
      remember: noop, act: noop, send: noop, join: noop, onCard: noop, onChoose: noop, cardEl: noop,
      toast: ctx.toast, offerAccount: noop, openAccount: noop, focus: noop,
    };
  }

  function game(p) {
    const v = p.st.view;
    if (!v) return [h('p', { class: 'notice replay-lobby', testid: 'replay-lobby' }, t('replay.lobby'))];
    const felt = renderFelt(p);
    const review = renderReview(p);
    if (review && !reviewHidden) return [review, felt];
    return [felt, review, v.hand ? renderHand(p) : null, allHands(p)];
  }

  function controls() {
    const last = Math.max(0, player.count - 1);
    const speedBtns = SPEEDS.map((s) => h('button', {
      class: `btn btn-small replay-speed${player.speed === s ? ' active' : ''}`, type: 'button', testid: `replay-speed-${s}`,
      'data-focus': `speed-${s}`, 'aria-pressed': player.speed === s ? 'true' : 'false', onclick: () => { move(setSpeed(player, s)); },
    }, `${s}×`));
    return h('div', { class: 'replay-controls', testid: 'replay-controls', role: 'group', 'aria-label': t('replay.controls') },
      h('div', { class: 'replay-buttons' },
        h('button', { class: 'btn replay-step', type: 'button', testid: 'replay-back', 'data-focus': 'back',
          'aria-label': t('replay.back'), title: t('replay.back'), disabled: player.index <= 0,
          onclick: () => move(back(player)) }, '◀'),
        h('button', { class: 'btn btn-primary replay-play', type: 'button', testid: 'replay-play', 'data-focus': 'play',
          'aria-pressed': player.playing ? 'true' : 'false', disabled: player.count < 2,
          onclick: () => move(togglePlay(player), { animated: true }) },
        player.playing ? `⏸ ${t('replay.pause')}` : `▶ ${t('replay.play')}`),
        h('button', { class: 'btn replay-step', type: 'button', testid: 'replay-forward', 'data-focus': 'forward',
          'aria-label': t('replay.forward'), title: t('replay.forward'), disabled: player.index >= last,
          onclick: () => move(forward(player), { animated: true }) }, '▶'),
        h('span', { class: 'replay-speeds', role: 'group', 'aria-label': t('replay.speed') }, speedBtns)),
      h('label', { class: 'replay-slider-row' },
        h('span', { class: 'sr-only' }, t('replay.slider')),
        h('input', { class: 'replay-slider', type: 'range', min: '0', max: String(last), step: '1', value: String(player.index),
          testid: 'replay-slider', 'data-focus': 'slider', 'aria-valuetext': t('replay.position', { n: player.index + 1, total: player.count }),
          oninput: (e) => move(seek(player, e.target.value)) })),
      h('p', { class: 'replay-position muted', 'aria-live': 'off' },
        h('span', { testid: 'replay-position' }, t('replay.position', { n: player.index + 1, total: player.count })),
        player.index === momentAt ? h('strong', { class: 'replay-moment', testid: 'replay-moment' }, ` ← ${t('staff.moment')}`) : null));
  }

  function stepLine(step) {
    const text = step.lines.length ? step.lines.map(formatEntry).join(' · ') : (step.words.join('; ') || '—');
    // read aloud when a person steps, not at every tick of play
    return h('p', { class: 'replay-line', testid: 'replay-line', 'data-seq': String(step.seq), 'aria-live': player.playing ? 'off' : 'polite' },
      h('span', { class: 'replay-line-label' }, `${t('replay.line')}: `), text);
  }

  function build() {
    const log = buildLog();
    const scores = h('section', { class: 'panel scoreboard', testid: 'scoreboard' });
    regions = {
      head: h('div', { class: 'table-head' }),
      top: h('div', { class: 'replay-top' }),
      game: h('section', { class: 'game replay-game', testid: 'replay-game', 'aria-label': t('replay.title') }),
      controls: h('div', { class: 'replay-controls-wrap' }),
      line: h('div', { class: 'replay-line-wrap' }),
      scores, log,
    };
    mount(el, regions.top, regions.head, h('div', { class: 'table-layout' },
      h('div', { class: 'table-main' }, regions.controls, regions.line, regions.game),
      h('aside', { class: 'table-side' }, scores, log.el)));
  }

  function onKey(e) {
    if (!regions || e.target.closest?.('input:not([type=range]), textarea, select')) return;
    if (e.key === 'ArrowLeft' && e.target.type !== 'range') { e.preventDefault(); move(back(player)); }
    else if (e.key === 'ArrowRight' && e.target.type !== 'range') { e.preventDefault(); move(forward(player), { animated: true }); }
  }

  function render() {
    if (destroyed) return;
    document.title = `${t('replay.title')} · ${t('app.title')}`;
    if (error) {
      regions = null;
      mount(el, h('section', { class: 'panel', testid: 'replay-error' },
        h('h2', {}, t('replay.title')), h('p', { role: 'alert' }, errorText(error)),
        h('a', { href: '/', 'data-link': true, class: 'btn btn-primary' }, t('match.home'))));
      return;
    }
    if (!data) {
      regions = null;
      mount(el, h('p', { class: 'loading', role: 'status' }, t('loading')));
      return;
    }
    if (!steps.length) {
      regions = null;
      mount(el, h('section', { class: 'panel', testid: 'replay-empty' }, h('p', {}, t('replay.empty'))));
      return;
    }
    if (!regions) build();
    const step = steps[player.index];
    const p = props(step);
    ctx.setHelpRuleset(p.st.info.ruleset);
    keepFocus(el, () => {
      mount(regions.top, h('p', { class: 'replay-kicker', testid: 'replay-title' }, `⏪ ${t('replay.title')}`), viewerLine(data.viewer),
        h('a', { class: 'btn btn-small btn-ghost', href: `/m/${encodeURIComponent(tableId)}`, 'data-link': true, testid: 'replay-table-link' },
          t('replay.to_table')));
      mount(regions.head, ...renderHead(p));
      mount(regions.controls, controls());
      mount(regions.line, stepLine(step));
      mount(regions.game, ...game(p));
      const scores = p.st.view ? renderScores(p) : null;
      regions.scores.hidden = !scores;
      if (scores) mount(regions.scores, ...scores);
    });
    for (const b of regions.game.querySelectorAll('.hand-card')) b.tabIndex = -1; // shown, never played
    renderLog(regions.log, step.st.log);
    schedule();
  }

  document.addEventListener('keydown', onKey);
  load();

  return {
    el,
    render,
    destroy() {
      destroyed = true;
      if (timer) clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
      document.title = t('app.title');
    },
  };
}
