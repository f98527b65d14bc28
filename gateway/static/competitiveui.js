// Competitive tables (⚔) on screen: the create form's "Mesa competitiva" block, the table's stake
// mark, the lobby's note and a refused seat, and the vote on the one who left a match ("Penalizar
// quem saiu?"). The words and the vote's state are in competitive.js.

import { chipsText, DEFAULT_STAKE, penaltyOf, SEAT_REFUSALS, STAKES, stakeText } from './competitive.js';
import { h } from './dom.js';
import { getLang, listNames, t } from './i18n.js';

/** "⚔ 50 fichas" beside the category mark (null at a table that is not competitive). */
export function stakeBadge(stake, attrs = {}) {
  if (!(stake > 0)) return null;
  return h('span', { class: 'category category-stake', title: t('stake.hint', { chips: chipsText(stake, getLang()) }), ...attrs },
    h('span', { 'aria-hidden': 'true' }, '⚔ '), h('span', { class: 'category-text' }, chipsText(stake, getLang())));
}

/**
 * The create form's own block: "Mesa competitiva ⚔" and the stake. `form` holds {competitive, stake};
 * `rerender` draws the form again. A guest sees why not, and the way to an account.
 */
export function competitiveFieldset(ctx, form, rerender) {
  const account = !!ctx.session()?.account;
  if (!Number.isInteger(form.stake)) form.stake = DEFAULT_STAKE;
  if (!account) form.competitive = false;
  const parts = [h('legend', {}, t('stake.legend'))];
  parts.push(h('label', { class: 'opt opt-check', for: 'opt-competitive' },
    h('input', { id: 'opt-competitive', type: 'checkbox', testid: 'opt-competitive', checked: !!form.competitive,
      disabled: !account, 'aria-describedby': 'competitive-explain',
      onchange: (e) => { form.competitive = e.target.checked; rerender(); } }),
    h('span', {}, t('stake.toggle'))));
  parts.push(h('p', { class: 'muted competitive-explain', id: 'competitive-explain' }, t('stake.explain')));
  if (!account) {
    parts.push(h('p', { class: 'competitive-guest', testid: 'competitive-guest' }, t('stake.guest'), ' ',
      h('button', { class: 'btn btn-small btn-accent', type: 'button', testid: 'btn-competitive-register',
        onclick: () => ctx.openAccount('register') }, t('account.register'))));
  } else if (form.competitive) {
    const choices = STAKES.includes(form.stake) ? STAKES : [...STAKES, form.stake].sort((a, b) => a - b);
    parts.push(h('label', { class: 'opt opt-field', for: 'opt-stake' },
      h('span', { class: 'opt-name' }, t('stake.label')),
      h('select', { id: 'opt-stake', testid: 'opt-stake', onchange: (e) => { form.stake = Number(e.target.value); } },
        choices.map((n) => h('option', { value: String(n), selected: n === form.stake }, chipsText(n, getLang())))),
      h('small', { class: 'muted' }, t('stake.label_hint'))));
  }
  return h('fieldset', { class: `competitive${form.competitive ? ' competitive-on' : ''}`, testid: 'competitive' }, ...parts);
}

/** The lobby's word on a competitive table: what a seat costs and who may sit. */
export function stakeNote(info) {
  if (!(info.stake > 0)) return null;
  return h('p', { class: 'notice notice-stake', testid: 'stake-note' },
    h('strong', {}, stakeText(info.stake, getLang())), ' · ', t('stake.lobby', { chips: chipsText(info.stake, getLang()) }));
}

/** The free seat offered at a competitive table: what it costs (null at any other). */
export function stakeJoinLine(info) {
  if (!(info.stake > 0)) return null;
  return h('p', { class: 'muted', testid: 'stake-join' }, stakeText(info.stake, getLang()), ' · ',
    t('stake.join', { chips: chipsText(info.stake, getLang()) }));
}

/** A seat refused at a competitive table: why, in words, and what to do (an account for a guest). */
export function refusedSeat(p, code) {
  if (!SEAT_REFUSALS.includes(code)) return null;
  const chips = chipsText(p.st.info?.stake || 0, getLang());
  return h('div', { class: 'notice notice-warn', role: 'alert', testid: 'seat-refused' },
    h('p', {}, t(`stake.refused.${code}`, { chips })),
    code === 'account_needed' && p.openAccount ? h('button', { class: 'btn btn-small btn-accent', type: 'button',
      testid: 'btn-seat-register', onclick: () => p.openAccount('register') }, t('account.register')) : null);
}

/** At a competitive table's match end: what the match was played for, and where the pot went. */
export function matchStakeLine(p) {
  const { info } = p.st;
  if (!(info.stake > 0) || info.status === 'playing' || info.status === 'lobby') return null;
  const lang = getLang();
  if (!(info.match_stake > 0)) return h('p', { class: 'muted', testid: 'match-stake' }, t('stake.match_none'));
  const winners = info.winners || [];
  const pot = chipsText(info.match_stake * info.players.length, lang);
  const you = winners.length === 1 && winners[0] === p.me;
  return h('p', { class: 'match-stake', testid: 'match-stake' }, winners.length
    ? t(you ? 'stake.match_pot_you' : 'stake.match_pot', { pot, names: listNames(winners.map(p.nameOf)), n: winners.length })
    : t('stake.match_refund', { chips: chipsText(info.match_stake, lang) }));
}

/** After a competitive match given up or ended by an absence: "Penalizar quem saiu?" (null otherwise). */
export function renderPenaltyVote(p) {
  const pen = penaltyOf(p.st.info, p.me);
  if (!pen) return null;
  const name = p.nameOf(pen.leaver);
  const parts = [h('h3', {}, t('penalty.title'))];
  if (pen.penalised) {
    parts.push(h('p', { testid: 'penalty-outcome' }, p.me === pen.leaver ? t('penalty.done_you') : t('penalty.done', { name })));
  } else if (pen.mayVote) {
    parts.push(h('p', { class: 'muted' }, t('penalty.explain', { name })),
      h('div', { class: 'row' },
        h('button', { class: 'btn btn-danger', type: 'button', testid: 'btn-penalise-yes', 'data-focus': 'penalise-yes',
          onclick: () => p.send({ penalise: { penalise: true } }) }, t('penalty.yes')),
        h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-penalise-no', 'data-focus': 'penalise-no',
          onclick: () => p.send({ penalise: { penalise: false } }) }, t('penalty.no'))));
  } else if (pen.open) {
    parts.push(h('p', { class: 'muted', testid: 'penalty-waiting' }, p.me === pen.leaver
      ? t('penalty.about_you') : t('penalty.waiting', { name })));
  } else {
    parts.push(h('p', { testid: 'penalty-outcome' }, p.me === pen.leaver ? t('penalty.not_you') : t('penalty.not', { name })));
  }
  if (pen.votes.length) {
    const said = (yes) => pen.votes.filter((v) => v.penalise === yes).map((v) => p.nameOf(v.seat));
    const lines = [];
    if (said(true).length) lines.push(t('penalty.votes_yes', { names: listNames(said(true)), n: said(true).length }));
    if (said(false).length) lines.push(t('penalty.votes_no', { names: listNames(said(false)), n: said(false).length }));
    parts.push(h('p', { class: 'muted', testid: 'penalty-votes' }, lines.join(' · '),
      ` (${t('penalty.count', { n: pen.votes.length, of: pen.voters.length })})`));
  }
  return h('div', { class: 'penalty-vote', testid: 'penalty-vote', role: 'group', 'aria-label': t('penalty.title') }, ...parts);
}
