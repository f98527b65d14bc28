// A player's profile (/jogador/<name>): avatar, name, since when, statistics per ruleset and
// category, the last matches (each linking to its table). One's own ("Meu perfil") adds the
// account's settings: the avatar picker, the name, the password, signing out on every device.

import { checkAccountForm, refusalText } from './account.js';
import { api } from './api.js';
import { AVATAR_IDS, avatarEl } from './avatars.js';
import { h, keepFocus, mount } from './dom.js';
import { errorText, getLang, t } from './i18n.js';
import { historyView, statsView } from './profilestats.js';
import { profilePath, sameName, sinceText } from './rankings.js';
// ⚔ competitive tables: the chips (fichas)
import { chipsText } from './competitive.js';

export function createProfileScreen(ctx, name) {
  const el = h('div', { class: 'profile-page', testid: 'profile-page' });
  let data = null; // GET /api/players/{name}
  let error = '';
  let destroyed = false;
  const busy = new Set();
  const typed = { name: null, old: '', fresh: '' }; // what the forms hold, kept across renders

  async function load(attempt = 0) {
    try {
      data = await api.player(name);
      error = '';
      if (data.name !== name) history.replaceState(null, '', profilePath(data.name)); // the name as its account spells it
    } catch (err) {
      // one's own account just made or renamed: the profiles follow the accounts' stream a moment later
      if (err.code === 'unknown_player' && attempt < 6 && sameName(ctx.session()?.name, name)) {
        setTimeout(() => { if (!destroyed) load(attempt + 1); }, 500);
        return;
      }
      error = err.code || 'unavailable';
    }
    render();
  }

  const own = () => {
    const s = ctx.session();
    return !!(s?.account && data && sameName(s.name, data.name));
  };

  async function save(what, changes, done) {
    if (busy.has(what)) return;
    busy.add(what);
    render();
    try {
      const me = await api.updateMe(changes);
      done(me);
    } catch (err) {
      if (what === 'password' && err.code === 'bad_credentials') ctx.toast(t('profile.wrong_password'), 'error');
      else ctx.toast(refusalText(err), 'error');
    } finally {
      busy.delete(what);
      if (!destroyed) render();
    }
  }

  // the arrow keys walk the radios, each a change: the last one chosen is the one saved
  let wantAvatar = null;
  async function chooseAvatar(id) {
    wantAvatar = id;
    if (busy.has('avatar')) return;
    busy.add('avatar');
    try {
      while (wantAvatar !== data.avatar) {
        const asked = wantAvatar;
        const me = await api.updateMe({ avatar: asked });
        data = { ...data, avatar: me.avatar };
        if (me.avatar !== asked) break;
      }
      ctx.toast(t('profile.avatar_saved'));
      ctx.sessionChanged(); // the header's avatar
    } catch (err) {
      ctx.toast(refusalText(err), 'error');
    } finally {
      wantAvatar = null;
      busy.delete('avatar');
      if (!destroyed) render();
    }
  }

  function avatarPicker() {
    const current = data.avatar;
    return h('fieldset', { class: 'avatar-picker', testid: 'avatar-picker' },
      h('legend', {}, t('profile.avatar')),
      h('p', { class: 'muted' }, t('profile.avatar_hint')),
      h('div', { class: 'avatar-grid' }, AVATAR_IDS.map((id) => h('label', {
        class: `avatar-choice${id === current ? ' selected' : ''}`, title: t(`avatar.${id}`), testid: `avatar-${id}`,
      },
      h('input', { type: 'radio', name: 'avatar', value: id, checked: id === current, class: 'sr-only',
        'aria-label': t(`avatar.${id}`), 'data-focus': `avatar-${id}`,
        onchange: () => chooseAvatar(id) }),
      avatarEl(id, data.name, 'md')))));
  }

  function renameForm() {
    const input = h('input', { id: 'profile-name', testid: 'profile-name', type: 'text', value: typed.name ?? data.name, maxlength: '24',
      autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', required: true, 'data-focus': 'name',
      oninput: (e) => { typed.name = e.target.value; } });
    const submit = (e) => {
      e.preventDefault();
      const problem = checkAccountForm('register', { name: input.value, password: 'x'.repeat(8) });
      if (problem) { ctx.toast(t(problem.key), 'error'); input.focus(); return; }
      save('name', { name: input.value }, (me) => {
        typed.name = null;
        data = { ...data, name: me.name }; // the same player (its identity): its statistics and history stay
        history.replaceState(null, '', profilePath(me.name));
        ctx.toast(t('profile.renamed', { name: me.name }));
        ctx.sessionChanged();
      });
    };
    return h('form', { class: 'profile-form', testid: 'profile-rename', onsubmit: submit, novalidate: true },
      h('label', { class: 'account-field', for: 'profile-name' }, h('span', { class: 'opt-name' }, t('profile.rename')), input,
        h('small', { class: 'muted' }, t('account.name_hint'))),
      h('button', { class: 'btn', type: 'submit', testid: 'profile-rename-save', 'data-focus': 'rename', 'aria-busy': busy.has('name') ? 'true' : null },
        t('profile.rename_save')));
  }

  function passwordForm() {
    const old = h('input', { id: 'profile-old-password', testid: 'profile-old-password', type: 'password', value: typed.old,
      autocomplete: 'current-password', required: true, 'data-focus': 'old', oninput: (e) => { typed.old = e.target.value; } });
    const fresh = h('input', { id: 'profile-new-password', testid: 'profile-new-password', type: 'password', value: typed.fresh,
      autocomplete: 'new-password', required: true, 'aria-describedby': 'profile-new-password-hint', 'data-focus': 'fresh',
      oninput: (e) => { typed.fresh = e.target.value; } });
    const submit = (e) => {
      e.preventDefault();
      if (!old.value) { ctx.toast(t('account.password_empty'), 'error'); old.focus(); return; }
      const problem = checkAccountForm('register', { name: 'ok', password: fresh.value });
      if (problem) { ctx.toast(t(problem.key), 'error'); fresh.focus(); return; }
      save('password', { password: fresh.value, old_password: old.value }, () => {
        typed.old = '';
        typed.fresh = '';
        ctx.toast(t('profile.password_changed'));
      });
    };
    return h('form', { class: 'profile-form', testid: 'profile-password', onsubmit: submit, novalidate: true },
      h('h3', {}, t('profile.password')),
      h('label', { class: 'account-field', for: 'profile-old-password' }, h('span', { class: 'opt-name' }, t('profile.old_password')), old),
      h('label', { class: 'account-field', for: 'profile-new-password' }, h('span', { class: 'opt-name' }, t('profile.new_password')), fresh,
        h('small', { class: 'muted', id: 'profile-new-password-hint' }, t('account.password_hint'))),
      h('button', { class: 'btn', type: 'submit', testid: 'profile-password-save', 'data-focus': 'password',
        'aria-busy': busy.has('password') ? 'true' : null },
        t('profile.password_save')));
  }

  async function everywhere() {
    try {
      await api.logoutEverywhere();
    } catch (err) {
      ctx.toast(refusalText(err), 'error');
      return;
    }
    ctx.accountChanged(t('profile.logged_out_everywhere'));
  }

  function settings() {
    return h('section', { class: 'panel profile-settings', testid: 'profile-settings', 'aria-labelledby': 'profile-settings-title' },
      h('h2', { id: 'profile-settings-title' }, t('profile.settings')),
      avatarPicker(), renameForm(), passwordForm(),
      h('p', { class: 'profile-reports' }, h('a', { class: 'btn btn-small btn-ghost', href: '/relatos', 'data-link': true,
        testid: 'profile-reports' }, t('dispute.mine'))), // "Meus relatos": the problems one reported, and the answers
      h('div', { class: 'profile-everywhere' },
        h('p', { class: 'muted' }, t('profile.everywhere_hint')),
        h('button', { class: 'btn btn-ghost', type: 'button', testid: 'btn-logout-everywhere', onclick: everywhere },
          t('profile.everywhere'))));
  }

  function render() {
    if (!destroyed) keepFocus(el, draw);
  }

  function draw() {
    if (error) {
      mount(el, h('section', { class: 'panel', testid: 'profile-error' },
        h('p', { role: 'alert' }, error === 'unknown_player' ? t('profile.unknown', { name }) : errorText(error)),
        h('a', { href: '/ranking', 'data-link': true, class: 'btn btn-small' }, t('ranking.title'))));
      return;
    }
    if (!data) { mount(el, h('p', { class: 'loading', role: 'status' }, t('loading'))); return; }
    document.title = `${data.name} · ${t('app.title')}`;
    const mine = own();
    mount(el,
      h('section', { class: 'profile-head', testid: 'profile-head' },
        avatarEl(data.avatar, data.name, 'lg'),
        h('div', {},
          mine ? h('p', { class: 'profile-mine' }, t('profile.link')) : null,
          h('h1', { testid: 'profile-name-title' }, data.name),
          h('p', { class: 'muted', testid: 'profile-since' }, sinceText(data.since, getLang())),
          Number.isInteger(data.chips) ? h('p', { class: 'profile-chips', testid: 'profile-chips', title: t('profile.chips_hint') },
            h('span', { 'aria-hidden': 'true' }, '🪙 '), chipsText(data.chips, getLang())) : null)),
      h('div', { class: 'profile-grid' },
        h('div', { class: 'profile-main' }, statsView(data, ctx.catalog), historyView(data, ctx.catalog)),
        mine ? settings() : null));
  }

  load();
  return { el, render, destroy() { destroyed = true; document.title = t('app.title'); } };
}
