"""``maumau bench bots``: the strong bot against three random players and against three weak bots.

Self-play through the engine only. A game is one round from a seeded deal (``deal`` and
``evolve``); its winner is ``round_winner``. The strong bot's seat moves one place each
game. Random players pick uniformly among all legal actions (calls or not); out of turn,
every seat with a legal action (a challenge, a quick action, an opening burn) is asked in
seat order after the player on turn — a random player takes one of them or lets go, with
equal odds for each. Prints the strong seat's win rates with Wilson 95% intervals.

>>> play_game("classic32", 3, 0, "weak", seed=1, ms_per_move=1.0) in (True, False)
True
>>> wilson(50, 100)
(0.4038, 0.5962)
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import random

from services.bots.knowledge import knowledge_from
from services.bots.strategy import decide
from services.rules.actions import Action
from services.rules.cards import Seat
from services.rules.decider import deal, evolve
from services.rules.engine import apply, check, legal_actions, new_match
from services.rules.state import State

MAX_STEPS = 20_000  # a round that long is counted as a loss (never seen)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate, rounded to 4 places."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def _choose(s: State, seat: Seat, who: str, rng: random.Random, ms: float) -> Action | None:
    """What ``who`` ("strong", "weak", "random") does at ``seat`` now (on turn or not)."""
    if who == "random":
        options: list[Action | None] = list(legal_actions(s, seat))
        if seat != s.turn:
            options.append(None)
        return rng.choice(options) if options else None
    return decide(knowledge_from(s, seat), who, rng, ms)


def _out_of_turn(s: State, seats: list[str], rngs: list[random.Random], ms: float) -> bool:
    """Ask the seats not on turn that have a legal action; apply the first one taken."""
    n = s.n
    for k in range(1, n):
        seat = (s.turn + k) % n
        if next(legal_actions(s, seat), None) is None:
            continue
        a = _choose(s, seat, seats[seat], rngs[seat], ms)
        if a is not None:
            check(s, a)
            apply(s, a)
            return True
    return False


def play_game(ruleset: str, players: int, game: int, opponent: str, seed: int, ms_per_move: float) -> bool:
    """One round: the strong bot at seat ``game % players`` against ``opponent`` players; whether it won."""
    strong_seat = game % players
    seats = [opponent] * players
    seats[strong_seat] = "strong"
    round_seed = hashlib.sha256(f"{seed}:{ruleset}:{players}:{game}".encode()).hexdigest()
    rngs = [random.Random(f"{round_seed}:{opponent}:{i}") for i in range(players)]
    s0 = new_match(ruleset, players)
    s = evolve(s0, deal(s0, round_seed, "bench", 0))
    for _ in range(MAX_STEPS):
        if s.round_over:
            return s.round_winner == strong_seat
        if _out_of_turn(s, seats, rngs, ms_per_move) or s.round_over:
            continue
        seat = s.turn
        a = _choose(s, seat, seats[seat], rngs[seat], ms_per_move)
        assert a is not None, "the seat on turn always has an action"
        check(s, a)
        apply(s, a)
    return False


def _task(args: tuple[str, int, int, str, int, float]) -> tuple[str, bool]:
    ruleset, players, game, opponent, seed, ms = args
    return opponent, play_game(ruleset, players, game, opponent, seed, ms)


def run(ruleset: str, players: int, games: int, ms_per_move: float, seed: int, workers: int = 2) -> str:
    """Play ``games`` games against each kind of opponent; one JSON line of results."""
    tasks = [(ruleset, players, g, opp, seed, ms_per_move) for opp in ("random", "weak") for g in range(games)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(_task, tasks, chunksize=8)
    else:
        results = [_task(t) for t in tasks]
    wins = {opp: sum(1 for o, won in results if o == opp and won) for opp in ("random", "weak")}
    return json.dumps({
        "ruleset": ruleset, "players": players, "games": games,
        "strong_vs_random": round(wins["random"] / games, 4) if games else 0.0,
        "strong_vs_random_ci95": list(wilson(wins["random"], games)),
        "strong_vs_weak": round(wins["weak"] / games, 4) if games else 0.0,
        "strong_vs_weak_ci95": list(wilson(wins["weak"], games)),
        "ms_per_move": ms_per_move,
    })
