// "Sua vez!" wherever the player is (turns.js) and the presence lines of the log (issue 15).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { t } from '../i18n.js';
import { describeEvent, formatEntry } from '../table/eventlog.js';
import {
  badgeText, bareTitle, chatAfter, entryAfter, isMyTurn, lastLineTime, mergedRows, remember, tableOfPath,
  tablesToFollow, titleWith, unreadCount, waitingCount,
} from '../turns.js';
import { ensureLang } from '../i18n.js';

await ensureLang('en'); // English is a chunk of its own, fetched when chosen

const info = (over = {}) => ({ status: 'playing', my_seat: 1, auto: [], away: [], ruleset: 'classic32',
  players: [{ name: 'Ana', bot: false }, { name: 'Bia', bot: false }], ...over });
const view = (over = {}) => ({ turn: 1, round_over: false, ...over });
const frame = (seq, i, v) => ({ type: 'events', table: 't1', seq, table_info: i, view: v });

test('a table waits for the player on turn in a round under way, not in automatic mode', () => {
  assert.equal(isMyTurn(info(), view()), true);
  assert.equal(isMyTurn(info(), view({ turn: 0 })), false);
  assert.equal(isMyTurn(info(), view({ round_over: true })), false);
  assert.equal(isMyTurn(info({ status: 'over' }), view()), false);
  assert.equal(isMyTurn(info({ my_seat: -1 }), view({ turn: -1 })), false); // watching
  assert.equal(isMyTurn(info({ auto: [1] }), view()), false); // the system plays it at once
  assert.equal(isMyTurn(info(), null), false); // before the first deal
});

test('a table turns to the player: told once, never on the first picture', () => {
  const first = entryAfter(null, frame(5, info(), view()));
  assert.equal(first.myTurn, true);
  assert.equal(first.became, false); // the page just opened: the title says it, no beep
  const theirs = entryAfter(first, frame(6, info(), view({ turn: 0 })));
  assert.deepEqual([theirs.myTurn, theirs.became, theirs.onTurn], [false, false, 0]);
  const mine = entryAfter(theirs, frame(7, info(), view()));
  assert.deepEqual([mine.myTurn, mine.became, mine.seq], [true, true, 7]);
  const still = entryAfter(mine, frame(8, info(), view()));
  assert.equal(still.became, false);
  assert.deepEqual(mine.names, ['Ana', 'Bia']);
  const over = entryAfter(mine, frame(9, info(), view({ round_over: true })));
  assert.deepEqual([over.myTurn, over.onTurn], [false, null]);
});

test('chat lines: counted once, the unread are the others\' after the last read', () => {
  const a = { seat: 0, name: 'Ana', text: 'oi', time: 100 };
  const b = { seat: 1, name: 'Bia', text: 'olá', time: 200 };
  const c = { seat: 0, name: 'Ana', text: 'vamos', time: 300 };
  const lines = chatAfter(chatAfter([], [a, b]), [a, b, c]); // a new subscription sends the history again
  assert.equal(lines.length, 3);
  assert.equal(unreadCount(lines, 150, 1), 1); // Ana's 'vamos'; Bia's own line is not unread
  assert.equal(unreadCount(lines, null, 1), 2);
  assert.equal(unreadCount(lines, 300, 1), 0);
  assert.equal(lastLineTime(lines), 300);
  assert.equal(lastLineTime([]), 0);
  const many = Array.from({ length: 130 }, (_, i) => ({ seat: 0, name: 'Ana', text: `${i}`, time: i }));
  assert.equal(chatAfter([], many).length, 100);
});

test('the title and the icon count the tables waiting', () => {
  assert.equal(waitingCount([{ myTurn: true }, { myTurn: false }, { myTurn: true }]), 2);
  const prefix = t('turn.title', { n: 2 }, 'pt-BR');
  assert.equal(prefix, '(2) Sua vez!');
  assert.equal(t('turn.title', { n: 1 }, 'en'), '(1) Your turn!');
  const titled = titleWith('Ranking · Mau-Mau Online', 2, prefix);
  assert.equal(titled, '(2) Sua vez! · Ranking · Mau-Mau Online');
  assert.equal(bareTitle(titled), 'Ranking · Mau-Mau Online'); // a screen's own title, the count taken off
  assert.equal(bareTitle('(1) Your turn! · Mau-Mau Online'), 'Mau-Mau Online');
  assert.equal(bareTitle('Mau-Mau Online'), 'Mau-Mau Online');
  assert.equal(titleWith('Mau-Mau Online', 0, '(0) Sua vez!'), 'Mau-Mau Online');
  assert.deepEqual([badgeText(3), badgeText(12)], ['3', '9+']);
});

test('the watch follows the tables under way or in their lobby, newest first, a few', () => {
  const rows = [{ table_id: 'a', status: 'playing' }, { table_id: 'b', status: 'ended' },
    { table_id: 'c', status: 'lobby' }, { table_id: 'd', status: 'over' }, { table_id: 'e', status: 'playing' }];
  assert.deepEqual(tablesToFollow(rows), ['a', 'c', 'e']);
  assert.deepEqual(tablesToFollow(rows, 2), ['a', 'c']);
  assert.equal(tableOfPath('/m/abc-1'), 'abc-1');
  assert.equal(tableOfPath('/ranking'), null);
});

test('"Minhas mesas": the gateway\'s rows with what the socket says now, new tables first', () => {
  const rows = [
    { table_id: 'a', ruleset: 'classic32', status: 'lobby', seat: 0, on_turn: null, my_turn: false, last_move_at: 'x' },
    { table_id: 'b', ruleset: 'candeias', status: 'ended', seat: 1, on_turn: null, my_turn: false, last_move_at: 'y' }];
  const entries = [
    { table_id: 'a', ruleset: 'classic32', status: 'playing', seat: 0, onTurn: 0, myTurn: true, unread: 2, names: ['Ana', 'Bia'] },
    { table_id: 'n', ruleset: 'colors108', status: 'playing', seat: 2, onTurn: 0, myTurn: false, unread: 0, names: ['X', 'Y', 'Z'] },
    { table_id: 's', ruleset: 'colors108', status: 'playing', seat: -1, onTurn: 0, myTurn: false, unread: 0, names: [] }];
  const merged = mergedRows(rows, entries);
  assert.deepEqual(merged.map((r) => r.table_id), ['n', 'a', 'b']); // a table watched only ('s') is not the player's
  assert.deepEqual([merged[1].status, merged[1].my_turn, merged[1].on_turn, merged[1].unread], ['playing', true, 0, 2]);
  assert.equal(merged[1].last_move_at, 'x');
  assert.deepEqual([merged[2].status, merged[2].unread, merged[2].names], ['ended', 0, null]);
});

test('the turns told are remembered, the newest kept', () => {
  assert.deepEqual(remember(['a', 'b'], 'c'), ['a', 'b', 'c']);
  assert.deepEqual(remember(['a', 'b'], 'a'), ['b', 'a']);
  assert.deepEqual(remember(['a', 'b', 'c'], 'd', 3), ['b', 'c', 'd']);
});

test('the log says who went away and came back, and the robot playing for them', () => {
  globalThis.localStorage = undefined;
  const names = ['Ana', 'Bia'];
  const fmt = (ev, me = 1) => describeEvent(ev, { me, names, view: null }).map(formatEntry);
  assert.deepEqual(fmt({ type: 'PlayerAway', seat: 0 }), ['Ana saiu.']);
  assert.deepEqual(fmt({ type: 'PlayerBack', seat: 0 }), ['Ana voltou.']);
  assert.deepEqual(fmt({ type: 'AutoModeChanged', seat: 0, on: true, reason: 'away' }),
    ['Um robô 🤖 joga por Ana até Ana voltar.']);
  assert.deepEqual(fmt({ type: 'AutoModeChanged', seat: 1, on: true, reason: 'away' }),
    ['Um robô 🤖 jogou por você enquanto você estava fora.']);
  assert.deepEqual(fmt({ type: 'AutoModeChanged', seat: 0, on: false, reason: 'returned' }), ['Ana voltou a jogar.']);
  assert.equal(t('log.away', { name: 'Ana' }, 'en'), 'Ana went away.');
  assert.equal(t('standin.mark', { name: 'Ana' }, 'pt-BR'), 'jogando por Ana');
});

test('a table the screen and the turn watch both hold is unsubscribed only when neither does', async () => {
  const { Connection } = await import('../api.js');
  const conn = new Connection();
  const sent = [];
  conn._send = (frame) => { sent.push(frame); return true; };
  conn.follow('a'); // the watch, from "Minhas mesas"
  conn.subscribe('a', { seq: 7, hasPicture: true }); // the table's screen, with its cached picture
  assert.deepEqual(sent, [{ type: 'subscribe', table: 'a' }, { type: 'subscribe', table: 'a', since: 7 }]);
  conn.unsubscribe('a'); // the screen goes: the watch still follows it
  assert.equal(sent.length, 2);
  assert.equal(conn.tables.has('a'), true);
  conn.unfollow('a');
  assert.deepEqual(sent[2], { type: 'unsubscribe', table: 'a' });
  assert.equal(conn.tables.has('a'), false);
  conn.subscribe('b');
  conn.follow('b'); // shown already: no second subscription
  conn.unfollow('b'); // the screen still holds it
  assert.deepEqual(sent.slice(3), [{ type: 'subscribe', table: 'b' }]);
  conn.unsubscribe('b');
  assert.deepEqual(sent.slice(4), [{ type: 'unsubscribe', table: 'b' }]);
  conn.unsubscribe('b'); // nothing held: nothing sent again
  assert.equal(sent.length, 5);
});
