"""The tables the engine reads on every action agree with the rules they were made from.

``Ruleset.follows`` is indexed by the suit in force (-1 reading the last row) and the top
card, and ``Ruleset.playable`` reads it for one card: over random games of every ruleset
and option set, both must answer as ``may_follow`` (and ``answers`` while a draw is pending).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.actions import PLAY, Action
from services.rules.cards import CARD_SPACE, rank
from services.rules.engine import apply
from services.rules.legal import legal_list
from tests.rules.test_properties import _dealt, games


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 10**9))
def test_what_may_be_played_is_what_may_follow(game: tuple[str, int, dict[str, Any]], seed: int) -> None:
    ruleset, seats, options = game
    rng = random.Random(seed)
    s = _dealt(ruleset, seats, seed, options)
    rs = s.rs
    deck = sorted(set(rs.deck(s.n)))
    for _ in range(300):
        if s.round_over:
            break
        follows = [c for c in deck if rs.may_follow(s.follow, rank(s.top), c)]
        expected = rs.answers(s, deck) if s.pending else follows
        assert rs.playable_cards(s, deck) == expected
        assert [c for c in deck if rs.playable(s, c)] == expected
        apply(s, rng.choice(legal_list(s, s.turn)))


def test_the_ready_made_plays_are_the_plays_of_each_card() -> None:
    for ruleset in ("classic32", "colors108"):
        s = _dealt(ruleset, 2, 0, {})
        rs = s.rs
        for seat in range(rs.max_seats):
            for c in CARD_SPACE:
                suits = range(4) if rs.chooses[c] else (-1,)
                assert rs.plays[seat][c] == tuple(Action(PLAY, seat, c, x) for x in suits)
