// The move notation, the client's mirror of services/rules/actions.py (move_fields/move_text): one
// move as one string ("JH=S!", "draw", "double:7H,7H"), read into the plain form a move has in the
// protocol ({do, card, with, cards, choose, announce, target}) and written back. Syntax only: which
// cards and suits exist, and what is legal, the rules engine says. Pure module; its node test reads
// the examples the Python side writes (gateway/static/tests/moves.json), so the two cannot drift.
// Grammar: docs/protocol.md, "Move notation".

export const MAX_MOVE = 32;
const NAMED = new Set(['draw', 'pass', 'challenge_wild']);
const PREFIXED = new Set(['burn', 'quick', 'double', 'challenge', 'choose']);
const KINDS = new Set(['play', ...NAMED, ...PREFIXED]);
const NAME = /^[0-9A-Za-z+]+$/;
const SEAT = /^(0|[1-9][0-9]?)$/;

/** A text that is not a move (the Python side's MoveError). */
export class MoveError extends Error {}

/** @param {string} token */
const isName = (token) => NAME.test(token) && !KINDS.has(token);

/** @param {string} text @param {string} sep @returns {[string, boolean, string]} like Python's str.partition */
function partition(text, sep) {
  const at = text.indexOf(sep);
  return at < 0 ? [text, false, ''] : [text.slice(0, at), true, text.slice(at + sep.length)];
}

/**
 * @typedef {{do: string, card?: string, with?: string, cards?: string[], choose?: string,
 *   announce?: string, target?: number, seat?: number}} MoveFields
 */

/**
 * The plain form of a move's text; throws MoveError when it is not the notation.
 * @param {unknown} text
 * @returns {MoveFields}
 */
export function parseMove(text) {
  if (typeof text !== 'string' || text.length < 1 || text.length > MAX_MOVE) {
    throw new MoveError(`a move is a string of 1 to ${MAX_MOVE} characters`);
  }
  const malformed = () => new MoveError(`${JSON.stringify(text)} is not a move`);
  const body = text.replace(/!+$/, '');
  const marks = text.length - body.length;
  const [kind, colon, argument] = partition(body, ':');
  /** @type {MoveFields} */
  let d;
  if (colon) {
    if (!PREFIXED.has(kind)) throw malformed();
    d = { do: kind };
    if (kind === 'double') {
      const [first, comma, second] = partition(argument, ',');
      if (!(comma && isName(first) && isName(second))) throw malformed();
      d.cards = [first, second];
    } else if (kind === 'challenge') {
      if (!SEAT.test(argument)) throw malformed();
      d.target = Number(argument);
    } else if (!isName(argument)) {
      throw malformed();
    } else if (kind === 'choose') {
      d.choose = argument;
    } else {
      d.card = argument;
    }
  } else if (NAMED.has(body)) {
    d = { do: body };
  } else {
    const [cards, equals, chosen] = partition(body, '=');
    const [card, ampersand, companion] = partition(cards, '&');
    if (!isName(card) || (ampersand && !isName(companion)) || (equals && !isName(chosen))) throw malformed();
    d = { do: 'play', card };
    if (ampersand) d.with = companion;
    if (equals) d.choose = chosen;
  }
  if (marks > 2) throw malformed();
  if (marks) d.announce = marks === 1 ? 'mau' : 'maumau';
  return d;
}

/**
 * A move's text from its plain form (a `seat` in it is not part of the notation).
 * @param {MoveFields} d
 * @returns {string}
 */
export function formatMove(d) {
  let text;
  if (d.do === 'play') text = `${d.card}${d.with ? `&${d.with}` : ''}${d.choose ? `=${d.choose}` : ''}`;
  else if (d.do === 'double') text = `double:${d.cards?.[0]},${d.cards?.[1]}`;
  else if (d.do === 'burn' || d.do === 'quick') text = `${d.do}:${d.card}`;
  else if (d.do === 'challenge') text = `challenge:${d.target}`;
  else if (d.do === 'choose') text = `choose:${d.choose}`;
  else text = d.do;
  return text + (d.announce === 'mau' ? '!' : d.announce === 'maumau' ? '!!' : '');
}

/**
 * An action as a frame carries it, read from its `move`: the fields the server sends beside it are
 * for the pages of the release before, which knew no notation (docs/operations.md, "Upgrade").
 * An action without a move, or with one this page cannot read, is taken as its fields say.
 * @template {MoveFields & {move?: string}} A
 * @param {A} a
 * @returns {A}
 */
export function fromMove(a) {
  if (!a || typeof a.move !== 'string') return a;
  try {
    return /** @type {A} */ ({ ...(a.seat === undefined ? {} : { seat: a.seat }), ...parseMove(a.move), move: a.move });
  } catch (e) {
    if (e instanceof MoveError) return a;
    throw e;
  }
}

/**
 * A `state` or `events` frame (or a replay's step) with every action in it read from its move.
 * @template {{view?: any, events?: any[]}} F
 * @param {F} frame
 * @returns {F}
 */
export function readMoves(frame) {
  if (!frame.view && !frame.events) return frame; // chat, presence, errors: no move to read
  const view = frame.view?.legal_actions ? { ...frame.view, legal_actions: frame.view.legal_actions.map(fromMove) } : frame.view;
  const events = frame.events?.map((ev) => (ev.action ? { ...ev, action: fromMove(ev.action) } : ev));
  return { ...frame, ...(view === undefined ? {} : { view }), ...(events === undefined ? {} : { events }) };
}
