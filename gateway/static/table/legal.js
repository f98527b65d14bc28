// What the view's legal actions allow, grouped for the buttons and the hand, and which way play goes.
// Pure module, unit-tested in node.

const CCW_RULESETS = ['candeias', 'colors108'];

/** The moves that put a card from the hand on the pile. */
export const CARD_ACTIONS = ['play', 'burn', 'quick', 'double'];

/** Whether +1 is drawn clockwise at this table (classic tables clockwise, the others counter-clockwise). */
export function isClockwise(ruleset, direction) {
  const plusIsCw = !CCW_RULESETS.includes(ruleset);
  return direction >= 0 ? plusIsCw : !plusIsCw;
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
