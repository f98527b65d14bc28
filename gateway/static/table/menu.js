// The pause menu during a match (seed 000): SAIR DO JOGO (giving up, after a confirmation), the
// rules of this table, the deck design, sound on/off and its volume, the language and "Reportar problema"
// (during or after a match: docs/disputes.md). The match goes on while
// it is open (the others play on); it is this viewer's own screen, kept in the state as `menu`:
// null (closed), 'main', 'rules', 'leave' (the confirmation), 'report' or 'reported'.

import { DESIGN_IDS } from '../cards.js';
import { reportedView, reportItem, reportView } from '../disputes.js';
import { h, trapTab } from '../dom.js';
import { getLang, LANGS, setLang, t } from '../i18n.js';
import { playSound } from '../sfx.js';
import { setSound, setVolume, soundOn, volume } from '../sound.js';
import { rulesContent } from './rules.js';

/** Whether SAIR DO JOGO is offered: a seated player of a match being played. */
export function mayLeave(p) {
  return p.seated && p.st.info.status === 'playing';
}

/** What the open menu shows depends on only these: the same key, nothing to draw again. */
export function menuKey(p) {
  const { st } = p;
  return [st.menu, getLang(), p.design, soundOn(), mayLeave(p), p.seated, st.info.creator, st.info.ruleset, JSON.stringify(st.info.options)].join('|');
}

export function renderMenuButton(p) {
  return h('button', {
    class: 'btn btn-small btn-menu', type: 'button', testid: 'btn-menu', 'data-focus': 'btn-menu',
    'aria-haspopup': 'dialog', 'aria-expanded': p.st.menu ? 'true' : 'false',
    onclick: () => { p.set({ menu: 'main' }); p.focus('menu-dialog'); },
  }, h('span', { 'aria-hidden': 'true' }, '☰ '), t('menu.open'));
}

function close(p) {
  p.set({ menu: null });
  p.focus('btn-menu');
}

// the slider keeps its own value while it moves (the menu is not drawn again); a card sounds at the new level
function volumeField() {
  const shown = h('span', { class: 'menu-volume-value', 'aria-hidden': 'true' }, `${volume()} %`);
  return h('label', { class: 'menu-field', for: 'menu-volume' }, h('span', {}, t('menu.volume')),
    h('span', { class: 'menu-volume-row' }, h('input', {
      id: 'menu-volume', class: 'menu-volume', type: 'range', min: '0', max: '100', step: '5', value: String(volume()),
      testid: 'menu-volume', 'data-focus': 'menu-volume', 'aria-valuetext': `${volume()} %`,
      oninput: (e) => {
        setVolume(e.target.value);
        shown.textContent = `${volume()} %`;
        e.target.setAttribute('aria-valuetext', shown.textContent);
      },
      onchange: () => playSound('card'),
    }), shown));
}

function mainView(p) {
  const lang = getLang();
  const sound = soundOn();
  const deck = h('select', {
    id: 'menu-deck', testid: 'menu-deck', 'data-focus': 'menu-deck',
    onchange: (e) => p.setDesign(e.target.value),
  }, DESIGN_IDS.map((id) => h('option', { value: id, selected: id === p.design }, t(`deck.${id}`))));
  return [
    h('h2', { id: 'menu-title' }, t('menu.title')),
    h('p', { class: 'muted menu-note' }, t('menu.goes_on')),
    h('button', { class: 'btn menu-item', type: 'button', testid: 'menu-rules', 'data-focus': 'menu-rules',
      onclick: () => { p.set({ menu: 'rules' }); p.focus('menu-dialog'); } }, t('lobby.options')),
    h('label', { class: 'menu-field', for: 'menu-deck' }, h('span', {}, t('deck.label')), deck),
    h('div', { class: 'menu-field' }, h('span', { id: 'menu-sound-label' }, t('menu.sound')),
      h('button', {
        class: 'btn btn-small', type: 'button', testid: 'menu-sound', 'data-focus': 'menu-sound', role: 'switch',
        'aria-checked': sound ? 'true' : 'false', 'aria-labelledby': 'menu-sound-label menu-sound-state',
        onclick: () => { setSound(!sound); p.set({}); },
      }, h('span', { id: 'menu-sound-state' }, sound ? t('menu.sound_on') : t('menu.sound_off')))),
    volumeField(),
    h('div', { class: 'menu-field', role: 'group', 'aria-labelledby': 'menu-lang-label' },
      h('span', { id: 'menu-lang-label' }, t('menu.language')),
      h('div', { class: 'row menu-langs' }, LANGS.map((l) => h('button', {
        class: 'btn btn-small', type: 'button', testid: `menu-lang-${l}`, 'data-focus': `menu-lang-${l}`, lang: l,
        'aria-pressed': l === lang ? 'true' : 'false', onclick: () => setLang(l),
      }, t(`menu.lang.${l}`))))),
    p.seated || p.st.info.creator ? reportItem(p) : null, // only a seat or the creator may report (docs/disputes.md)
    mayLeave(p) ? h('button', { class: 'btn btn-danger menu-item', type: 'button', testid: 'menu-leave', 'data-focus': 'menu-leave',
      onclick: () => { p.set({ menu: 'leave' }); p.focus('menu-leave-cancel'); } }, t('menu.leave')) : null,
    h('button', { class: 'btn btn-primary menu-item', type: 'button', testid: 'menu-close', 'data-focus': 'menu-close',
      onclick: () => close(p) }, t('menu.back_to_game')),
  ];
}

function rulesView(p) {
  return [
    h('h2', { id: 'menu-title' }, t('lobby.options')),
    h('div', { class: 'menu-rules table-rules', testid: 'menu-rules-text' }, ...rulesContent(p)),
    h('button', { class: 'btn menu-item', type: 'button', testid: 'menu-back', 'data-focus': 'menu-back',
      onclick: () => { p.set({ menu: 'main' }); p.focus('menu-rules'); } }, t('menu.back')),
  ];
}

function leaveView(p) {
  return [
    h('h2', { id: 'menu-title' }, t('menu.leave')),
    h('p', {}, t('menu.leave_confirm')),
    h('div', { class: 'row menu-confirm' },
      h('button', { class: 'btn btn-danger', type: 'button', testid: 'menu-leave-confirm', 'data-focus': 'menu-leave-confirm',
        onclick: () => { p.set({ menu: null }); p.send({ give_up: {} }); } }, t('menu.leave_yes')),
      h('button', { class: 'btn btn-ghost', type: 'button', testid: 'menu-leave-cancel', 'data-focus': 'menu-leave-cancel',
        onclick: () => { p.set({ menu: 'main' }); p.focus('menu-leave'); } }, t('cancel'))),
  ];
}

/** The open menu over the table (null when closed). */
export function renderMenu(p) {
  const view = p.st.menu;
  if (!view) return null;
  const body = view === 'rules' ? rulesView(p) : view === 'leave' && mayLeave(p) ? leaveView(p)
    : view === 'report' ? reportView(p, 'main') : view === 'reported' ? reportedView(p) : mainView(p);
  const dialog = h('div', {
    class: 'menu-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'menu-title', tabindex: '-1',
    testid: 'menu-dialog', 'data-view': view,
    onkeydown: (e) => {
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(p); } else trapTab(e, dialog);
    },
  }, ...body);
  const backdrop = h('div', {
    class: 'modal-backdrop menu-backdrop', testid: 'menu',
    onclick: (e) => { if (e.target === backdrop) close(p); },
  }, dialog);
  return backdrop;
}
