// Unit tests of the match's final standings and of what a competitive match gives and takes:
// node --test gateway/static/tests/
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { standings, stakeChanges } from '../table/standings.js';

const order = (rows) => rows.map((r) => [r.seat, r.place]);

test('where points are collected, the most points come first', () => {
  assert.deepEqual(order(standings({ scores: [40, 210, 95], winners: [1] })), [[1, 1], [2, 2], [0, 3]]);
});

test('where points count against, the fewest points come first', () => {
  assert.deepEqual(order(standings({ scores: [104, 12, 57], winners: [1], lowestWins: true })), [[1, 1], [2, 2], [0, 3]]);
});

test('equal scores share a place, and the next place skips', () => {
  assert.deepEqual(order(standings({ scores: [0, 30, 30, 45], winners: [0], lowestWins: true })),
    [[0, 1], [1, 2], [2, 2], [3, 4]]);
});

test('the winners come first whatever their points (a match given up)', () => {
  assert.deepEqual(order(standings({ scores: [150, 20], winners: [1] })), [[1, 1], [0, 2]]);
});

test('partners who won share the first place', () => {
  assert.deepEqual(order(standings({ scores: [300, 500, 120, 500], winners: [1, 3] })), [[1, 1], [3, 1], [0, 3], [2, 4]]);
});

test('a match without points: the winner first, the others share the next place', () => {
  assert.deepEqual(order(standings({ scores: [], winners: [2], seats: 3 })), [[2, 1], [0, 2], [1, 2]]);
});

test('a match nobody won is ordered by the points alone', () => {
  assert.deepEqual(order(standings({ scores: [10, 30, 20], winners: [] })), [[1, 1], [2, 2], [0, 3]]);
});

test('a competitive winner takes the pot and 10 XP per player; each loser gives the stake and 10 XP', () => {
  assert.deepEqual(stakeChanges({ match_stake: 10, players: [{}, {}, {}], winners: [1] }),
    [{ chips: -10, xp: -10 }, { chips: 20, xp: 30 }, { chips: -10, xp: -10 }]);
});

test('partners split the pot and the XP; the first winner keeps what does not divide', () => {
  assert.deepEqual(stakeChanges({ match_stake: 50, players: [{}, {}, {}, {}], winners: [0, 2] }),
    [{ chips: 50, xp: 20 }, { chips: -50, xp: -10 }, { chips: 50, xp: 20 }, { chips: -50, xp: -10 }]);
  assert.deepEqual(stakeChanges({ match_stake: 5, players: [{}, {}, {}], winners: [2, 0] }).map((c) => c.chips), [2, -5, 3]);
});

test('the one penalised for leaving loses 10 XP more', () => {
  const info = { match_stake: 50, players: [{}, {}], winners: [1], penalty: { leaver: 0, penalised: true } };
  assert.deepEqual(stakeChanges(info)[0], { chips: -50, xp: -20 });
});

test('nobody won: every stake goes back; a match for nothing shows no changes', () => {
  assert.deepEqual(stakeChanges({ match_stake: 50, players: [{}, {}], winners: [] }), [{ chips: 0, xp: 0 }, { chips: 0, xp: 0 }]);
  assert.equal(stakeChanges({ match_stake: 0, stake: 50, players: [{}, {}], winners: [0] }), null);
});
