"""``State.copy`` names every slot by hand (for speed): it must carry every one, and share no list."""

from __future__ import annotations

from services.rules.decider import deal, evolve
from services.rules.engine import apply, legal_actions, new_match
from services.rules.state import _SLOTS, State

LISTS = ("active", "stock", "discard", "scores", "match_winners", "tiebreak", "round_points")


def _dealt() -> State:
    s = new_match("classic52", 4)
    return evolve(s, deal(s, "ab" * 32, "t", 0))


def test_a_copy_carries_every_slot() -> None:
    s = _dealt()
    s.round_points = [1, 2, 3, 4]
    s.draw_log = []
    for i, name in enumerate(_SLOTS):  # a distinct value in every slot that is not a list
        if name not in LISTS and name not in ("rs", "hands", "draw_log"):
            setattr(s, name, object.__new__(type("Mark" + str(i), (), {})))
    c = s.copy()
    for name in _SLOTS:
        assert getattr(c, name) == getattr(s, name), name


def test_a_copy_shares_no_list_but_the_draw_log() -> None:
    s = _dealt()
    s.round_points = [0, 0, 0, 0]
    s.draw_log = []
    c = s.copy()
    for name in LISTS:
        assert getattr(c, name) is not getattr(s, name), name
    assert all(a is not b for a, b in zip(c.hands, s.hands, strict=True))
    assert c.draw_log is s.draw_log and c.rs is s.rs
    s_none = _dealt()
    assert s_none.copy().round_points is None


def test_stepping_a_copy_leaves_the_original_as_it_was() -> None:
    s = _dealt()
    before = {name: repr(getattr(s, name)) for name in _SLOTS}
    c = s.copy()
    for _ in range(40):
        if c.round_over:
            break
        apply(c, next(iter(legal_actions(c, c.turn))))
    assert {name: repr(getattr(s, name)) for name in _SLOTS} == before
