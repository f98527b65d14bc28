// The account on screen: the header's corner (Entrar / Criar conta, or the account's name and
// Sair), the dialog with the forms for signing in and creating an account, and the offer made
// to a guest when a match ends. What the forms check and say is in account.js.

import { checkAccountForm, refusalField, refusalText } from './account.js';
import { api } from './api.js';
import { avatarEl } from './avatars.js';
import { h, mount, trapTab } from './dom.js';
import { onLangChange, t } from './i18n.js';
import { profilePath } from './rankings.js';

let open = null; // the dialog on screen: {backdrop, close}

/** The header's corner for whoever plays on this device: [its way in (Entrar) or its profile, the rest
 * (Criar conta or Sair)] — the rest folds into the top bar's menu on a phone. */
export function accountTools(ctx) {
  const s = ctx.session();
  if (s?.account) {
    return [
      h('a', { class: 'account-profile', href: profilePath(s.name), 'data-link': true, testid: 'profile-link',
        'aria-label': t('profile.label', { name: s.name }), title: t('profile.link') },
      avatarEl(s.avatar || '', s.name, 'sm'),
      h('span', { class: 'account-name', testid: 'account-user', title: t('account.signed_in_as', { name: s.name }) }, s.name)),
      h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-logout', onclick: () => logout(ctx) },
        t('account.logout')),
    ];
  }
  return [
    h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-login',
      onclick: () => openAccountDialog(ctx, 'login') }, t('account.login')),
    h('button', { class: 'btn btn-small btn-accent', type: 'button', testid: 'btn-register',
      onclick: () => openAccountDialog(ctx, 'register') }, t('account.register')),
  ];
}

async function logout(ctx) {
  try {
    await api.logout();
  } catch (err) {
    ctx.toast(refusalText(err), 'error');
    return;
  }
  ctx.accountChanged(t('account.logged_out'));
}

const OFFER_KEY = 'mm.offer.later';
const OFFER_PAUSE = 7 * 24 * 3600 * 1000; // "Agora não" quiets the offer on this device for a week

let laterThisPage = false;

function offerDismissed() {
  if (laterThisPage) return true;
  try { return Date.now() - Number(localStorage.getItem(OFFER_KEY) || 0) < OFFER_PAUSE; } catch { return false; }
}

/** A guest's invitation to keep its tables, after a match (null for an account, or a guest who said "Agora não"). */
export function accountOffer(ctx) {
  if (ctx.session()?.account || offerDismissed()) return null;
  const offer = h('div', { class: 'notice account-offer-box' },
    h('div', { class: 'account-offer', testid: 'account-offer' },
      h('p', {}, t('account.offer')),
      h('button', { class: 'btn btn-small btn-accent', type: 'button', testid: 'btn-offer-register',
        onclick: () => openAccountDialog(ctx, 'register') }, t('account.submit_register'))),
    h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'btn-offer-later', onclick: () => {
      laterThisPage = true;
      try { localStorage.setItem(OFFER_KEY, String(Date.now())); } catch { /* private mode: this page only */ }
      const next = offer.parentElement?.querySelector('a[href], button:not([data-testid^="btn-offer"])');
      offer.remove();
      next?.focus({ preventScroll: true });
    } }, t('account.offer_later')));
  return offer;
}

/** The dialog for signing in (`mode` 'login') or creating an account ('register'). */
export function openAccountDialog(ctx, mode) {
  open?.close();
  const previous = /** @type {HTMLElement | null} */ (document.activeElement);
  const guest = ctx.session();
  const form = { mode, name: mode === 'register' ? guest?.name || '' : '', password: '', busy: false };
  const body = h('div', { class: 'account-body' });
  const dialog = h('div', {
    class: 'account-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'account-title', testid: 'account-dialog',
  }, body);
  const backdrop = h('div', { class: 'modal-backdrop', onclick: (e) => { if (e.target === backdrop) close(); } }, dialog);
  let error = null;
  let inputs = {};

  function field(key, attrs, hint) {
    const id = `account-${key}`;
    const input = h('input', {
      id, testid: id, value: form[key], required: true, 'aria-describedby': hint ? `${id}-hint` : null,
      oninput: (e) => { form[key] = e.target.value; }, ...attrs,
    });
    inputs[key] = input;
    return h('label', { class: 'account-field', for: id },
      h('span', { class: 'opt-name' }, t(`account.${key}`)), input,
      hint ? h('small', { class: 'muted', id: `${id}-hint` }, hint) : null);
  }

  function render() {
    const register = form.mode === 'register';
    inputs = {};
    error = h('p', { class: 'form-error', testid: 'account-error', role: 'alert', hidden: true });
    mount(body, h('form', { class: 'account-form', testid: `account-form-${form.mode}`, novalidate: true, onsubmit: submit },
      h('div', { class: 'account-head' },
        h('h2', { id: 'account-title' }, t(register ? 'account.register_title' : 'account.login_title')),
        h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'account-close', 'aria-label': t('close'),
          onclick: close }, '✕')),
      register ? h('p', { class: 'muted' }, t('account.register_note'),
        guest ? ` ${t('account.register_keeps', { name: guest.name })}` : '') : null,
      field('name', { type: 'text', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false' },
        register ? t('account.name_hint') : null),
      field('password', { type: 'password', autocomplete: register ? 'new-password' : 'current-password' },
        register ? t('account.password_hint') : null),
      error,
      h('button', { class: 'btn btn-primary btn-big', type: 'submit', testid: 'account-submit' },
        t(register ? 'account.submit_register' : 'account.submit_login')),
      h('button', { class: 'btn btn-small btn-ghost account-switch', type: 'button', testid: 'account-switch',
        onclick: () => { form.mode = register ? 'login' : 'register'; render(); inputs.name.focus(); } },
      t(register ? 'account.to_login' : 'account.to_register'))));
  }

  function showError(text, key) {
    error.textContent = text;
    error.hidden = false;
    for (const [k, input] of Object.entries(inputs)) input.toggleAttribute('aria-invalid', k === key);
    if (key) inputs[key].focus();
  }

  async function submit(e) {
    e.preventDefault();
    if (form.busy) return;
    const problem = checkAccountForm(form.mode, form);
    if (problem) { showError(t(problem.key), problem.field); return; }
    form.busy = true;
    const button = body.querySelector('[type="submit"]');
    button.disabled = true;
    try {
      const s = form.mode === 'register' ? await api.register(form.name, form.password) : await api.login(form.name, form.password);
      close();
      ctx.accountChanged(t(form.mode === 'register' ? 'account.created' : 'account.welcome', { name: s.name }));
    } catch (err) {
      showError(refusalText(err), refusalField(err.code));
    } finally {
      form.busy = false;
      button.disabled = false;
    }
  }

  const onKey = (e) => {
    if (e.key === 'Escape') { e.preventDefault(); close(); } else trapTab(e, dialog);
  };
  const offLang = onLangChange(render);

  function close() {
    if (open?.backdrop !== backdrop) return;
    open = null;
    document.removeEventListener('keydown', onKey);
    offLang();
    backdrop.remove();
    document.body.classList.remove('modal-open');
    if (previous?.isConnected) previous.focus({ preventScroll: true });
  }

  document.addEventListener('keydown', onKey);
  document.body.append(backdrop);
  document.body.classList.add('modal-open');
  open = { backdrop, close };
  render();
  (form.name ? inputs.password : inputs.name).focus();
}
