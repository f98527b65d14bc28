"""The engine compiled by mypyc (``make setup``) plays exactly as its sources do when interpreted.

Random games of every ruleset, with random house options and seat counts, stepped through
``decide``/``evolve`` (a copy of the state at every step) and now and then through the wire
(``state_to_pb``/``state_from_pb``), the legal actions of every seat listed at every step: one digest
of all of it here, and one from the same code run with ``MAUMAU_PURE=1`` in another process.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import services.rules.state
from services.rules.cards import FRENCH
from services.rules.decider import deal, decide, evolve
from services.rules.engine import legal_actions, new_match
from services.rules.rulesets import HOUSE_OPTIONS, RULESETS, OptionError, make_ruleset
from services.rules.state import _SLOTS, State
from services.rules.wire import state_from_pb, state_to_pb
from tests.interpreted import interpreted


def _compiled() -> bool:
    return not (services.rules.state.__file__ or "").endswith(".py")


def _slots(s: State) -> bytes:
    return repr([getattr(s, name) for name in _SLOTS if name != "rs"]).encode()


def digest(seeds: int = 12) -> str:
    """What random games of every ruleset did, step by step, as one SHA-256."""
    h = hashlib.sha256()
    for seed in range(seeds):
        rng = random.Random(seed)
        for name, cls in sorted(RULESETS.items()):
            allowed = dict(cls.extra_options)
            if make_ruleset(name, {}).family is FRENCH:  # ``family`` is an instance's attribute where compiled
                allowed.update(HOUSE_OPTIONS)
            options = {k: rng.choice(v) for k, v in sorted(allowed.items()) if v is not None and rng.random() < 0.5}
            try:
                s = new_match(name, rng.randint(cls.min_seats, min(cls.max_seats, 5)), options)
            except OptionError:
                continue
            h.update(f"{name} {sorted(options.items())} {s.n}".encode())
            for round_no in range(3):
                if s.match_over:
                    break
                try:
                    dealt = deal(s, f"{rng.getrandbits(256):064x}", "t", round_no)
                except ValueError as e:  # options that deal more cards than the deck has (hand_size 7 of 32, 5 seats)
                    h.update(str(e).encode())
                    break
                s = evolve(s, dealt)
                for _ in range(300):
                    if s.round_over:
                        break
                    if rng.random() < 0.1:
                        s = state_from_pb(state_to_pb(s))
                    every = [a for seat in range(s.n) for a in legal_actions(s, seat)]
                    h.update(repr(every).encode())
                    for event in decide(s, every[rng.randrange(len(every))]):
                        s = evolve(s, event)
                    h.update(_slots(s))
    return h.hexdigest()


def test_the_compiled_engine_plays_as_its_sources_interpreted() -> None:
    if not _compiled():
        pytest.skip("the engine is not compiled here (make setup compiles it): nothing to compare")
    pure = interpreted("import services.rules.state as s; from tests.rules.test_compiled import digest; "
                       "assert s.__file__.endswith('.py'); print(digest())")
    assert digest() == pure
