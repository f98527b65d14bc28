"""What can be seen of a state: everything (staff, replays, the conformance report), or one seat's view.

A seat's view carries its own hand and only counts of every other hand, the stock and the
discard pile; a spectator (``seat=None``) sees no hand at all. Nothing else of the hidden
state (other hands, the stock order, the seed) is ever put into a view.
"""

from __future__ import annotations

from typing import Any

from services.rules.actions import action_to_dict
from services.rules.cards import Seat
from services.rules.engine import legal_actions, may_join_late
from services.rules.state import State


def _common(s: State) -> dict[str, Any]:
    fam = s.rs.family
    return {
        "turn": None if s.round_over else s.turn,
        "direction": s.direction,
        "top": fam.name(s.discard[-1]) if s.discard else None,
        "follow": None if s.follow < 0 else fam.suit_name(s.follow),
        "pending_draw": s.pending,
        "stock": len(s.stock),
        "discard": len(s.discard),
        "round_over": s.round_over,
        "round_winner": s.round_winner if s.round_winner >= 0 else None,
        "round_points": s.round_points,
        "scores": list(s.scores),
        "match_over": s.match_over,
        "match_winners": list(s.match_winners),
    }


def full_state(s: State) -> dict[str, Any]:
    """The whole state as the conformance contract spells it: every hand included."""
    fam = s.rs.family
    return {**_common(s), "hands": [fam.names(h) for h in s.hands]}


def view(s: State, seat: Seat | None) -> dict[str, Any]:
    """What ``seat`` may see (``None``: a spectator). At the end of a round every hand is revealed."""
    fam = s.rs.family
    v = _common(s)
    v["ruleset"] = s.rs.name
    v["seat"] = seat
    v["hand_sizes"] = [len(h) for h in s.hands]
    v["in_round"] = list(s.active)
    v["dealer"] = s.dealer
    v["rounds_played"] = s.rounds_played
    v["missed_call"] = s.mau_offender if s.mau_offender >= 0 else None
    v["phase"] = s.phase.word
    if s.round_over:
        v["revealed_hands"] = [fam.names(h) for h in s.hands]
        v["points_doubled"] = s.double_points  # the round's points count twice (candeias: out with a Jack)
        v["late_join"] = may_join_late(s)  # a newcomer may take a seat before the next round
    if seat is not None and 0 <= seat < s.n:
        v["hand"] = fam.names(sorted(s.hands[seat]))
        v["legal_actions"] = [action_to_dict(a, fam) for a in legal_actions(s, seat)]
    else:
        v["legal_actions"] = []
    return v
