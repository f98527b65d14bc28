"""``maumau bench bots``: the strong bot against three opponents of one kind, beside an outside anchor and an oracle.

Self-play through the engine only. A game is one round from a seeded deal (``deal`` and
``evolve``); its winner is ``round_winner``. Deal ``d`` seats the bot under test ("the
side") at seat ``d % players`` and opponents of one kind (``weak``, ``medium`` or
``random``) everywhere else. Each side plays the same deals against the same opponents
with the same random seeds, so two sides are compared deal by deal (paired):

* ``strong``: the strongest bot (``strategy.strong``), always;
* ``ismcts`` (``--anchor ismcts``): OpenSpiel's stock ``ISMCTSBot`` over our engine
  (``bench/ismcts_anchor.py``; it needs the ``anchor`` extra: ``make bench-bots``);
* ``medium`` and ``oracle`` (``--oracle``): the medium bot in the same seat, the baseline,
  and the oracle (``oracle.py``), which sees every hand: where the strong bot stands between
  them is ``strong_position`` (0 at medium, 1 at the oracle).

Random players pick uniformly among all legal actions (calls or not). Out of turn, every
seat with a legal action (a challenge, a quick action, an opening burn) is asked in seat
order after the player on turn — a random player takes one of them or lets go, with equal
odds for each. Win rates come with Wilson 95% intervals; ``strong_minus_anchor`` is the
mean of the per-deal differences (won 1, lost 0) with a normal-approximation 95% interval.
``<side>_ms_used`` is the wall-clock time a side really took per move where it had a choice
(on turn, more than one legal action), against the budget ``ms_per_move``;
``anchor_simulations`` the simulations the anchor ran in such a move, on average.
``strong_searches`` is the strong side's searches per decision where it searched
(``strategy.Searched``: one search is one rollout, a candidate played in a sampled world to
the round's end), mean and median, ``strong_worlds`` the worlds it sampled in such a decision,
``strong_cpu_us_per_search`` the CPU time of those decisions per search.

>>> play_game("classic32", 3, 0, "strong", "weak", seed=1, ms_per_move=1.0).won in (True, False)
True
>>> wilson(50, 100)
(0.4038, 0.5962)
>>> paired([1, 0, 1, 1], [0, 0, 1, 0])
(0.5, [-0.0658, 1.0658])
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TextIO

from services.bots.knowledge import knowledge_from
from services.bots.oracle import oracle
from services.bots.reading import Reading, observe
from services.bots.strategy import Searched, decide
from services.rules.actions import Action
from services.rules.cards import Seat
from services.rules.decider import deal, evolve
from services.rules.engine import apply, check, legal_actions, new_match
from services.rules.state import State

MAX_STEPS = 20_000  # a round that long is counted as a loss (never seen)
OPPONENTS = ("weak", "medium", "random")
ANCHORS = ("ismcts",)
PROGRESS_LINES = 20  # a long run says how far it is this many times
BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"  # the anchor's modules (not a package of the project)

Decider = Callable[[State, Seat, random.Random, Reading], Action | None]


class Anchor(Protocol):
    simulations: int  # searched so far

    def decide(self, s: State, seat: Seat, rng: random.Random) -> Action | None: ...


class AnchorMissing(RuntimeError):
    """The anchor's optional extra (OpenSpiel) is not installed."""


@dataclass(frozen=True)
class Game:
    """One game of one side: whether the side's seat won, and the time its choices took."""

    side: str
    deal: int
    won: bool
    seconds: float = 0.0  # spent on the moves with a choice
    choices: int = 0  # those moves
    simulations: int = 0  # an anchor's simulations in those moves
    rollouts: tuple[int, ...] = ()  # the strong side's searches (rollouts), one count per decision where it searched
    worlds: tuple[int, ...] = ()  # the worlds it sampled in each of those decisions
    search_cpu: float = 0.0  # the CPU seconds of those decisions


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate, rounded to 4 places."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def paired(a: list[int], b: list[int], z: float = 1.96) -> tuple[float, list[float]]:
    """The mean of the differences ``a[i] - b[i]`` and its 95% interval (normal approximation), to 4 places."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n < 2:
        return (float(sum(d)), [-1.0, 1.0])
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (round(mean, 4), [round(mean - half, 4), round(mean + half, 4)])


def load_anchor(name: str, ruleset: str, players: int, ms: float) -> Anchor:
    """The anchor ``name`` for this table, from ``bench/`` (``AnchorMissing`` without OpenSpiel)."""
    if name not in ANCHORS:
        raise ValueError(f"unknown anchor {name!r}")
    return _ismcts(ruleset, players, ms)


@cache
def _ismcts(ruleset: str, players: int, ms: float) -> Anchor:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        raise AnchorMissing("the ISMCTS anchor needs OpenSpiel (the project's 'anchor' extra): "
                            "run `make bench-bots`, which installs it into .venv") from None
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    anchor: Anchor = importlib.import_module("ismcts_anchor").IsmctsAnchor(ruleset, players, ms)
    return anchor


def _by_knowledge(level: str, ms: float, read: bool = True, searched: Searched | None = None) -> Decider:
    if not read:
        return lambda s, seat, rng, r: decide(knowledge_from(s, seat), level, rng, ms, searched)
    return lambda s, seat, rng, r: decide(knowledge_from(s, seat, reading=r), level, rng, ms, searched)


def _random(s: State, seat: Seat, rng: random.Random, r: Reading) -> Action | None:
    options: list[Action | None] = list(legal_actions(s, seat))
    if seat != s.turn:
        options.append(None)
    return rng.choice(options) if options else None


def decider(who: str, ms: float, read: bool = True, searched: Searched | None = None) -> Decider:
    """How ``who`` (a bot level, "random" or "oracle") acts at a seat (on turn or not); a bot
    reads the round's public actions (``reading``) unless ``read`` is false. The strong bot
    tells ``searched`` what its searches came to."""
    if who == "random":
        return _random
    if who == "oracle":
        return lambda s, seat, rng, r: oracle(s, seat, rng, ms)
    return _by_knowledge(who, ms, read, searched)


def play_game(ruleset: str, players: int, game: int, side: str, opponents: str, seed: int,
              ms_per_move: float, read: bool = True) -> Game:
    """One round: ``side`` at seat ``game % players`` against ``opponents``; whether it won, its time and
    (the strong side) its searches.

    Every action, on turn or not, is folded into the round's ``Reading`` (public facts only),
    which the bots' knowledge carries (``read``: false leaves the side without it).
    """
    seat_of_side = game % players
    anchor = load_anchor(side, ruleset, players, ms_per_move) if side in ANCHORS else None
    seats = [decider(opponents, ms_per_move)] * players
    searched = Searched()  # the strong side's searches
    if anchor:
        ismcts = anchor
        seats[seat_of_side] = lambda s, seat, rng, r: ismcts.decide(s, seat, rng)
    else:
        seats[seat_of_side] = decider(side, ms_per_move, read, searched)
    round_seed = hashlib.sha256(f"{seed}:{ruleset}:{players}:{game}".encode()).hexdigest()
    rngs = [random.Random(f"{round_seed}:{opponents}:{i}") for i in range(players)]
    s0 = new_match(ruleset, players)
    s = evolve(s0, deal(s0, round_seed, "bench", 0))
    reading = [Reading.start(s)]  # the round's public actions folded so far (one cell: ``_out_of_turn`` moves it on)
    seconds, choices, simulations, search_cpu = 0.0, 0, 0, 0.0
    for _ in range(MAX_STEPS):
        if s.round_over:
            break
        if _out_of_turn(s, seats, rngs, reading) or s.round_over:
            continue
        seat = s.turn
        timed = seat == seat_of_side and _has_choice(s, seat)
        simulated, searches = anchor.simulations if anchor else 0, len(searched.rollouts)
        start, cpu = time.perf_counter(), time.process_time()
        a = seats[seat](s, seat, rngs[seat], reading[0])
        if timed:
            seconds += time.perf_counter() - start
            choices += 1
            simulations += (anchor.simulations if anchor else 0) - simulated
            if len(searched.rollouts) > searches:
                search_cpu += time.process_time() - cpu
        assert a is not None, "the seat on turn always has an action"
        check(s, a)
        reading[0] = observe(reading[0], s, a)
        apply(s, a)
    return Game(side, game, s.round_over and s.round_winner == seat_of_side, seconds, choices, simulations,
                tuple(searched.rollouts), tuple(searched.worlds), search_cpu)


def _has_choice(s: State, seat: Seat) -> bool:
    legal = legal_actions(s, seat)
    return next(legal, None) is not None and next(legal, None) is not None


def _out_of_turn(s: State, seats: list[Decider], rngs: list[random.Random], reading: list[Reading]) -> bool:
    """Ask the seats not on turn that have a legal action, in order; apply (and fold) the first one taken."""
    for k in range(1, s.n):
        seat = (s.turn + k) % s.n
        if next(legal_actions(s, seat), None) is None:
            continue
        a = seats[seat](s, seat, rngs[seat], reading[0])
        if a is not None:
            check(s, a)
            reading[0] = observe(reading[0], s, a)
            apply(s, a)
            return True
    return False


def _task(args: tuple[str, int, int, str, str, int, float]) -> Game:
    return play_game(*args)


def run(ruleset: str, players: int, games: int, ms_per_move: float, seed: int, opponents: str = "medium",
        anchor: str | None = None, with_oracle: bool = False, workers: int = 2, report: TextIO | None = None) -> str:
    """Play ``games`` deals for each side; one JSON line of results.

    ``report`` is told every twentieth of the games how far the run is (a full run takes hours).
    """
    if opponents not in OPPONENTS:
        raise ValueError(f"opponents are one of {OPPONENTS}")
    sides = ["strong"] + ([anchor] if anchor else []) + (["medium", "oracle"] if with_oracle else [])
    if anchor:
        load_anchor(anchor, ruleset, players, ms_per_move)  # fail before playing, and once
    tasks = [(ruleset, players, g, side, opponents, seed, ms_per_move) for g in range(games) for side in sides]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = _reported(pool.imap(_task, tasks, chunksize=max(1, len(sides))), len(tasks), report)
    else:
        results = _reported(map(_task, tasks), len(tasks), report)
    won = {side: [0] * games for side in sides}
    for r in results:
        won[r.side][r.deal] = int(r.won)
    out: dict[str, Any] = {"ruleset": ruleset, "players": players, "games": games, "opponents": opponents,
                           "ms_per_move": ms_per_move, "games_played": len(results)}
    if anchor:
        out["anchor"] = anchor
    for side in sides:
        key = {anchor: "anchor", "medium": "medium_baseline"}.get(side, side)
        out.update(_rate(key, won[side]))
        spent = [r for r in results if r.side == side]
        choices = sum(r.choices for r in spent)
        out[f"{key}_ms_used"] = round(1000 * sum(r.seconds for r in spent) / choices, 2) if choices else 0.0
        if side == anchor:
            out["anchor_simulations"] = round(sum(r.simulations for r in spent) / choices, 1) if choices else 0.0
        if side == "strong":
            out.update(_searches(spent))
    if anchor:
        out["strong_minus_anchor"], out["strong_minus_anchor_ci95"] = paired(won["strong"], won[anchor])
    if with_oracle:
        baseline = out["medium_baseline_rate"]
        margin = out["oracle_rate"] - baseline
        out["strong_position"] = round((out["strong_rate"] - baseline) / margin, 3) if margin else None
    return json.dumps(out)


def _reported(games: Iterator[Game], total: int, report: TextIO | None) -> list[Game]:
    """All of ``games``, with a line to ``report`` each time another twentieth of ``total`` has been played."""
    start, done = time.monotonic(), []
    for game in games:
        done.append(game)
        if report is not None and len(done) * PROGRESS_LINES // total > (len(done) - 1) * PROGRESS_LINES // total:
            spent = time.monotonic() - start
            print(f"maumau bench bots: {len(done)} of {total} games in {spent / 60:.1f} min, "
                  f"about {spent * (total - len(done)) / len(done) / 60:.0f} min left", file=report, flush=True)
    return done


def _searches(games: list[Game]) -> dict[str, Any]:
    """The strong side's searches (rollouts) per decision where it searched, mean and median; the
    worlds per such decision; their number; and the CPU microseconds of those decisions per search."""
    rollouts = [n for g in games for n in g.rollouts]
    worlds = [n for g in games for n in g.worlds]
    total = sum(rollouts)
    return {"strong_searched": len(rollouts),
            "strong_searches": round(total / len(rollouts), 1) if rollouts else 0.0,
            "strong_searches_median": statistics.median(rollouts) if rollouts else 0,
            "strong_worlds": round(sum(worlds) / len(worlds), 1) if worlds else 0.0,
            "strong_cpu_us_per_search": round(1e6 * sum(g.search_cpu for g in games) / total, 1) if total else 0.0}


def _rate(key: str, won: list[int]) -> dict[str, Any]:
    n = len(won)
    return {f"{key}_rate": round(sum(won) / n, 4) if n else 0.0, f"{key}_ci95": list(wilson(sum(won), n))}
