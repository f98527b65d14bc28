"""The French-suited rulesets: ``classic32``, ``classic52`` and ``candeias``.

>>> from services.rules.cards import FRENCH
>>> Classic32({}).card_points(FRENCH.parse("JH")), Candeias({}).special(FRENCH.parse("QS"))
(20, True)
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from services.rules.cards import (
    CARD_SPACE,
    R7,
    R8,
    R9,
    RA,
    RANKS,
    RJ,
    RK,
    RQ,
    SUITS,
    Card,
    Seat,
    Suit,
    distinct,
    french_deck,
    rank,
)
from services.rules.phases import BOUNCE, CHOOSE, NINE, NORMAL, SEVEN, Pending, Phase
from services.rules.position import Position
from services.rules.rulesets.base import CHALLENGE_MODE, OptionError, Ruleset, highest, lowest


class French(Ruleset):
    """What the French-suited tables share: Jacks choose, 7s chain, 8s skip."""

    low_rank = 0
    ace = "none"  # classic52's Ace power (``ace_power``): "draw_one" or "skip_all"
    attacks: ClassVar[dict[int, int]] = {R7: 12, R8: 10}

    def deck(self, seats: int) -> list[Card]:
        return french_deck(self.low_rank)

    def answers(self, s: Position, cards: list[Card]) -> list[Card]:
        """A 7 on a 7 chain (where the chain may go on)."""
        sevens: list[Card] = []
        if s.pending_kind is SEVEN and self.may_answer_seven(s):
            for c in cards:  # a loop, not a comprehension: that is a function made and called (CPython 3.11)
                if RANKS[c] == R7:
                    sevens.append(c)
        return sevens

    def may_follow(self, follow: Suit, top: int, card: Card) -> bool:
        """A Jack on anything (on a Jack only with ``jack_on_jack``), else the suit in force or the top's rank."""
        if RANKS[card] == RJ:
            return self.jack_on_jack or top != RJ
        return SUITS[card] == follow or RANKS[card] == top

    def may_answer_seven(self, s: Position) -> bool:
        return self.seven_stacking

    def needs_company(self, card: Card) -> bool:
        return self.ace_company and RANKS[card] == RA

    def company(self, hand: list[Card], card: Card) -> list[Card]:
        """On an Ace: its suit, another Ace, or a Jack (a Jack may always go on an Ace); in the hand's order."""
        rest = list(hand)
        rest.remove(card)
        s, ranks, suits = SUITS[card], RANKS, SUITS
        return distinct([c for c in rest if suits[c] == s or ranks[c] == RA or ranks[c] == RJ])

    def pending_kind(self, top: Card) -> Pending:
        return NINE if self.nine_draws and rank(top) == R9 else SEVEN

    def effect(self, s: Position, seat: Seat, card: Card, choose: Suit) -> tuple[Seat, Phase]:
        r = RANKS[card]
        s.follow = choose if r == RJ and choose >= 0 else SUITS[card]
        if r == R7 and self.seven_draws:
            s.pending += self.seven_draws
            s.pending_kind = SEVEN
            s.chain += 1
        elif r == R8:
            return self.eight(s, seat)
        elif r == R9 and self.nine_draws:
            s.pending = self.nine_draws
            s.pending_kind = NINE
        elif r == RA and self.ace != "none":
            return self.ace_power(s, seat)
        return s.next_seat(seat), NORMAL

    def ace_power(self, s: Position, seat: Seat) -> tuple[Seat, Phase]:
        """What an Ace does where the ``ace`` option gives it a power."""
        raise NotImplementedError

    def eight(self, s: Position, seat: Seat) -> tuple[Seat, Phase]:
        nxt = s.next_seat(seat)
        if self.eight_bounce:
            return nxt, BOUNCE
        return s.next_seat(nxt), NORMAL


class Classic32(French):
    """Seed 000: 32 cards, no Jack on Jack, draw any time, automatic "Mau", collect points."""

    name: ClassVar[str] = "classic32"
    low_rank = R7
    max_seats: ClassVar[int] = 8  # the site seats 2-4; "com mais de cinco pessoas, juntam-se dois baralhos"
    clockwise = False  # "o jogo anda para a direita": to each player's right hand
    defaults: ClassVar[dict[str, Any]] = {"jack_on_jack": False}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {"scoring": ("collect", "against")}

    def configure(self, opts: dict[str, Any]) -> None:
        # ``against``: every hand but the winner's counts against its holder; the lowest total wins
        self.against = opts.get("scoring", "collect") == "against"
        self.lowest_wins = self.against

    def deck(self, seats: int) -> list[Card]:
        return french_deck(R7, 2 if seats >= 6 else 1)

    def card_points(self, card: Card) -> int:
        r = rank(card)
        return {RJ: 20, RA: 11, RK: 10, RQ: 10, 8: 10}.get(r, r + 2)

    def score_round(self, s: Position, winner: Seat, blocked: bool) -> list[int]:
        if self.against:  # a blocked round alike: each hand but the winner's counts against it
            return [0 if i == winner else self.hand_points(h) for i, h in enumerate(s.hands)]
        if not blocked:
            return super().score_round(s, winner, blocked)
        own = self.hand_points(s.hands[winner])
        pts = [0] * s.n
        pts[winner] = sum(self.hand_points(h) - own for i, h in enumerate(s.hands) if i != winner)
        return pts

    def end_match(self, s: Position, winner: Seat) -> None:
        goal = self.target or (100 if self.against else 100 * s.n)
        if max(s.scores) >= goal:
            s.match_over = True
            s.match_winners = lowest(s.scores) if self.against else highest(s.scores)


class Classic52(French):
    """Seed 003: Jacks wild, draw only without a play, "Mau"/"Mau Mau" challenged, lowest total wins."""

    name: ClassVar[str] = "classic52"
    max_seats: ClassVar[int] = 10
    clockwise = True  # seed 003: "o jogo avança no sentido horário"
    announce_mode = CHALLENGE_MODE
    draw_anytime = False
    lowest_wins = True
    defaults: ClassVar[dict[str, Any]] = {"mau_mau_call": "always"}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "deck": (52, 32),
        "ace": ("none", "draw_one", "skip_all"),
        "seven_chain_limit": None,
        "scoring": ("points", "none"),
    }

    def configure(self, opts: dict[str, Any]) -> None:
        self.low_rank = R7 if opts.get("deck", 52) == 32 else 0
        self.ace = opts.get("ace", "none")
        if self.ace != "none" and self.ace_company:
            raise OptionError("ace_with_company does not go with an Ace power")
        self.chain_limit: int | None = opts.get("seven_chain_limit")
        self.scoring = opts.get("scoring", "points") == "points"
        self.target = self.target or 100

    def deck(self, seats: int) -> list[Card]:
        return french_deck(self.low_rank, 2 if seats >= 7 else 1)

    def card_points(self, card: Card) -> int:
        r = rank(card)
        return 10 if r >= RJ else r + 2

    def may_answer_seven(self, s: Position) -> bool:
        return self.seven_stacking and (self.chain_limit is None or s.chain <= self.chain_limit)

    def starter_effect(self, s: Position) -> None:
        if rank(s.discard[-1]) == RJ:
            s.phase = CHOOSE
            # a tie-break round's dealer may be out of it (dealt no hand, no action of its own): then the tied
            # seat before the first player, where the dealer sits, chooses
            s.turn = s.dealer if s.active[s.dealer] else s.previous_seat(s.first)
            s.follow = -1

    def ace_power(self, s: Position, seat: Seat) -> tuple[Seat, Phase]:
        if self.ace == "skip_all":
            return seat, NORMAL
        for other in range(s.n):
            if other != seat and s.active[other]:
                s.draw(other, 1)
        return s.next_seat(seat), NORMAL

    def score_round(self, s: Position, winner: Seat, blocked: bool) -> list[int]:
        if not self.scoring:
            return [0] * s.n
        return [0 if i == winner else self.hand_points(h) for i, h in enumerate(s.hands)]

    def end_match(self, s: Position, winner: Seat) -> None:
        if not self.scoring or s.tiebreak:
            s.match_over = True
            s.match_winners = [winner]
        elif max(s.scores) >= (self.target or 100):
            low = lowest(s.scores)
            if len(low) == 1:
                s.match_over = True
                s.match_winners = low
            else:
                s.tiebreak = low


_CANDEIAS_SPECIAL: Final = frozenset((RA, R7, R8, RJ, RQ, RK))  # candeias' special ranks: a card of these has an effect


class Candeias(French):
    """Seed 004: two decks, specials A 7 8 J Q K, burns, doubles, quick actions, five rounds."""

    name: ClassVar[str] = "candeias"
    max_seats: ClassVar[int] = 5
    default_hand = 6
    after_draw_any = True
    has_burns = True
    lowest_wins = True
    late_join_rounds = 2
    rounds = 5
    attacks: ClassVar[dict[int, int]] = {R7: 12, R8: 10, RA: 8, RK: 6}

    def configure(self, opts: dict[str, Any]) -> None:
        if self.eight_bounce:
            raise OptionError("eight_bounce needs a ruleset where the 8 skips")
        if self.ace_company:
            raise OptionError("ace_with_company does not go with candeias' Ace, which skips")
        self.specials = [rank(c) in _CANDEIAS_SPECIAL or (self.nine_draws > 0 and rank(c) == R9)
                         for c in CARD_SPACE]

    def deck(self, seats: int) -> list[Card]:
        return french_deck(0, 2)

    def card_points(self, card: Card) -> int:
        r = rank(card)
        return 1 if r == RA else r + 2

    def special(self, card: Card) -> bool:
        return self.specials[card]

    def starter_returns(self, card: Card) -> bool:
        return self.specials[card]

    def starter_effect(self, s: Position) -> None:
        s.opening = True

    def effect(self, s: Position, seat: Seat, card: Card, choose: Suit) -> tuple[Seat, Phase]:
        r = RANKS[card]
        if r == RA:
            s.follow = SUITS[card]
            return s.next_seat(s.next_seat(seat)), NORMAL
        if r == RQ:
            s.follow = SUITS[card]
            s.direction = -s.direction
            return (seat if s.players() == 2 else s.next_seat(seat)), NORMAL
        if r in (R8, RK):
            s.follow = SUITS[card]
            s.draw(s.previous_seat(seat), 2 if r == R8 else 1)
            return s.next_seat(seat), NORMAL
        return French.effect(self, s, seat, card, choose)  # not super(): this runs on every card played

    def go_out(self, s: Position, seat: Seat, card: Card, choose: Suit) -> Seat:
        r = RANKS[card]
        if r == RJ:
            s.double_points = True
        elif r in (R8, RK):
            s.draw(s.previous_seat(seat), 2 if r == R8 else 1)
        elif r == R7 and self.seven_draws:
            s.follow = SUITS[card]
            s.pending += self.seven_draws
            s.pending_kind = SEVEN
            s.chain += 1
            s.finisher = seat
            return s.next_seat(seat)
        return -1

    def score_round(self, s: Position, winner: Seat, blocked: bool) -> list[int]:
        factor = 2 if s.double_points else 1
        return [0 if i == winner else factor * self.hand_points(h) for i, h in enumerate(s.hands)]

    def end_match(self, s: Position, winner: Seat) -> None:
        if s.rounds_played >= self.rounds:
            s.match_over = True
            s.match_winners = lowest(s.scores)
