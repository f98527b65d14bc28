// Unit tests of "Jogar agora" (quickmatch.js: the ticket's life, with a fake API) and of the open tables
// (opentables.js: a table in words, the polling while the page is visible).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { mergeOpenTable, openTableText, pollWhileVisible } from '../opentables.js';
import {
  BOTS_AFTER_MS, botTableOptions, elapsedText, QUICK_SPEEDS, QuickMatch, quickChoice, retryDelay, speedText,
} from '../quickmatch.js';

const l = (pt, en) => ({ 'pt-BR': pt, en });
const CATALOG = {
  rulesets: [
    {
      name: 'classic32', label: l('Clássico 32', 'Classic 32'), seats: { min: 2, max: 4 }, lowest_wins: false, rounds: null,
      goal: { 2: 200 }, points: {},
      options: [
        { name: 'target_points', label: l('Meta de pontos', 'Points goal'), kind: 'number', default: null, min: 1, max: null, house: false },
        { name: 'turn_seconds', label: l('Tempo de jogada', 'Turn time'), kind: 'number', default: null, min: 1, max: null, house: false,
          values: [{ value: null, label: l('sem limite', 'no limit') }, { value: 15, label: l('15 s', '15 s') },
            { value: 30, label: l('30 s', '30 s') }, { value: 60, label: l('1 min', '1 min') }, { value: 120, label: l('2 min', '2 min') }] },
        { name: 'nine_draws', label: l('O 9 faz o próximo comprar 3', 'A 9 makes the next player draw 3'), kind: 'flag',
          default: 0, on: 3, off: 0, house: true },
        { name: 'mau_penalty', label: l('Castigo por esquecer o Mau', 'Penalty for a missed "Mau"'), kind: 'choice',
          default: 2, house: true, values: [{ value: 2, label: l('2 cartas', '2 cards') }, { value: 1, label: l('1 carta', '1 card') }] },
      ],
    },
    { name: 'candeias', label: l('Candeias', 'Candeias'), seats: { min: 2, max: 5 }, lowest_wins: true, rounds: 5,
      goal: null, points: {}, options: [] },
  ],
};

class Refused extends Error {
  constructor(status, code) { super(code); this.status = status; this.code = code; }
}

/** An API whose answers the test gives one by one: each call waits in `calls` until answered. */
function fakeApi() {
  const calls = [];
  const waiters = [];
  const call = (name) => (...args) => new Promise((resolve, reject) => {
    const c = { name, args, resolve, reject };
    calls.push(c);
    waiters.splice(0).forEach((w) => w());
  });
  const api = {
    quickMatch: call('quickMatch'), quickMatchStatus: call('quickMatchStatus'), cancelQuickMatch: call('cancelQuickMatch'),
    createTable: call('createTable'), bots: call('bots'), start: call('start'),
    left: [], leaveQuickMatch(ticket) { this.left.push(ticket); },
  };
  /** The next call not yet answered (waiting for it to be made). */
  async function next(name) {
    for (;;) {
      const c = calls.find((x) => !x.taken);
      if (c) {
        c.taken = true;
        assert.equal(c.name, name, `expected ${name}, got ${c.name}(${JSON.stringify(c.args)})`);
        return c;
      }
      await new Promise((resolve) => { waiters.push(resolve); });
    }
  }
  return { api, calls, next };
}

const tick = () => new Promise((resolve) => { setImmediate(resolve); });

function quick(api, extra = {}) {
  const seen = { tables: [], states: [] };
  const qm = new QuickMatch({
    api, onTable: (id) => seen.tables.push(id), onChange: (q) => seen.states.push(q.state), sleep: () => Promise.resolve(), ...extra,
  });
  return { qm, seen };
}

const CHOICE = { ruleset: 'classic32', seats: 2, turn_seconds: 30 };

test('the waiting screen counts minutes and seconds; retries come well within the ticket\'s 20 s', () => {
  assert.equal(elapsedText(0), '0:00');
  assert.equal(elapsedText(7400), '0:07');
  assert.equal(elapsedText(92000), '1:32');
  assert.equal(elapsedText(-5), '0:00');
  for (let n = 1; n < 30; n += 1) assert.ok(retryDelay(n) > 0 && retryDelay(n) <= 4000);
  assert.deepEqual(QUICK_SPEEDS, [0, 15, 30, 60, 120]);
  assert.deepEqual(botTableOptions(0), {});
  assert.deepEqual(botTableOptions(60), { turn_seconds: 60 });
});

test('a quick-match choice is always one the server takes', () => {
  assert.deepEqual(quickChoice(null, CATALOG), { ruleset: 'classic32', seats: 2, turn_seconds: 30 });
  assert.deepEqual(quickChoice({ ruleset: 'candeias', seats: 9, turn_seconds: 0 }, CATALOG), { ruleset: 'candeias', seats: 5, turn_seconds: 0 });
  assert.deepEqual(quickChoice({ ruleset: 'nope', seats: 'x', turn_seconds: 45 }, CATALOG), { ruleset: 'classic32', seats: 2, turn_seconds: 30 });
  assert.deepEqual(quickChoice({ ruleset: 'classic32', seats: 3 }, CATALOG, 'candeias'), { ruleset: 'candeias', seats: 3, turn_seconds: 30 });
  assert.equal(speedText(CATALOG, 'classic32', 0), 'sem limite');
  assert.equal(speedText(CATALOG, 'classic32', 60), '1 min');
  assert.equal(speedText(CATALOG, 'candeias', 30), '30 s'); // no such option described: the plain words
});

test('waiting, then matched: the long poll asks again until the table is found', async () => {
  const { api, next } = fakeApi();
  const { qm, seen } = quick(api);
  qm.start(CHOICE);
  assert.equal(qm.state, 'asking');
  (await next('quickMatch')).resolve({ ticket: 'T1', status: 'waiting', table_id: null });
  const first = await next('quickMatchStatus');
  assert.deepEqual(first.args, ['T1', 10]);
  assert.equal(qm.state, 'waiting');
  assert.ok(qm.active);
  first.resolve({ status: 'waiting', table_id: null }); // ten seconds went by
  (await next('quickMatchStatus')).reject(new Refused(503, 'unavailable')); // a gateway away: ask again
  (await next('quickMatchStatus')).resolve({ status: 'matched', table_id: 'abc' });
  await tick();
  assert.deepEqual(seen.tables, ['abc']);
  assert.equal(qm.state, 'matched');
  assert.ok(!qm.active);
  qm.leave(); // the home screen goes away once at the table: nothing to take back
  assert.deepEqual(api.left, []);
});

test('the last to arrive is matched at once', async () => {
  const { api, next } = fakeApi();
  const { qm, seen } = quick(api);
  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T2', status: 'matched', table_id: 'xyz' });
  await tick();
  assert.deepEqual(seen.tables, ['xyz']);
});

test('Cancelar takes the ticket back; a table found meanwhile is gone to', async () => {
  const { api, next } = fakeApi();
  const { qm, seen } = quick(api);
  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T3', status: 'waiting' });
  const poll = await next('quickMatchStatus');
  qm.cancel();
  assert.equal(qm.state, 'idle');
  const del = await next('cancelQuickMatch');
  assert.deepEqual(del.args, ['T3']);
  del.resolve({ status: 'cancelled', table_id: null });
  poll.resolve({ status: 'cancelled' }); // the poll's late answer changes nothing
  await tick();
  assert.equal(qm.state, 'idle');
  assert.equal(qm.error, null);
  assert.deepEqual(seen.tables, []);

  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T4', status: 'waiting' });
  await next('quickMatchStatus');
  qm.cancel();
  (await next('cancelQuickMatch')).resolve({ status: 'matched', table_id: 'late' });
  await tick();
  assert.deepEqual(seen.tables, ['late']);
});

test('cancelled while asking: the ticket that comes back is taken back', async () => {
  const { api, next } = fakeApi();
  const { qm } = quick(api);
  qm.start(CHOICE);
  const ask = await next('quickMatch');
  qm.cancel();
  ask.resolve({ ticket: 'T5', status: 'waiting' });
  assert.deepEqual((await next('cancelQuickMatch')).args, ['T5']);
  assert.equal(qm.state, 'idle');
});

test('leaving the page takes the ticket back with a request that outlives it', async () => {
  const { api, next } = fakeApi();
  const { qm } = quick(api);
  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T6', status: 'waiting' });
  const poll = await next('quickMatchStatus');
  qm.leave();
  assert.deepEqual(api.left, ['T6']);
  assert.equal(qm.state, 'idle');
  poll.resolve({ status: 'waiting' });
  await tick();
  assert.equal(qm.state, 'idle'); // no more questions
  qm.leave();
  assert.deepEqual(api.left, ['T6']);
});

test('a ticket dropped by the server (or taken back by another tab) ends the wait, saying so', async () => {
  const { api, next } = fakeApi();
  const { qm } = quick(api);
  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T7', status: 'waiting' });
  (await next('quickMatchStatus')).resolve({ status: 'cancelled', table_id: null });
  await tick();
  assert.equal(qm.state, 'idle');
  assert.equal(qm.error, 'quick_dropped');
});

test('after 30 s the bots are offered: the ticket taken back, a table made, bots seated, started', async () => {
  let now = 0;
  const { api, next } = fakeApi();
  const { qm, seen } = quick(api, { now: () => now });
  qm.start({ ruleset: 'classic32', seats: 3, turn_seconds: 15 });
  (await next('quickMatch')).resolve({ ticket: 'T8', status: 'waiting' });
  const poll = await next('quickMatchStatus');
  now = BOTS_AFTER_MS - 1;
  assert.ok(!qm.botsOffered());
  now = BOTS_AFTER_MS;
  assert.ok(qm.botsOffered());
  qm.fillWithBots();
  assert.equal(qm.state, 'filling');
  assert.ok(qm.active);
  qm.cancel(); // Cancelar is disabled meanwhile: nothing happens
  assert.equal(qm.state, 'filling');
  (await next('cancelQuickMatch')).resolve({ status: 'cancelled' });
  poll.resolve({ status: 'cancelled' }); // the taken-back ticket's poll: ignored
  const create = await next('createTable');
  assert.deepEqual(create.args, ['classic32', { turn_seconds: 15 }, 3]);
  create.resolve({ table_id: 'bots1', invitation: 'x' });
  const bots = await next('bots');
  assert.deepEqual(bots.args, ['bots1']);
  bots.resolve({ ok: true });
  const start = await next('start');
  assert.deepEqual(start.args, ['bots1']);
  start.resolve({ ok: true });
  await tick();
  assert.deepEqual(seen.tables, ['bots1']);
  assert.equal(qm.state, 'matched');
});

test('Completar com robôs when a table was found just then: that table', async () => {
  const { api, next } = fakeApi();
  const { qm, seen } = quick(api);
  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T9', status: 'waiting' });
  await next('quickMatchStatus');
  qm.fillWithBots();
  (await next('cancelQuickMatch')).resolve({ status: 'matched', table_id: 'people' });
  await tick();
  assert.deepEqual(seen.tables, ['people']);
});

test('Completar com robôs unanswered: the ticket still waits, and is asked about again', async () => {
  const { api, next } = fakeApi();
  const { qm } = quick(api);
  qm.start(CHOICE);
  (await next('quickMatch')).resolve({ ticket: 'T10', status: 'waiting' });
  await next('quickMatchStatus');
  qm.fillWithBots();
  (await next('cancelQuickMatch')).reject(new Refused(503, 'unavailable'));
  const again = await next('quickMatchStatus');
  assert.deepEqual(again.args, ['T10', 10]);
  assert.equal(qm.state, 'waiting');
});

test('a refused quick match says why and waits for nothing', async () => {
  const { api, next } = fakeApi();
  const { qm } = quick(api);
  qm.start({ ...CHOICE, seats: 99 });
  (await next('quickMatch')).reject(new Refused(400, 'bad_options'));
  await tick();
  assert.equal(qm.state, 'idle');
  assert.equal(qm.error, 'bad_options');
});

/** A document whose visibility the test sets, and timers it runs by hand. */
function fakePage() {
  const doc = new EventTarget();
  doc.visibilityState = 'visible';
  const pending = new Map();
  let id = 0;
  const timers = {
    setTimeout: (fn, ms) => { id += 1; pending.set(id, { fn, ms }); return id; },
    clearTimeout: (n) => { pending.delete(n); },
  };
  const show = (state) => { doc.visibilityState = state; doc.dispatchEvent(new Event('visibilitychange')); };
  const fire = async () => {
    const [[n, t]] = pending;
    pending.delete(n);
    await t.fn();
  };
  return { doc, timers, pending, show, fire };
}

test('the open tables are asked for every few seconds while the page is visible, never while hidden', async () => {
  const page = fakePage();
  let runs = 0;
  const stop = pollWhileVisible(() => { runs += 1; }, 4000, page);
  await tick();
  assert.equal(runs, 1);
  assert.equal(page.pending.size, 1);
  assert.equal([...page.pending.values()][0].ms, 4000);
  await page.fire();
  assert.equal(runs, 2);
  page.show('hidden');
  assert.equal(page.pending.size, 0); // nothing asked while hidden
  page.show('visible'); // at once when seen again
  await tick();
  assert.equal(runs, 3);
  assert.equal(page.pending.size, 1);
  stop();
  assert.equal(page.pending.size, 0);
  page.show('hidden');
  page.show('visible');
  await tick();
  assert.equal(runs, 3);
});

test('a failed question does not stop the polling', async () => {
  const page = fakePage();
  let runs = 0;
  const stop = pollWhileVisible(async () => { runs += 1; throw new Error('away'); }, 1000, page);
  await tick();
  assert.equal(page.pending.size, 1);
  await page.fire();
  await tick();
  assert.equal(runs, 2);
  assert.equal(page.pending.size, 1);
  stop();
});

test('an open table in words: what it changed, who sits, the free seats, the turn time, the category', () => {
  const table = {
    table_id: 't1', ruleset: 'classic32', options: { turn_seconds: 60, nine_draws: 3, mau_penalty: 2, target_points: 300 },
    seats: 4, players: ['Ana', 'Bruno'], free: 2, category: 'official', turn_seconds: 60,
  };
  const w = openTableText(CATALOG, table);
  assert.equal(w.ruleset, 'Clássico 32');
  assert.deepEqual(w.rules, ['Meta de pontos: 300', '✓ O 9 faz o próximo comprar 3']); // the default penalty is not said
  assert.equal(w.players, 'Ana e Bruno');
  assert.equal(w.free, '2 lugares livres');
  assert.equal(w.turn, 'Tempo de jogada: 1 min');
  assert.equal(w.category, 'official');
  const plain = openTableText(CATALOG, { ruleset: 'classic32', options: {}, players: ['Ana'], free: 1, category: 'training',
    turn_seconds: null });
  assert.deepEqual(plain.rules, []);
  assert.equal(plain.free, '1 lugar livre');
  assert.equal(plain.turn, 'Tempo de jogada: sem limite');
  assert.equal(plain.category, 'training');
  assert.equal(openTableText(CATALOG, { ruleset: 'unknown', options: {}, players: [], free: 2 }).ruleset, 'unknown');
});

test('a live line puts a new open table first, keeps a known one in place, and takes a full one away', () => {
  const a = { table_id: 'a', listed: true, free: 1 };
  const b = { table_id: 'b', listed: true, free: 2 };
  assert.deepEqual(mergeOpenTable([a], b).map((t) => t.table_id), ['b', 'a']);
  const fewer = { ...b, free: 1 };
  assert.deepEqual(mergeOpenTable([a, b], fewer), [a, fewer]);
  assert.deepEqual(mergeOpenTable([a, b], { ...a, listed: false, free: 0 }), [b]);
  assert.deepEqual(mergeOpenTable([a], { table_id: 'z', listed: false }), [a]);
  assert.equal(mergeOpenTable([a, b], { table_id: 'c', listed: true }, 2).length, 2);
});

test('Jogar contra robôs: one tap makes a training table of the choices, fills it with bots and starts it', async () => {
  const { api, next, calls } = fakeApi();
  const { qm, seen } = quick(api);
  qm.playBots({ ruleset: 'candeias', seats: 3, turn_seconds: 0 });
  assert.equal(qm.state, 'filling');
  const create = await next('createTable');
  assert.deepEqual(create.args, ['candeias', {}, 3]);
  create.resolve({ table_id: 'bots2', invitation: 'x' });
  (await next('bots')).resolve({ ok: true });
  const start = await next('start');
  assert.deepEqual(start.args, ['bots2']);
  start.resolve({ ok: true });
  await tick();
  assert.deepEqual(seen.tables, ['bots2']);
  assert.equal(qm.state, 'matched');
  assert.ok(!calls.some((c) => c.name === 'quickMatch'), 'no ticket asked');
});

test('Jogar contra robôs refused: back to the choices, saying why', async () => {
  const { api, next } = fakeApi();
  const { qm, seen } = quick(api);
  qm.playBots({ ruleset: 'classic32', seats: 2, turn_seconds: 30 });
  (await next('createTable')).reject(new Refused(429, 'too_many_requests'));
  await tick();
  assert.equal(qm.state, 'idle');
  assert.equal(qm.error, 'too_many_requests');
  assert.deepEqual(seen.tables, []);
});
