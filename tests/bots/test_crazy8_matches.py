"""Bots alone play crazy8 (Oito Maluco) to its end: two seats, four, fifteen, special cards off and on."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from services.bots.reading import Reading, observe
from services.rules.decider import deal, evolve
from services.rules.engine import apply, check, new_match
from tools.bench.bots import _out_of_turn, decider

LEVELS = ("strong", "medium", "weak")


@pytest.mark.parametrize("options", [{}, {"special_cards": True}], ids=["plain", "special"])
@pytest.mark.parametrize("players", [2, 4, 15])
def test_a_match_of_bots_ends_with_its_winners(players: int, options: dict[str, Any]) -> None:
    seats = [decider(LEVELS[i % 3], 2.0) for i in range(players)]
    for game in range(2):
        seed = hashlib.sha256(f"crazy8:{players}:{game}:{sorted(options)}".encode()).hexdigest()
        rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
        s0 = new_match("crazy8", players, options)
        s = evolve(s0, deal(s0, seed, "bots", 0))
        assert [len(h) for h in s.hands] == [7 if players == 2 else 5] * players
        reading = [Reading.start(s)]
        for _ in range(2000):  # random play ends in under 200 actions on average
            if s.round_over:
                break
            if _out_of_turn(s, seats, rngs, reading) or s.round_over:
                continue
            a = seats[s.turn](s, s.turn, rngs[s.turn], reading[0])
            assert a is not None
            check(s, a)
            reading[0] = observe(reading[0], s, a)
            apply(s, a)
        assert s.round_over and s.match_over
        assert s.round_points == [s.rs.hand_points(h) for h in s.hands]
        assert s.match_winners == [i for i in range(players) if s.scores[i] == min(s.scores)]
