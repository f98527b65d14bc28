"""``may_draw_or_pass``: draw and pass judged in one call, as ``may_draw`` and ``may_pass`` (which ``check`` asks)."""

from __future__ import annotations

import pytest

from services.rules.engine import legal_actions, new_match, start_round
from services.rules.phases import BOUNCE, BURNED, CHOOSE, DRAWN, NORMAL, Phase
from services.rules.turn import may_draw, may_draw_or_pass, may_pass


@pytest.mark.parametrize(("ruleset", "phase", "playable", "stock", "pending", "expected"), [
    ("classic32", NORMAL, [1], ["AC"], 0, (True, False)),  # draw any time
    ("classic52", NORMAL, [1], ["AC"], 0, (False, False)),  # draw only without a play
    ("classic52", NORMAL, [], ["AC"], 0, (True, False)),
    ("classic52", NORMAL, [], [], 0, (True, True)),  # nothing to draw: pass
    ("classic52", NORMAL, [], [], 2, (True, False)),  # a pending draw is taken, not passed
    ("candeias", BURNED, [1], ["AC"], 0, (False, True)),
    ("candeias", BURNED, [], ["AC"], 0, (True, False)),
    ("classic52", DRAWN, [], ["AC"], 0, (False, True)),
    ("classic52", BOUNCE, [1], ["AC"], 0, (False, True)),
    ("classic52", CHOOSE, [], ["AC"], 0, (False, False)),
])
def test_draw_and_pass_by_phase(ruleset: str, phase: Phase, playable: list[int], stock: list[str], pending: int,
                                expected: tuple[bool, bool]) -> None:
    s = new_match(ruleset, 2)
    start_round(s, 1, 0, [["2C", "3C"], ["2D", "3D"]], "5H", stock)
    s.phase, s.pending = phase, pending
    assert may_draw_or_pass(s, playable) == expected
    assert (may_draw(s, playable), may_pass(s, 0, playable)) == expected


def test_the_next_seat_skips_who_is_out_of_the_round() -> None:
    s = new_match("classic32", 5)
    s.active = [True, False, False, True, True]
    assert [s.next_seat(i) for i in range(5)] == [3, 3, 3, 4, 0]
    assert [s.next_seat(i, -1) for i in range(5)] == [4, 0, 0, 0, 3]
    s.direction = -1
    assert [s.previous_seat(i) for i in range(5)] == [3, 3, 3, 4, 0]
    s.active = [True] * 5
    assert [s.next_seat(i) for i in range(5)] == [4, 0, 1, 2, 3]


def test_a_jack_starter_of_a_tiebreak_round_whose_dealer_is_out_is_chosen_for_by_a_tied_seat() -> None:
    # Found by test_properties (classic52 4p, seed 2058): the tie-break deals seats 0 and 3 only, seat 2 deals,
    # and a Jack starter gave the choice to seat 2, dealt no hand: nobody could act, the round never ended.
    s = new_match("classic52", 4)
    s.tiebreak = [0, 3]
    start_round(s, 2, 3, [["2C", "3C"], [], [], ["4D", "5D"]], "JH", ["6S", "7S"])
    assert s.phase is CHOOSE and s.active[s.turn]
    assert s.turn == 0  # the tied seat before the first player, as the dealer sits before it
    choices = list(legal_actions(s, s.turn))
    assert [a.kind for a in choices] == ["choose"] * 4
