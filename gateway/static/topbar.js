// The top bar: the deck design ("Baralho"), Aprenda, the language, the Ranking, the sound, the help
// and the account's corner. One row at every size: on a phone the less used of them (the deck, Aprenda,
// the language, the Ranking, "Criar conta"/"Sair") fold behind a menu button (☰).

import { accountTools } from './accountui.js';
import { backSVG, DESIGN_IDS } from './cards.js';
import { h, mount } from './dom.js';
import { getLang, t, toggleLang } from './i18n.js';
import { learnHref } from './lobby.js';
import { setSound, soundOn } from './sound.js';

let menuOpen = false;

function setMenu(open) {
  menuOpen = open;
  document.querySelector('.topbar')?.classList.toggle('menu-open', open);
  document.querySelector('[data-testid="btn-more"]')?.setAttribute('aria-expanded', open ? 'true' : 'false');
}

/** The menu closes on a choice made in it, a tap elsewhere or Escape (listened to once, for the page's life). */
function closeMenuOnLeave() {
  document.addEventListener('click', (e) => {
    if (!menuOpen) return;
    const target = /** @type {Element} */ (e.target);
    const inMenu = target.closest('#topbar-more');
    if (target.closest('[data-testid="btn-more"]')) return;
    if (!inMenu || target.closest('a, button')) setMenu(false);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menuOpen) return;
    setMenu(false);
    /** @type {HTMLElement | null} */ (document.querySelector('[data-testid="btn-more"]'))?.focus();
  });
}

let listening = false;

/** Draw the top bar again (the language, the session, the deck design or the sound changed). */
export function renderTools(ctx) {
  if (!listening) { closeMenuOnLeave(); listening = true; }
  const [corner, extra] = accountTools(ctx);
  const select = h('select', {
    id: 'deck-design', testid: 'deck-design', 'aria-label': t('deck.label'), title: t('deck.label'),
    onchange: (e) => {
      ctx.setDesign(e.target.value);
      document.getElementById('deck-design')?.focus();
    },
  }, DESIGN_IDS.map((id) => h('option', { value: id, selected: id === ctx.design }, t(`deck.${id}`))));
  mount(document.getElementById('tools'),
    h('div', { class: 'topbar-more', id: 'topbar-more', testid: 'topbar-more' },
      h('label', { class: 'deck-picker' }, h('span', { class: 'deck-icon', 'aria-hidden': 'true', html: backSVG(ctx.design) }),
        h('span', { class: 'deck-picker-label', 'aria-hidden': 'true' }, t('deck.label')), select),
      h('a', { class: 'btn btn-small btn-ghost learn-link', href: learnHref('index', getLang()), testid: 'learn-link',
        title: t('learn.label') }, t('learn.link')),
      h('button', {
        class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-lang', lang: t('lang.toggle') === 'EN' ? 'en' : 'pt-BR',
        'aria-label': t('lang.toggle.label'), title: t('lang.toggle.label'), onclick: () => toggleLang(),
      }, t('lang.toggle')),
      h('a', { class: 'btn btn-small btn-ghost ranking-link', href: '/ranking', 'data-link': true, testid: 'ranking-link' },
        t('ranking.link')),
      h('span', { class: 'account-extra' }, extra)),
    soundButton(),
    h('button', {
      class: 'btn btn-small btn-help', type: 'button', testid: 'btn-help', 'aria-label': t('help.label'),
      title: t('help.label'), onclick: () => ctx.openHelp(),
    }, '?'),
    h('button', {
      class: 'btn btn-small btn-ghost btn-more', type: 'button', testid: 'btn-more', 'aria-controls': 'topbar-more',
      'aria-expanded': menuOpen ? 'true' : 'false', 'aria-label': t('menu.label'), title: t('menu.label'),
      onclick: () => setMenu(!menuOpen),
    }, h('span', { 'aria-hidden': 'true' }, '☰')));
  mount(document.getElementById('account'), corner);
  setMenu(menuOpen);
  const brand = document.querySelector('.brand');
  brand.setAttribute('aria-label', `${t('app.title')} — ${t('home.link')}`);
  document.querySelector('.skip-link').textContent = t('home.link') === 'Home' ? 'Skip to content' : 'Pular para o conteúdo';
}

/** The sound on or off in one tap (the beep when a table turns to the player; the pause menu's "Som" too). */
function soundButton() {
  const on = soundOn();
  return h('button', {
    class: 'btn btn-small btn-ghost btn-sound', type: 'button', testid: 'btn-sound', 'aria-pressed': on ? 'true' : 'false',
    'aria-label': t('sound.label'), title: on ? t('sound.on_title') : t('sound.off_title'),
    onclick: () => {
      setSound(!on); // the top bar is drawn again
      /** @type {HTMLElement | null} */ (document.querySelector('[data-testid="btn-sound"]'))?.focus();
    },
  }, h('span', { 'aria-hidden': 'true' }, on ? '🔊' : '🔇'));
}
