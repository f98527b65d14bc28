"""Random rounds to ask the bots in: states met along uniformly random legal play, every ruleset."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

from services.rules.decider import deal, evolve
from services.rules.engine import apply, legal_actions, new_match
from services.rules.state import State

# (ruleset, seats, options): the defaults and a few house options that change what is legal
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic32", 4, {}),
    ("classic32", 3, {"eight_bounce": True, "nine_draws": 3, "mau_mau_call": "always"}),
    ("classic52", 4, {}),
    ("classic52", 8, {"ace": "skip_all", "seven_chain_limit": 1}),
    ("classic32", 3, {"ace_with_company": True, "seven_draws": 0}),
    ("classic32", 7, {"scoring": "against"}),
    ("candeias", 4, {}),
    ("candeias", 2, {"nine_draws": 3, "jack_on_jack": False}),
    ("colors108", 4, {}),
    ("colors108", 2, {"teams": False, "quick": True}),
    ("crazy8", 4, {}),
    ("crazy8", 15, {"special_cards": True}),
]
RULESETS = ("classic32", "classic52", "candeias", "colors108")


def table_id(table: tuple[str, int, dict[str, Any]]) -> str:
    name, seats, options = table
    return f"{name}-{seats}-{'-'.join(f'{k}={v}' for k, v in sorted(options.items())) or 'default'}"


def random_states(ruleset: str, seats: int, options: dict[str, Any], rounds: int, seed: int,
                  every: int = 3, max_steps: int = 400) -> Iterator[State]:
    """Copies of the states met in ``rounds`` random rounds, one every ``every`` actions and at each out-of-turn chance.

    A round is left after ``max_steps`` actions (random play can take thousands).
    """
    rng = random.Random(seed)
    for r in range(rounds):
        s0 = new_match(ruleset, seats, options)
        round_seed = hashlib.sha256(f"{seed}:{r}".encode()).hexdigest()
        s = evolve(s0, deal(s0, round_seed, "test", r))
        step = 0
        while not s.round_over and step < max_steps:
            others = [i for i in range(seats) if i != s.turn and next(legal_actions(s, i), None) is not None]
            if step % every == 0 or others:
                yield s.copy()
            seat = rng.choice(others) if others and rng.random() < 0.5 else s.turn
            apply(s, rng.choice(list(legal_actions(s, seat))))
            step += 1
