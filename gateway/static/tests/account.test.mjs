// Unit tests of the account forms' pure part: node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkAccountForm, refusalField, refusalText, shownName } from '../account.js';
import { errorText } from '../i18n.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

test('a name as the gateway shows it', () => {
  assert.equal(shownName('  Ana   Maria '), 'Ana Maria');
  assert.equal(shownName('Zo\u0000ë\t'), 'Zoë');
  assert.equal(shownName('   '), '');
});

test('creating an account checks the lengths the accounts service takes', () => {
  const ok = { name: 'Ana', password: 'baralho-de-32' };
  assert.equal(checkAccountForm('register', ok), null);
  assert.deepEqual(checkAccountForm('register', { ...ok, name: ' ' }), { field: 'name', key: 'account.name_empty' });
  assert.deepEqual(checkAccountForm('register', { ...ok, name: 'A' }), { field: 'name', key: 'err.bad_name' });
  assert.deepEqual(checkAccountForm('register', { ...ok, name: 'x'.repeat(25) }), { field: 'name', key: 'err.bad_name' });
  assert.equal(checkAccountForm('register', { ...ok, name: `  ${'x'.repeat(24)}  ` }), null);
  assert.equal(checkAccountForm('register', { ...ok, name: '😀😀' }), null); // characters, not UTF-16 units
  assert.deepEqual(checkAccountForm('register', { ...ok, password: '' }), { field: 'password', key: 'account.password_empty' });
  assert.deepEqual(checkAccountForm('register', { ...ok, password: '1234567' }), { field: 'password', key: 'err.bad_password' });
  assert.deepEqual(checkAccountForm('register', { ...ok, password: 'x'.repeat(257) }), { field: 'password', key: 'err.bad_password' });
});

test('signing in only needs both fields filled', () => {
  assert.equal(checkAccountForm('login', { name: 'A', password: '1' }), null);
  assert.deepEqual(checkAccountForm('login', { name: '', password: '1' }), { field: 'name', key: 'account.name_empty' });
  assert.deepEqual(checkAccountForm('login', { name: 'Ana', password: '' }), { field: 'password', key: 'account.password_empty' });
});

test('every refusal of the accounts endpoints has its own words, in both languages', () => {
  for (const code of ['bad_name', 'bad_password', 'weak_password', 'password_has_name', 'password_control_characters',
    'bad_avatar', 'name_taken', 'guest_taken', 'already_registered',
    'bad_credentials', 'no_account', 'no_session', 'bad_origin', 'too_many_requests', 'unavailable', 'network', 'bad_request']) {
    for (const lang of ['pt-BR', 'en']) {
      assert.doesNotMatch(errorText(code, lang), /Algo deu errado|Something went wrong/, `${code} ${lang}`);
    }
  }
  assert.equal(errorText('bad_credentials', 'pt-BR'), 'Nome ou senha errados');
  assert.equal(errorText('name_taken', 'en'), 'That name belongs to someone else: pick another');
});

test('too many tries say how long to wait when the gateway tells', () => {
  assert.equal(refusalText({ code: 'too_many_requests', retryAfter: 42 }, 'pt-BR'),
    'Muitas tentativas seguidas: espere 42 s e tente de novo');
  assert.equal(refusalText({ code: 'too_many_requests', retryAfter: 0 }, 'en'), errorText('too_many_requests', 'en'));
  assert.equal(refusalText({ code: 'bad_origin' }, 'pt-BR'), errorText('bad_origin', 'pt-BR'));
});

test('a refusal points at the field it is about', () => {
  assert.equal(refusalField('name_taken'), 'name');
  assert.equal(refusalField('bad_name'), 'name');
  for (const code of ['bad_password', 'weak_password', 'password_has_name', 'password_control_characters']) {
    assert.equal(refusalField(code), 'password', code);
  }
  assert.equal(refusalField('bad_credentials'), ''); // never tells which of the two was wrong
});
