// The match's final standings and, at a competitive table (⚔), what each seat won or lost: pure
// functions of table_info, the view's scores and the ruleset's description (catalog.js), so the
// match-end screen (matchend.js) only draws them. Unit-tested in node (tests/standings.test.mjs).

/**
 * The seats in their final order, each `{seat, score, place, winner}`. The winners come first
 * (table_info.winners decides: a match given up is won by whoever stayed, whatever the points),
 * then the points: most first where the ruleset collects them, fewest first where they count
 * against (the catalog's `lowest_wins`: classic52, candeias). Equal standings share a place and
 * the next place skips (1, 2, 2, 4), as in the rankings.
 *
 *   standings({ scores: [12, 3, 12], winners: [1], lowestWins: true }).map((r) => r.place) // [1, 2, 2]
 */
export function standings({ scores = [], winners = [], lowestWins = false, seats = scores.length }) {
  const rows = Array.from({ length: seats }, (_, seat) => ({ seat, score: Number(scores[seat]) || 0, winner: winners.includes(seat) }));
  const better = (a, b) => (lowestWins ? a.score - b.score : b.score - a.score);
  const sameStanding = (a, b) => a.winner === b.winner && (a.winner || a.score === b.score);
  rows.sort((a, b) => (a.winner === b.winner ? better(a, b) || a.seat - b.seat : (a.winner ? -1 : 1)));
  let place = 0;
  return rows.map((row, i) => {
    if (i === 0 || !sameStanding(rows[i - 1], row)) place = i + 1;
    return { ...row, place };
  });
}

/**
 * What each seat's chips and XP did at a competitive match's end, `[{chips, xp}]` by seat, or
 * null when the match was played for nothing. Derived from what the frame carries (the stake of
 * this match, the winners, the penalty) by the rules of docs/rankings.md: the winners share the
 * pot (the first winner keeps what does not divide) and 10 XP × the players (split among
 * partners); a loser gives the stake and 10 XP (10 more when penalised for leaving); nobody won:
 * every stake goes back and no XP moves.
 *
 *   stakeChanges({ match_stake: 50, players: [{}, {}, {}], winners: [2] })
 *   // [{chips: -50, xp: -10}, {chips: -50, xp: -10}, {chips: 100, xp: 30}]
 */
export function stakeChanges(info) {
  const stake = info.match_stake || 0;
  const seats = info.players?.length || 0;
  if (!(stake > 0) || !seats) return null;
  const winners = info.winners || [];
  if (!winners.length) return Array.from({ length: seats }, () => ({ chips: 0, xp: 0 }));
  const pot = stake * seats;
  const share = Math.floor(pot / winners.length);
  const xpShare = Math.floor((10 * seats) / winners.length);
  const leaver = info.penalty?.penalised ? info.penalty.leaver : -1;
  return Array.from({ length: seats }, (_, seat) => {
    const at = winners.indexOf(seat);
    if (at < 0) return { chips: -stake, xp: seat === leaver ? -20 : -10 };
    return { chips: share + (at === 0 ? pot - share * winners.length : 0) - stake, xp: xpShare };
  });
}
