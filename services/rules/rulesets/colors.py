"""The colour-deck ruleset: ``colors108``.

>>> from services.rules.cards import COLORS
>>> rs = Colors108({})
>>> rs.card_points(COLORS.parse("W+4")), rs.challengeable(COLORS.parse("W+4")), rs.challengeable(COLORS.parse("W"))
(50, True, False)
"""

from __future__ import annotations

from typing import Any, ClassVar

from services.rules.cards import (
    COLORS,
    RANKS,
    SUITS,
    V_PLUS2,
    V_REV,
    V_SKIP,
    V_WILD4,
    W4,
    WILD,
    Card,
    Seat,
    Suit,
    colors_deck,
    rank,
    suit,
)
from services.rules.phases import NORMAL, PLUS2, WILD4, Pending, Phase
from services.rules.position import Position
from services.rules.rulesets.base import NEXT_PLAYER, OptionError, Ruleset


class Colors108(Ruleset):
    """Seed 002: the colour deck, +2 chains, wilds, the W+4 challenge, "última"."""

    name: ClassVar[str] = "colors108"
    family = COLORS
    max_seats: ClassVar[int] = 10
    default_hand = 7
    announce_mode = NEXT_PLAYER
    random_first = True
    attacks: ClassVar[dict[int, int]] = {V_SKIP: 10, V_PLUS2: 12, V_REV: 4}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {"quick": (True, False), "teams": (True, False)}

    def configure(self, opts: dict[str, Any]) -> None:
        self.scoring = not opts.get("quick", False)
        self.teams = opts.get("teams", False)
        self.target = self.target or 500

    def check_seats(self, seats: int) -> None:
        super().check_seats(seats)
        if self.teams and seats != 4:
            raise OptionError("teams are played with 4 seats")

    def deck(self, seats: int) -> list[Card]:
        return colors_deck()

    def card_points(self, card: Card) -> int:
        v = rank(card)
        return 50 if suit(card) == WILD else (20 if v >= V_SKIP else v)

    def starter_returns(self, card: Card) -> bool:
        return rank(card) == V_WILD4

    def starter_effect(self, s: Position) -> None:
        top = s.discard[-1]
        v = rank(top)
        if suit(top) == WILD:
            s.follow = -1
        elif v == V_PLUS2:
            s.pending = 2
            s.pending_kind = PLUS2
        elif v == V_SKIP:
            s.turn = s.next_seat(s.turn)
        elif v == V_REV:
            s.direction = -1
            s.turn = s.next_seat(s.turn)

    def pending_kind(self, top: Card) -> Pending:
        return PLUS2 if rank(top) == V_PLUS2 else WILD4

    def challengeable(self, card: Card) -> bool:
        return card == W4

    def answers(self, s: Position, cards: list[Card]) -> list[Card]:
        """A +2 on a +2 chain; nothing on a wild draw four."""
        twos: list[Card] = []
        if s.pending_kind is PLUS2:
            for c in cards:  # a loop, not a comprehension: that is a function made and called (CPython 3.11)
                if RANKS[c] == V_PLUS2:
                    twos.append(c)
        return twos

    def may_follow(self, follow: Suit, top: int, card: Card) -> bool:
        """Anything while no colour is in force, else the colour, the top's value or a wild."""
        return follow < 0 or SUITS[card] == follow or RANKS[card] == top or SUITS[card] == WILD

    def effect(self, s: Position, seat: Seat, card: Card, choose: Suit) -> tuple[Seat, Phase]:
        v = RANKS[card]
        if SUITS[card] == WILD:
            if v == V_WILD4:
                s.w4_seat = seat
                s.w4_bluff = _holds_suit(s.hands[seat], s.follow)
                s.pending = 4
                s.pending_kind = WILD4
            s.follow = choose
            return s.next_seat(seat), NORMAL
        s.follow = SUITS[card]
        if v == V_SKIP:
            return s.next_seat(s.next_seat(seat)), NORMAL
        if v == V_REV:
            s.direction = -s.direction
            return (seat if s.players() == 2 else s.next_seat(seat)), NORMAL
        if v == V_PLUS2:
            s.pending += 2
            s.pending_kind = PLUS2
        return s.next_seat(seat), NORMAL

    def needs_mau_mau(self, card: Card) -> bool:
        return False

    def score_round(self, s: Position, winner: Seat, blocked: bool) -> list[int]:
        if not self.teams:
            return super().score_round(s, winner, blocked)
        pts = [0] * s.n
        if self.scoring:
            side = winner % 2
            pts[side] = pts[side + 2] = sum(self.hand_points(h) for i, h in enumerate(s.hands) if i % 2 != side)
        return pts

    def end_match(self, s: Position, winner: Seat) -> None:
        if not self.scoring or s.scores[winner] >= (self.target or 500):
            s.match_over = True
            s.match_winners = [winner, (winner + 2) % 4] if self.teams else [winner]


def _holds_suit(hand: list[Card], follow: Suit) -> bool:
    """Whether ``hand`` holds a card of the colour in force (a W+4 played so is a bluff).

    A function of its own: a generator expression in ``effect`` would make a cell on every card played.
    """
    return follow >= 0 and any(SUITS[c] == follow for c in hand)
