"""The bots' outside anchor: OpenSpiel's stock ``ISMCTSBot`` at a wall-clock budget per move, over our engine.

``maumau bench bots --anchor ismcts`` seats it (``tools/bench/bots.py`` loads this file;
it needs the ``anchor`` extra: ``make bench-bots``). The bot is OpenSpiel's own, untouched:
``ISMCTSBot`` with random-rollout evaluation (``RandomRolloutEvaluator``, one rollout to the
end of the round), UCT constant ``UCT_C``, unlimited world samples, the most visited action,
playing ``python_maumau`` (``openspiel_maumau``) from the seat's information state only.

It takes a number of simulations, not a time, so each move gets as many simulations as the
seconds one simulation took in the moves before (an average that follows the round: early
rollouts are long, late ones short) fit into the budget, and at least two. The time each move
really took is measured around the whole search, and the benchmark reports it beside the budget.
"""

from __future__ import annotations

import random
import time

import numpy as np
from open_spiel.python.algorithms.ismcts import ISMCTSBot  # type: ignore[import-untyped]
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator  # type: ignore[import-untyped]
from openspiel_maumau import MauMauGame, MauMauState

from services.rules.actions import Action
from services.rules.cards import Seat
from services.rules.state import State

UCT_C = 2.0  # OpenSpiel's examples' constant for returns in [0, 1]
MIN_SIMULATIONS = 2  # ISMCTS's first simulation only opens the root: a move needs one more
FOLLOW = 0.5  # the weight of the last move in the running seconds-per-simulation figure


class IsmctsAnchor:
    """Decides for any seat of one ruleset at ``players`` seats within ``budget_ms`` a move."""

    def __init__(self, ruleset: str, players: int, budget_ms: float):
        self.game = MauMauGame({"ruleset": ruleset, "players": players})
        self.budget = budget_ms / 1000.0
        self.seconds_per_simulation = self.budget  # a first guess: one simulation fills the budget
        self.simulations = 0  # run so far, over all searched moves

    def decide(self, s: State, seat: Seat, rng: random.Random) -> Action | None:
        """The action of ``seat`` at ``s`` (``None``: it lets a chance out of turn go). ``s`` is not changed."""
        state = MauMauState.at(self.game, s.copy(), seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return self.game.code.decode(legal[0], seat)
        n = max(MIN_SIMULATIONS, int(self.budget / self.seconds_per_simulation))
        numbers = np.random.RandomState(rng.getrandbits(32))
        bot = ISMCTSBot(self.game, RandomRolloutEvaluator(1, numbers), UCT_C, n, random_state=numbers)
        worlds = random.Random(rng.getrandbits(64))
        bot.set_resampler(lambda st, player: st.resampled(player, worlds))
        start = time.perf_counter()
        code = int(bot.step(state))
        took = time.perf_counter() - start
        self.simulations += n
        self.seconds_per_simulation += FOLLOW * (took / n - self.seconds_per_simulation)
        return self.game.code.decode(code, seat)
