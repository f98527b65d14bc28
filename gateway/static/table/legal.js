// What the view's legal actions allow, grouped for the buttons and the hand, and which way play goes.
// Pure module, unit-tested in node.

/** The moves that put a card from the hand on the pile. */
export const CARD_ACTIONS = ['play', 'burn', 'quick', 'double'];

/**
 * Whether play goes clockwise now: `plusIsCw` says how the table's seats are drawn (the
 * catalog's `turns`: classic52 clockwise, classic32, candeias and colors108 counter-clockwise),
 * `direction` the view's (+1, or -1 after a reverse).
 */
export function isClockwise(plusIsCw, direction) {
  return direction >= 0 ? plusIsCw : !plusIsCw;
}

/**
 * ace_with_company: the legal plays of one card that take a companion (`with`), by companion.
 * Empty when the card is played alone.
 */
export function companionsOf(plays) {
  const by = new Map();
  for (const a of plays || []) {
    if (!a.with) continue;
    if (!by.has(a.with)) by.set(a.with, []);
    by.get(a.with).push(a);
  }
  return by;
}

/** Of several legal spellings of one move, the one with the call when the player said it, else without. */
export function pickAnnounce(candidates, announce) {
  if (!candidates.length) return null;
  if (announce) {
    const said = candidates.find((a) => a.announce);
    if (said) return said;
  }
  return candidates.find((a) => !a.announce) || candidates[0];
}

/** What the legal actions allow, grouped for the buttons and the hand. */
export function groupLegal(legal) {
  const g = {
    plays: new Map(), draw: null, pass: null, burn: [], quick: [], doubles: new Map(), challenges: new Map(),
    challengeWild: null, choose: [], announces: new Set(),
  };
  for (const a of legal || []) {
    if (a.announce) g.announces.add(a.announce);
    switch (a.do) {
      case 'play':
        if (!g.plays.has(a.card)) g.plays.set(a.card, []);
        g.plays.get(a.card).push(a);
        break;
      case 'draw': g.draw = a; break;
      case 'pass': g.pass = a; break;
      case 'burn': g.burn.push(a); break;
      case 'quick': g.quick.push(a); break;
      case 'double': {
        const card = a.cards[0];
        if (!g.doubles.has(card)) g.doubles.set(card, []);
        g.doubles.get(card).push(a);
        break;
      }
      case 'challenge': g.challenges.set(a.target, a); break;
      case 'challenge_wild': g.challengeWild = a; break;
      case 'choose': g.choose.push(a); break;
      default: break;
    }
  }
  return g;
}
