"""The strong bot's compiled modules (greedy, worlds, reading: ``make setup``) decide exactly as their sources do.

Carmen's decisions along seeded rounds of several rulesets, each searched over a fixed number of
worlds (no clock), with the rollouts and worlds every search took: one digest here, and one from the
same code run with ``MAUMAU_PURE=1`` (every compiled module's source) in another process.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import services.bots.worlds
from services.bots.knowledge import knowledge_from
from services.bots.reading import Reading, observe
from services.bots.strategy import Searched, decide, strong
from services.rules.decider import deal, evolve
from services.rules.engine import apply, new_match
from tests.interpreted import interpreted


def digest(worlds: int = 12) -> str:
    """What Carmen chose (and what her searches came to) at every turn of seeded rounds, as one SHA-256."""
    h = hashlib.sha256()
    for ruleset, players in (("classic52", 4), ("colors108", 3), ("candeias", 4), ("crazy8", 3)):
        s0 = new_match(ruleset, players)
        s = evolve(s0, deal(s0, f"{players:064x}", "t", 0))
        reading, rng = Reading.start(s), random.Random(ruleset)
        for step in range(400):
            if s.round_over:
                break
            k = knowledge_from(s, s.turn, reading=reading)
            searched = Searched()
            mine = strong(k, random.Random(step), budget_ms=1e9, max_worlds=worlds, searched=searched)
            h.update(f"{mine} {searched.rollouts} {searched.worlds}".encode())
            a = decide(k, "medium", rng)  # the round goes on as Tito plays it
            assert a is not None
            reading = observe(reading, s, a)
            apply(s, a)
    return h.hexdigest()


def test_the_compiled_bots_decide_as_their_sources_interpreted() -> None:
    if (services.bots.worlds.__file__ or "").endswith(".py"):
        pytest.skip("the bots are not compiled here (make setup compiles them): nothing to compare")
    pure = interpreted("import services.bots.worlds as w; from tests.bots.test_compiled import digest; "
                       "assert w.__file__.endswith('.py'); print(digest())")
    assert digest() == pure
