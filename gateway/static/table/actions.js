// The actions bar under the pile: draw, pass, the call ("Mau", "Mau-Mau", "última"), the burn,
// double and quick action, the wild +4 challenge; and giving up. Only those legal now are shown, so
// a ruleset's own actions appear where its legal actions have them, whatever its name.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { markCallHintSeen, renderCallHint } from './callhint.js';
import { pickAnnounce } from './legal.js';

/** Which call the button makes: the ruleset's one word (the catalog's `call`), 'maumau' when only going out needs it, else 'mau'. */
function callKind(call, calls) {
  if (call) return call;
  return calls.length && calls.every((c) => c === 'maumau') ? 'maumau' : 'mau';
}

function handActionButtons(p, btn) {
  const { g, st } = p;
  const fromHand = (list) => act(p, pickAnnounce(list, st.announce), list[0].card ?? list[0].cards[0]);
  return [
    btn('btn-burn', t('table.burn'), g.burn.length > 0, () => fromHand(g.burn)),
    btn('btn-double', st.doubleMode ? t('table.double_pick') : t('table.double'), g.doubles.size > 0, () => {
      if (g.doubles.size === 1) fromHand([...g.doubles.values()][0]);
      else p.set({ doubleMode: !st.doubleMode });
    }, st.doubleMode ? 'pressed' : ''),
    btn('btn-quick', t('table.quick'), g.quick.length > 0, () => fromHand(g.quick), g.quick.length ? 'btn-flash' : ''),
  ];
}

// a card leaving the hand flies from where it was
function act(p, action, card) {
  p.act(action, p.cardEl(card));
}

export function renderActions(p) {
  const { g, st } = p;
  const v = st.view;
  // only what is legal now is shown: one row, even on a phone
  const btn = (testid, label, legal, onclick, cls = '') => (legal ? h('button', {
    class: `btn ${cls}`, type: 'button', testid, 'data-focus': testid, onclick,
  }, label) : null);
  const calls = [...g.announces];
  const call = callKind(st.call, calls);
  const due = calls.length > 0 && !st.announce; // the next card needs the call: the button calls for the eye
  const buttons = [
    btn('btn-draw', v.pending_draw > 0 ? t('table.draw_n', { n: v.pending_draw }) : t('table.draw'), !!g.draw,
      () => p.act(g.draw), 'btn-primary'),
    btn('btn-pass', t('table.pass'), !!g.pass, () => p.act(g.pass)),
    // the call: a toggle that adds `announce` to the next card action (values from legal_actions)
    calls.length ? h('button', {
      class: `btn btn-mau${st.announce ? ' pressed' : ''}${due ? ' due' : ''}`, type: 'button', testid: 'btn-mau',
      'data-focus': 'btn-mau', 'aria-pressed': st.announce ? 'true' : 'false',
      onclick: () => { markCallHintSeen(); p.set({ announce: !st.announce }); },
    }, t(`table.say_${call}`), st.announce ? h('span', { class: 'said' }, ` ✓ ${t('table.said')}`) : null) : null,
  ];
  buttons.push(...handActionButtons(p, btn));
  if (g.challengeWild) buttons.push(btn('btn-liar', t('table.liar'), true, () => p.act(g.challengeWild), 'btn-warn'));
  return h('div', { class: 'actions', testid: 'actions' }, buttons, due ? renderCallHint(p, call) : null);
}

export function renderGiveUp(p) {
  if (!p.st.giveupConfirm) {
    return h('div', { class: 'giveup' }, h('button', { class: 'btn btn-ghost btn-small', type: 'button', testid: 'btn-giveup',
      'data-focus': 'giveup', onclick: () => { p.set({ giveupConfirm: true }); p.focus('btn-giveup-confirm'); } }, t('table.giveup')));
  }
  return h('div', { class: 'giveup giveup-confirm', role: 'alertdialog', 'aria-label': t('table.giveup_confirm') },
    h('p', {}, t('table.giveup_confirm')),
    h('div', { class: 'row' },
      h('button', { class: 'btn btn-danger', type: 'button', testid: 'btn-giveup-confirm',
        onclick: () => { p.remember({ giveupConfirm: false }); p.send({ give_up: {} }); } }, t('table.giveup_yes')),
      h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-giveup-cancel',
        onclick: () => p.set({ giveupConfirm: false }) }, t('cancel'))));
}
