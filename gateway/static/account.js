// The account forms' pure part: what is checked before asking the gateway (the same lengths as
// services/accounts: a name 2 to 24 characters as shown, a password 8 to 256) and which words
// answer each refusal. How strong a password is only the accounts service estimates (zxcvbn:
// docs/accounts.md); its refusals are worded here. No DOM: unit-tested in node.

import { errorText, t } from './i18n.js';

const NAME_CHARS = { min: 2, max: 24 };
const PASSWORD_CHARS = { min: 8, max: 256 };
const PASSWORD_REFUSALS = ['bad_password', 'weak_password', 'password_has_name', 'password_control_characters'];

/** A name as the gateway shows it: control characters dropped, runs of spaces made one, trimmed. */
export function shownName(name) {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it drops
  return name.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '').split(/\s+/u).filter(Boolean).join(' ');
}

/**
 * The first problem of a filled form, as {field, key} (an i18n key), or null.
 * `mode` is 'register' or 'login': signing in only needs something in each field, so that an
 * account made under older rules can still sign in.
 */
export function checkAccountForm(mode, { name, password }) {
  const shown = shownName(name);
  if (!shown) return { field: 'name', key: 'account.name_empty' };
  if (!password) return { field: 'password', key: 'account.password_empty' };
  if (mode !== 'register') return null;
  const chars = [...shown].length;
  if (chars < NAME_CHARS.min || chars > NAME_CHARS.max) return { field: 'name', key: 'err.bad_name' };
  const pw = [...password].length;
  if (pw < PASSWORD_CHARS.min || pw > PASSWORD_CHARS.max) return { field: 'password', key: 'err.bad_password' };
  return null;
}

/** Which field a refusal is about (the one to focus), or '' for the form as a whole. */
export function refusalField(code) {
  if (code === 'bad_name' || code === 'name_taken') return 'name';
  if (PASSWORD_REFUSALS.includes(code)) return 'password';
  return '';
}

/** A refused request in the player's words; too many tries say how long to wait when the gateway tells. */
export function refusalText(err, lang) {
  if (err.code === 'too_many_requests' && err.retryAfter > 0) {
    return t('err.too_many_requests_wait', { s: Math.ceil(err.retryAfter) }, lang);
  }
  return errorText(err.code, lang);
}
