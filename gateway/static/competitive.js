// Competitive tables (⚔, docs/rankings.md), their pure part: the stake in words, the stakes the
// create form offers, the vote on the one who left, signed XP and chips. No DOM: unit-tested in node.

import { t } from './i18n.js';

export const OPENING_CHIPS = 1000; // every account's first balance (services/readmodels/rankings/outcome.py)
export const MAX_STAKE = 100000; // services/table/domain.py
export const STAKES = [10, 50, 100, 250, 500]; // what the create form offers; 50 first
export const DEFAULT_STAKE = 50;

/** A number the way the language writes it: "1.050" / "1,050". */
export function chipsNumber(n, lang) {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'pt-BR').format(Number(n) || 0);
}

/** "50 fichas" / "1 ficha" / "50 chips". */
export function chipsText(n, lang) {
  return t('chips.n', { n: Number(n) || 0, s: chipsNumber(n, lang) }, lang);
}

/** "⚔ 50 fichas": the mark of a competitive table; '' for any other. */
export function stakeText(stake, lang) {
  return stake > 0 ? `⚔ ${chipsText(stake, lang)}` : '';
}

/** A signed amount: "+20", "−10" (a true minus sign), "0". */
export function signed(n, lang) {
  const v = Number(n) || 0;
  if (v > 0) return `+${chipsNumber(v, lang)}`;
  if (v < 0) return `−${chipsNumber(-v, lang)}`;
  return '0';
}

/** "+20 XP" / "−10 XP". */
export function xpText(n, lang) {
  return `${signed(n, lang)} XP`;
}

/** The table's refusals of a seat at a competitive table, each explained where the seat is offered. */
export const SEAT_REFUSALS = ['account_needed', 'not_enough_chips', 'chips_reserved'];

/**
 * Whether this player may create (or sit at) a competitive table for `stake`:
 * null when they may, else the key of why not ('account_needed', 'bad_stake').
 * The chips are the gateway's to check (`not_enough_chips`): the form does not know them.
 */
export function stakeProblem(stake, account) {
  if (!account) return 'account_needed';
  if (!Number.isInteger(stake) || stake < 1 || stake > MAX_STAKE) return 'bad_stake';
  return null;
}

/** The body's `stake` of the create form: the chosen stake when the box is ticked, else 0. */
export function stakeOf(form) {
  return form.competitive && Number.isInteger(form.stake) && form.stake > 0 ? form.stake : 0;
}

/**
 * The vote on the one who left a competitive match, as `me` sees it (table_info.penalty), or null:
 * {leaver, voters, yes, no, penalised, open, mayVote, myVote, votes: [{seat, penalise}]}.
 * `open`: still undecided (not penalised, and a majority of yes still possible).
 */
export function penaltyOf(info, me) {
  const pen = info?.penalty;
  if (!pen || !(info.match_stake > 0)) return null;
  const voters = pen.voters || [];
  const votes = (pen.votes || []).filter((v) => voters.includes(v.seat));
  const yes = votes.filter((v) => v.penalise).length;
  const no = votes.length - yes;
  const mine = votes.find((v) => v.seat === me);
  const yesPossible = 2 * (yes + voters.length - votes.length) > voters.length;
  const open = !pen.penalised && votes.length < voters.length && yesPossible;
  return {
    leaver: pen.leaver, voters, votes, yes, no, penalised: !!pen.penalised, open,
    mayVote: open && voters.includes(me) && !mine, myVote: mine ? mine.penalise : null,
  };
}
