"""``State.copy`` names every slot by hand (for speed): it must carry every one, and share no list."""

from __future__ import annotations

from services.rules.decider import deal, evolve
from services.rules.engine import apply, legal_actions, new_match
from services.rules.phases import Pending, Phase
from services.rules.state import _SLOTS, State

LISTS = ("active", "stock", "discard", "scores", "match_winners", "tiebreak", "round_points")


def _dealt() -> State:
    s = new_match("classic52", 4)
    return evolve(s, deal(s, "ab" * 32, "t", 0))


def _changed(value: object) -> object:
    """Another value of the same type as ``value`` (a compiled ``State`` takes only its slots' types)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, Phase | Pending):
        return type(value)(1 if value == 0 else 0)
    if isinstance(value, int):
        return value + 1000
    return "mark"  # the seed: a text or None


def test_a_copy_carries_every_slot() -> None:
    for name in _SLOTS:  # each slot that is not a list changed alone: the copy has it, and every other as it was
        if name in LISTS or name in ("rs", "hands", "draw_log"):
            continue
        s = _dealt()
        s.round_points = [1, 2, 3, 4]
        s.draw_log = []
        setattr(s, name, _changed(getattr(s, name)))
        c = s.copy()
        for other in _SLOTS:
            assert getattr(c, other) == getattr(s, other), (name, other)


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
