"""Oito Maluco (``crazy8``): the rules of OpenSpiel's ``crazy_eights`` with its default parameters.

2 to 15 seats, one 52-card deck (two from 6 seats), 5 cards each (7 with two players); an 8 goes
on anything and names a suit; a turn may draw up to 5 cards, playing any valid card after a
draw, and passes only after its fifth draw or with the stock empty, which is never made again
from the pile; the match is one deal, ended by an empty hand or by ``players + 1`` passes in a
row with the stock empty. Every hand left counts against its
holder (8: 50, J Q K A: 10, the others their number); the lowest wins. ``special_cards``:
the Q skips, the A reverses, the 2 makes the next player draw 2 unless they answer with a 2.

>>> from services.rules.cards import FRENCH
>>> rs = Crazy8({})
>>> rs.deal_size(2), rs.deal_size(3), len(rs.deck(5)), len(rs.deck(6))
(7, 5, 52, 104)
>>> [rs.card_points(FRENCH.parse(c)) for c in ("8S", "AH", "QC", "10D", "2S")]
[50, 10, 10, 10, 2]
>>> rs.chooses[FRENCH.parse("8H")], rs.chooses[FRENCH.parse("JH")]
(True, False)
>>> from services.rules.decider import deal
>>> from services.rules.engine import new_match
>>> [[len(h) for h in deal(new_match(rs, n), "c8" * 32, "t", 0).hands] for n in (2, 3, 15)]
[[7, 7], [5, 5, 5], [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Final

from services.rules.cards import FRENCH, R8, RA, RANKS, RJ, RQ, SUITS, Card, Seat, Suit, french_deck, rank
from services.rules.phases import NORMAL, PLUS2, Pending, Phase
from services.rules.position import Position
from services.rules.rulesets.base import Ruleset, lowest

R2: Final = 0
# The French cards with the 8, not the Jack, naming a suit
EIGHTS: Final = replace(FRENCH, chooser=R8)


class Crazy8(Ruleset):
    """OpenSpiel's ``crazy_eights`` (defaults): the 8 wild, up to 5 draws a turn, penalties, one deal a match."""

    name: ClassVar[str] = "crazy8"
    family = EIGHTS
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 15
    default_hand = 5
    after_draw_any = True  # after a draw any valid card of the hand
    random_first = True  # OpenSpiel draws the dealer; the seat after it plays first
    reuses_discard = False  # no reshuffle: an empty stock stays empty
    calls = False
    passes_block = True
    lowest_wins = True
    max_draws = 5  # OpenSpiel's max_draw_cards
    rounds = 1  # a match is one deal (``target_points`` is taken, as everywhere, and never read)
    bot_names: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Zeca", "strong"), ("Dona Cida", "medium"), ("Tonho", "weak"), ("Marilene", "strong"), ("Dedé", "medium"),
        ("Rosinha", "weak"), ("Seu Baltazar", "strong"), ("Quitéria", "medium"), ("Pipoca", "weak"))
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {"special_cards": (False, True)}

    def configure(self, opts: dict[str, Any]) -> None:
        self.special_cards: bool = opts.get("special_cards", False)

    def deal_size(self, players: int) -> int:
        return 7 if players == 2 else 5

    def deck(self, seats: int) -> list[Card]:
        return french_deck(0, 2 if seats > 5 else 1)

    def card_points(self, card: Card) -> int:
        r = rank(card)
        return 50 if r == R8 else (10 if r >= RJ else r + 2)

    def starter_returns(self, card: Card) -> bool:
        """An 8 is never the starter: it goes back into the stock and another card is turned."""
        return rank(card) == R8

    def starter_effect(self, s: Position) -> None:
        """With ``special_cards`` the starter acts as if the dealer (the seat before the first) had played it."""
        if not self.special_cards:
            return
        r = rank(s.discard[-1])
        if r == RQ:
            s.turn = s.next_seat(s.turn)
        elif r == RA:
            s.direction = -1
            s.turn = s.next_seat(s.next_seat(s.turn))  # the seat before the dealer
        elif r == R2:
            s.pending = 2
            s.pending_kind = PLUS2

    def may_follow(self, follow: Suit, top: int, card: Card) -> bool:
        """An 8 on anything, else the suit in force or the top's rank."""
        return RANKS[card] == R8 or SUITS[card] == follow or RANKS[card] == top

    def answers(self, s: Position, cards: list[Card]) -> list[Card]:
        """A 2 on a pending draw of 2s (of any suit)."""
        twos: list[Card] = []
        for c in cards:  # a loop, not a comprehension: that is a function made and called (CPython 3.11)
            if RANKS[c] == R2:
                twos.append(c)
        return twos

    def pending_kind(self, top: Card) -> Pending:
        return PLUS2

    def may_draw_or_pass(self, s: Position, playable: list[Card]) -> tuple[bool, bool]:
        """A pending draw is drawn in full (or answered); else a turn draws while the stock has cards and it
        drew fewer than ``max_draws``, and may pass exactly when it may not draw."""
        if s.pending:
            return True, False
        draw = bool(s.stock) and s.draws < self.max_draws
        return draw, not draw

    def blocked_after(self, players: int) -> int:
        return players + 1

    def effect(self, s: Position, seat: Seat, card: Card, choose: Suit) -> tuple[Seat, Phase]:
        r = RANKS[card]
        if r == R8:
            s.follow = choose
            return s.next_seat(seat), NORMAL
        s.follow = SUITS[card]
        if self.special_cards:
            if r == RQ:
                return s.next_seat(s.next_seat(seat)), NORMAL
            if r == RA:
                s.direction = -s.direction
            elif r == R2 and s.stock:  # with the stock empty a 2 is a plain card
                s.pending += 2
                s.pending_kind = PLUS2
        return s.next_seat(seat), NORMAL

    def score_round(self, s: Position, winner: Seat, blocked: bool) -> list[int]:
        """Every hand counts against its holder (the one who went out has none)."""
        return [self.hand_points(h) for h in s.hands]

    def end_match(self, s: Position, winner: Seat) -> None:
        """One deal is the match (OpenSpiel's game): the lowest penalty wins, equal lowest share."""
        if s.rounds_played >= self.rounds:
            s.match_over = True
            s.match_winners = lowest(s.scores)
