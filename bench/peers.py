"""Peer half of the rules-engine speed benchmark.

What it measures: how many player decisions ("actions") and complete games per
second two established card-game engines sustain under uniformly random legal
play, on this machine, for a fixed wall-clock budget.  Each peer prints one
JSON line; our own engine is measured the same way so the figures can be read
side by side.

The peers and why they were chosen:

* ``rlcard-uno`` -- RLCard's UNO game object (``rlcard.games.uno.game.UnoGame``)
  with 2 players, driven directly with ``init_game()``/``step(action)`` rather
  than through RLCard's env wrapper, so that only the rules engine is timed
  (no observation encoding).  UNO is the closest widely used relative of
  Mau-Mau written in pure Python.
* ``openspiel-crazy-eights`` -- OpenSpiel's ``crazy_eights`` (C++ engine, game
  defaults apart from 4 players: no reshuffle, at most 5 draws a turn, 100
  card plays at most) stepped from a Python loop, the same driving cost our
  engine pays.  Crazy Eights is the direct ancestor of Mau-Mau.  Drawing a
  card and nominating a suit after an 8 are player decisions of their own
  there, and many games end by an exhausted stock rather than an empty hand,
  so compare its games/s with care.  Our ``crazy8`` ruleset plays exactly
  these rules (``maumau bench rules --ruleset crazy8 --players 4``): the same
  games, told in slightly fewer decisions (an 8 and its suit are one play;
  a turn with nothing left to play or draw passes by itself).

Counting rules, identical for both peers: an action is one player decision
(OpenSpiel chance outcomes such as card deals are resolved by sampling
``chance_outcomes()`` but not counted); a game is counted each time one reaches
a terminal state.  A new game always starts when the previous one ends and the
clock is read only between games, so every counted action belongs to a
finished game and ``seconds`` is the measured elapsed time (it slightly
exceeds the budget).  Game setup (dealing) is inside the timed loop.  The
player picks uniformly among the *distinct* legal actions (RLCard lists a card
twice when the hand holds two identical copies; those are the same move).

Run with the interpreter of ``.venv-bench`` (see ``bench/README.md``)::

    python bench/peers.py --seconds 10 --seed 0 [--peer rlcard-uno]

A peer whose package cannot be imported prints a line with an ``"error"`` key.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from math import floor
from typing import Any

Result = dict[str, Any]


def _result(
    engine: str, ruleset: str, players: int, games: int, actions: int, seconds: float
) -> Result:
    return {
        "engine": engine,
        "ruleset": ruleset,
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1),
        "actions_per_s": round(actions / seconds, 1),
    }


def run_rlcard_uno(seconds: float, seed: int) -> Result:
    """Random 2-player UNO on RLCard's ``UnoGame`` for ``seconds`` seconds."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=2)
    game.np_random = np.random.RandomState(seed)  # shuffles and wild colours
    uniform = random.Random(seed).random
    # the loop's names as locals and floor() for a pick, as our own engine's loop (tools/bench/rules.py):
    # what is timed is each engine's work, not the driving loop's lookups by name
    step, over, distinct, size = game.step, game.is_over, dict.fromkeys, len
    games = actions = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state, _ = game.init_game()
        while not over():
            legal = list(distinct(state["legal_actions"]))
            state, _ = step(legal[floor(uniform() * size(legal))])
            actions += 1
        games += 1
    return _result("rlcard-uno", "uno", 2, games, actions, clock() - start)


def run_openspiel_crazy_eights(seconds: float, seed: int) -> Result:
    """Random 4-player OpenSpiel ``crazy_eights`` for ``seconds`` seconds."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": 4})
    chance, terminal = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
    uniform = random.Random(seed).random
    size = len
    games = actions = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_initial_state()
        # the state's methods as locals and floor() for a pick, as our own engine's loop (tools/bench/rules.py)
        player_of, act = state.current_player, state.apply_action
        legal, outcomes_of = state.legal_actions, state.chance_outcomes
        while (player := player_of()) != terminal:
            if player == chance:
                # With <= 5 players crazy_eights uses one deck, so every chance
                # node (dealer pick, each card dealt) is uniform over its
                # outcomes: picking one outcome pair uniformly is exact.
                outcomes = outcomes_of()
                act(outcomes[floor(uniform() * size(outcomes))][0])
            else:
                options = legal()
                act(options[floor(uniform() * size(options))])
                actions += 1
        games += 1
    return _result(
        "openspiel-crazy-eights", "crazy_eights", 4, games, actions, clock() - start
    )


PEERS: dict[str, tuple[Callable[[float, int], Result], str, int]] = {
    "rlcard-uno": (run_rlcard_uno, "uno", 2),
    "openspiel-crazy-eights": (run_openspiel_crazy_eights, "crazy_eights", 4),
}


def run_peer(name: str, seconds: float, seed: int) -> Result:
    """Run one peer; an import failure becomes a result with an ``error``."""
    runner, ruleset, players = PEERS[name]
    try:
        return runner(seconds, seed)
    except ImportError as exc:
        return {
            "engine": name,
            "ruleset": ruleset,
            "players": players,
            "error": f"{type(exc).__name__}: {exc}",
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--peer", choices=sorted(PEERS), help="default: all peers")
    args = parser.parse_args(argv)
    for name in [args.peer] if args.peer else list(PEERS):
        print(json.dumps(run_peer(name, args.seconds, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
