// A page of an older build reloads once a welcome names another build, and only while hidden or
// between screens (freshness.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isStale, ownBuild, watchFreshness } from '../freshness.js';

test('a page knows its build by its entry module, and the sources have none', () => {
  assert.equal(ownBuild('https://mau.example/static/dist/app-TM4WKC4F.js'), 'app-TM4WKC4F.js');
  assert.equal(ownBuild('http://127.0.0.1:8080/static/app.js'), '');
});

test('stale only when both builds are known and differ', () => {
  assert.equal(isStale('app-AAAAAAAA.js', 'app-BBBBBBBB.js'), true);
  assert.equal(isStale('app-AAAAAAAA.js', 'app-AAAAAAAA.js'), false);
  assert.equal(isStale('app-AAAAAAAA.js', undefined), false); // a gateway of the release before
  assert.equal(isStale('app-AAAAAAAA.js', ''), false); // a gateway with no build
  assert.equal(isStale('', 'app-BBBBBBBB.js'), false); // the sources
});

function fakes(visibility) {
  const conn = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: visibility });
  const reloads = [];
  const fresh = watchFreshness(conn, 'app-AAAAAAAA.js', doc, () => reloads.push(doc.visibilityState));
  const welcome = (client) => conn.dispatchEvent(new CustomEvent('welcome', { detail: { type: 'welcome', client } }));
  return { doc, reloads, fresh, welcome };
}

test('a visible page told of a new build waits until it is hidden, then reloads', () => {
  const { doc, reloads, fresh, welcome } = fakes('visible');
  welcome('app-AAAAAAAA.js');
  assert.equal(fresh.stale, false);
  welcome('app-BBBBBBBB.js');
  assert.equal(fresh.stale, true);
  assert.deepEqual(reloads, []);
  doc.visibilityState = 'hidden';
  doc.dispatchEvent(new Event('visibilitychange'));
  assert.deepEqual(reloads, ['hidden']);
});

test('a hidden page reloads at the welcome, and a page of the served build never', () => {
  const hidden = fakes('hidden');
  hidden.welcome('app-BBBBBBBB.js');
  assert.deepEqual(hidden.reloads, ['hidden']);
  const current = fakes('visible');
  current.welcome('app-AAAAAAAA.js');
  current.doc.visibilityState = 'hidden';
  current.doc.dispatchEvent(new Event('visibilitychange'));
  assert.deepEqual(current.reloads, []);
});
