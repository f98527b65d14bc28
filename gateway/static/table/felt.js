// Where each seat sits around the oval felt, as a player at a real table sees it: their own seat
// at the bottom, the others around the rim in the order seatOrder gives (left to right across
// the table). Pure geometry, unit-tested in node.

const GAP = (40 * Math.PI) / 180; // the rim left free on each side of the bottom seat, for its hand

/**
 * The other seats from left to right as this viewer sees them across the table: in playing
 * order from the one after this viewer's (after seat 0 for a spectator) when seats go clockwise
 * (the next player at one's left), in the reverse order when they go counter-clockwise
 * (classic32's "o jogo anda para a direita": the next player at one's right).
 */
export function seatOrder(n, me, clockwise = true) {
  const start = me >= 0 ? me + 1 : 0;
  const order = [];
  for (let k = 0; k < n; k += 1) {
    const s = (start + k) % n;
    if (s !== me) order.push(s);
  }
  return clockwise ? order : order.reverse();
}

const round1 = (x) => Math.round(x * 10) / 10;

/**
 * The point of the rim at angle `a` from the bottom, turning left, up, then right (screen
 * clockwise), in % of the box the seats' centres may take (styles.css keeps a seat's half inside).
 */
export function rimPoint(a) {
  return { x: round1(50 - 50 * Math.sin(a)), y: round1(50 + 50 * Math.cos(a)) };
}

/**
 * Every seat this viewer sees on the rim: [{seat, x, y, bottom}] (x, y: rimPoint's).
 * A player's own seat is the bottom one (its hand is drawn under the felt); a spectator sees the
 * table from seat 0's place, seat 0 at the bottom. The others share the rim above, evenly spaced.
 */
export function seatSpots(n, me, clockwise = true) {
  const from = me >= 0 ? me : 0;
  const others = seatOrder(n, from, clockwise);
  const step = (2 * Math.PI - 2 * GAP) / (others.length + 1);
  const spots = others.map((seat, i) => ({ seat, ...rimPoint(GAP + step * (i + 1)), bottom: false }));
  return [{ seat: from, ...rimPoint(0), bottom: true }, ...spots];
}
