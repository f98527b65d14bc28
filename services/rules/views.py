"""What can be seen of a state: everything (staff, replays, the conformance report), or one seat's view.

A seat's view carries its own hand and only counts of every other hand, the stock and the
discard pile; a spectator (``seat=None``) sees no hand at all. Nothing else of the hidden
state (other hands, the stock order, the seed) is ever put into a view.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from services.rules.actions import ActionDict, with_move
from services.rules.cards import Seat
from services.rules.engine import legal_actions, may_join_late
from services.rules.state import State


class Common(TypedDict):
    """What both a view and the full state say (docs/protocol.md, "The view")."""

    turn: Seat | None  # None once the round is over
    direction: int
    top: str | None
    follow: str | None  # the suit or colour asked for, if any
    pending_draw: int
    stock: int
    discard: int
    round_over: bool
    round_winner: Seat | None
    round_points: list[int] | None
    scores: list[int]
    match_over: bool
    match_winners: list[Seat]


class FullState(Common):
    """The whole state as the conformance contract spells it (``full_state``)."""

    hands: list[list[str]]


class RoundEnd(TypedDict, total=False):
    """What a view says at the end of a round only (all or none of these keys)."""

    revealed_hands: list[list[str]]
    points_doubled: bool  # the round's points count twice (candeias: out with a Jack)
    late_join: bool  # a newcomer may take a seat before the next round


class Own(TypedDict):
    """What a view says of the viewer's own seat: its hand (a seat only) and what it may do."""

    hand: NotRequired[list[str]]
    legal_actions: list[ActionDict]  # empty for a spectator


class View(Common, RoundEnd, Own):
    """What one seat or a spectator may see of a state (``view``): the gateway's ``view``, the bots' input.

    Its parts are separate TypedDicts so that ``view`` builds it in one expression, in the keys' order
    of the wire (mypy types a TypedDict's optional keys only when a ``**`` part declares them).
    """

    ruleset: str
    seat: Seat | None
    hand_sizes: list[int]
    in_round: list[bool]
    dealer: Seat
    rounds_played: int
    missed_call: Seat | None
    phase: str


def _common(s: State) -> Common:
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


def full_state(s: State) -> FullState:
    """The whole state as the conformance contract spells it: every hand included."""
    fam = s.rs.family
    return {**_common(s), "hands": [fam.names(h) for h in s.hands]}


def view(s: State, seat: Seat | None) -> View:
    """What ``seat`` may see (``None``: a spectator). At the end of a round every hand is revealed."""
    return {
        **_common(s),
        "ruleset": s.rs.name,
        "seat": seat,
        "hand_sizes": [len(h) for h in s.hands],
        "in_round": list(s.active),
        "dealer": s.dealer,
        "rounds_played": s.rounds_played,
        "missed_call": s.mau_offender if s.mau_offender >= 0 else None,
        "phase": s.phase.word,
        **_round_end(s),
        **_own(s, seat),
    }


def _round_end(s: State) -> RoundEnd:
    """At the end of a round every hand is revealed."""
    if not s.round_over:
        return {}
    return {"revealed_hands": [s.rs.family.names(h) for h in s.hands], "points_doubled": s.double_points,
            "late_join": may_join_late(s)}


def _own(s: State, seat: Seat | None) -> Own:
    if seat is None or not 0 <= seat < s.n:
        return {"legal_actions": []}
    fam = s.rs.family
    return {"hand": fam.names(sorted(s.hands[seat])),
            "legal_actions": [with_move(a, fam) for a in legal_actions(s, seat)]}
