"""``may_draw_or_pass``: draw and pass judged in one call, as ``may_draw`` and ``may_pass`` (which ``check`` asks)."""

from __future__ import annotations

import pytest

from services.rules.engine import new_match, start_round
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
