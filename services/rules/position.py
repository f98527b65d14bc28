"""What a ruleset's hooks read and change of a match: the part of ``State`` the rulesets know.

The rulesets are written against this, not against ``State`` (which holds its ruleset), so that
neither module needs the other's: ``State`` is one such position.
"""

from __future__ import annotations

from typing import Protocol

from services.rules.cards import Card, Seat, Suit
from services.rules.phases import Pending, Phase


class Position(Protocol):
    n: int
    active: list[bool]
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    turn: Seat
    direction: int
    follow: Suit
    pending: int
    pending_kind: Pending
    chain: int
    phase: Phase
    draws: int
    opening: bool
    w4_seat: Seat
    w4_bluff: bool
    finisher: Seat
    double_points: bool
    dealer: Seat
    rounds_played: int
    scores: list[int]
    match_over: bool
    match_winners: list[Seat]
    tiebreak: list[Seat]

    def next_seat(self, seat: Seat, direction: int = 0) -> Seat: ...
    def previous_seat(self, seat: Seat) -> Seat: ...
    def players(self) -> int: ...
    def can_draw(self) -> bool: ...
    def draw(self, seat: Seat, k: int) -> list[Card]: ...
