// The seats around the felt (table/felt.js): one's own at the bottom, the others around the rim in play order.

import assert from 'node:assert/strict';
import test from 'node:test';

import { rimPoint, seatOrder, seatSpots } from '../table/felt.js';

// the angle of a spot around the middle, from the bottom, turning left, up, then right
const angle = ({ x, y }) => (Math.atan2(-(x - 50), y - 50) + 2 * Math.PI) % (2 * Math.PI);

test('the rim: bottom, left, top and right', () => {
  assert.deepEqual(rimPoint(0), { x: 50, y: 100 });
  assert.deepEqual(rimPoint(Math.PI / 2), { x: 0, y: 50 });
  assert.deepEqual(rimPoint(Math.PI), { x: 50, y: 0 });
  assert.deepEqual(rimPoint(1.5 * Math.PI), { x: 100, y: 50 });
});

test('one\'s own seat at the bottom, the others above it', () => {
  for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    for (const me of [0, n - 1]) {
      const spots = seatSpots(n, me, true);
      assert.equal(spots.length, n);
      assert.deepEqual(spots[0], { seat: me, x: 50, y: 100, bottom: true });
      assert.deepEqual(new Set(spots.map((s) => s.seat)).size, n);
      for (const s of spots.slice(1)) assert.ok(s.y < 100 && !s.bottom, `${n}/${me}: ${JSON.stringify(s)}`);
    }
  }
});

test('two seats face each other; four sit left, across and right', () => {
  assert.deepEqual(seatSpots(2, 0, true)[1], { seat: 1, x: 50, y: 0, bottom: false });
  const four = seatSpots(4, 0, true).slice(1);
  assert.deepEqual(four.map((s) => s.seat), [1, 2, 3]); // clockwise: the next player at one's left
  assert.ok(four[0].x < 50 && four[2].x > 50 && four[1].x === 50);
  const ccw = seatSpots(4, 0, false).slice(1);
  assert.deepEqual(ccw.map((s) => s.seat), [3, 2, 1]); // counter-clockwise: the next player at one's right
});

test('in play order around the rim, evenly, leaving room beside the bottom seat', () => {
  for (const n of [3, 6, 10]) {
    const others = seatSpots(n, 2 % n, true).slice(1);
    const angles = others.map(angle);
    assert.deepEqual(angles, [...angles].sort((a, b) => a - b));
    const steps = angles.slice(1).map((a, i) => a - angles[i]);
    for (const s of steps) assert.ok(Math.abs(s - steps[0]) < 0.01, `${n}: ${steps}`);
    assert.ok(angles[0] > 0.7 && angles[angles.length - 1] < 2 * Math.PI - 0.7, `${n}: ${angles}`);
    assert.deepEqual(others.map((s) => s.seat), seatOrder(n, 2 % n, true));
  }
});

test('a spectator sees the table from seat 0\'s place', () => {
  const spots = seatSpots(3, -1, false);
  assert.deepEqual(spots.map((s) => s.seat), [0, 2, 1]);
  assert.equal(spots[0].bottom, true);
});

test('a card dragged near the pile is dropped on it', async () => {
  const { overRect } = await import('../table/drag.js');
  const pile = { left: 100, right: 160, top: 50, bottom: 134 };
  assert.ok(overRect(130, 90, pile));
  assert.ok(overRect(80, 40, pile)); // a little outside still counts
  assert.ok(!overRect(60, 90, pile));
  assert.ok(!overRect(130, 200, null));
});
