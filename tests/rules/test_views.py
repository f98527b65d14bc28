"""A seat's view says what a client shows of a round's end: no client reads the rules from a ruleset's name."""

from __future__ import annotations

from services.rules.applying import apply
from services.rules.engine import legal_actions, new_match, start_round
from services.rules.views import view


def _went_out_with(ruleset: str, last: str) -> dict[str, object]:
    """Seat 0 goes out with ``last`` on a 5 of hearts; seat 1 holds two cards."""
    s = new_match(ruleset, 2)
    start_round(s, 1, 0, [[last], ["2D", "3D"]], "5H", ["4C", "4S", "6C", "6S"])
    out = next(a for a in legal_actions(s, 0) if a.card is not None and a.choose in (None, 0, -1))
    apply(s, out)
    assert s.round_over
    return view(s, 1)


def test_a_candeias_round_won_with_a_jack_counts_double_and_lets_a_newcomer_in() -> None:
    v = _went_out_with("candeias", "JH")
    assert v["points_doubled"] is True
    assert v["late_join"] is True


def test_a_classic32_round_neither_doubles_nor_takes_newcomers() -> None:
    v = _went_out_with("classic32", "9H")
    assert v["points_doubled"] is False
    assert v["late_join"] is False


def test_a_round_under_way_says_neither() -> None:
    s = new_match("candeias", 2)
    start_round(s, 1, 0, [["JH", "2C"], ["2D", "3D"]], "5H", ["4C"])
    assert "points_doubled" not in view(s, 0) and "late_join" not in view(s, 0)
