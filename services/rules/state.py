"""The state of a match at one table, and the small moves every rule is made of.

``State`` is mutable for speed and owned by whoever holds it: the pure API
(``decide``/``evolve``) copies before it changes anything, while simulations (bots,
benchmarks) step one copy in place.
"""

from __future__ import annotations

from typing import Final

from services.rules.cards import Card, Seat, Suit
from services.rules.phases import NONE, NORMAL, Pending, Phase
from services.rules.rulesets.base import Ruleset
from services.rules.shuffle import shuffled

_SLOTS = (
    "rs", "n", "active", "hands", "stock", "discard", "turn", "direction", "follow",
    "pending", "pending_kind", "chain", "phase", "draws", "drawn_card", "last_player", "quick_from",
    "opening", "burn_announced", "mau_offender", "mau_guard", "w4_seat", "w4_bluff",
    "finisher", "stuck", "double_points", "dealer", "first", "rounds_played", "scores",
    "round_points", "round_over", "round_winner", "match_over", "match_winners",
    "tiebreak", "seed", "reshuffles", "draw_log",
)  # fmt: skip

_new = object.__new__


class State:
    """A match at one table: the round in play and the match around it.

    Stock and discard keep their top card at the end of the list. ``turn`` is -1 when
    the round is over. ``follow`` is the suit or colour in force, -1 when any card may
    follow (or while a classic52 dealer still has to choose).
    """

    __slots__ = _SLOTS

    rs: Ruleset
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
    draws: int  # the single draws of the turn so far (a ruleset may allow several: ``Ruleset.may_draw_or_pass``)
    drawn_card: Card
    last_player: Seat
    quick_from: Seat
    opening: bool
    burn_announced: bool
    mau_offender: Seat
    mau_guard: Seat
    w4_seat: Seat
    w4_bluff: bool
    finisher: Seat
    stuck: int
    double_points: bool
    dealer: Seat
    first: Seat
    rounds_played: int
    scores: list[int]
    round_points: list[int] | None
    round_over: bool
    round_winner: Seat
    match_over: bool
    match_winners: list[Seat]
    tiebreak: list[Seat]
    seed: str | None
    reshuffles: int
    draw_log: list[tuple[Seat, list[Card]]] | None

    def __init__(self, rs: Ruleset, seats: int, scores: list[int] | None = None, rounds_played: int = 0):
        self.rs = rs
        self.n = seats
        self.active = [True] * seats
        self.hands = [[] for _ in range(seats)]
        self.stock = []
        self.discard = []
        self.scores = list(scores) if scores is not None else [0] * seats
        self.rounds_played = rounds_played
        self.round_points = None
        self.round_over = True
        self.round_winner = -1
        self.match_over = False
        self.match_winners = []
        self.tiebreak = []
        self.seed = None
        self.reshuffles = 0
        self.draw_log = None
        self.dealer = self.first = 0
        self.reset_round()

    def reset_round(self) -> None:
        self.turn = -1
        self.direction = 1
        self.follow = -1
        self.pending = self.chain = 0
        self.pending_kind = NONE
        self.phase = NORMAL
        self.draws = 0
        self.drawn_card = self.last_player = self.quick_from = -1
        self.opening = self.burn_announced = False
        self.mau_offender = self.mau_guard = self.w4_seat = -1
        self.w4_bluff = False
        self.finisher = -1
        self.stuck = 0
        self.double_points = False

    def copy(self) -> State:
        """An independent copy: its lists are new (``draw_log`` alone is shared, as a simulation's log).

        One assignment per slot, not a loop over ``_SLOTS``: a copy is made for every decision
        and every fold (``decider``), and the loop's ``getattr``/``setattr`` calls cost twice as
        much. ``tests/rules/test_state_copy.py`` holds it to every slot. It starts from a blank instance
        (``object.__new__``, no ``__init__`` run) where the class is Python; compiled by mypyc (``make setup``)
        it refuses that, and its constructor, all C, costs less than reading the slot names.
        """
        new = _new(State) if _INTERPRETED else State(self.rs, self.n)
        new.rs = self.rs
        new.n = self.n
        new.active = self.active[:]
        new.hands = [h[:] for h in self.hands]
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.turn = self.turn
        new.direction = self.direction
        new.follow = self.follow
        new.pending = self.pending
        new.pending_kind = self.pending_kind
        new.chain = self.chain
        new.phase = self.phase
        new.draws = self.draws
        new.drawn_card = self.drawn_card
        new.last_player = self.last_player
        new.quick_from = self.quick_from
        new.opening = self.opening
        new.burn_announced = self.burn_announced
        new.mau_offender = self.mau_offender
        new.mau_guard = self.mau_guard
        new.w4_seat = self.w4_seat
        new.w4_bluff = self.w4_bluff
        new.finisher = self.finisher
        new.stuck = self.stuck
        new.double_points = self.double_points
        new.dealer = self.dealer
        new.first = self.first
        new.rounds_played = self.rounds_played
        new.scores = self.scores[:]
        points = self.round_points
        new.round_points = None if points is None else points[:]
        new.round_over = self.round_over
        new.round_winner = self.round_winner
        new.match_over = self.match_over
        new.match_winners = self.match_winners[:]
        new.tiebreak = self.tiebreak[:]
        new.seed = self.seed
        new.reshuffles = self.reshuffles
        new.draw_log = self.draw_log
        return new

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def next_seat(self, seat: Seat, direction: int = 0) -> Seat:
        """The next seat still in the round from ``seat`` (in ``direction``, default the current one)."""
        d = direction or self.direction
        s = (seat + d) % self.n
        if self.active[s]:  # the common case: everyone is still in the round
            return s
        n, active = self.n, self.active
        while not active[s]:
            s = (s + d) % n
        return s

    def previous_seat(self, seat: Seat) -> Seat:
        return self.next_seat(seat, -self.direction)

    def players(self) -> int:
        return sum(self.active)

    def can_draw(self) -> bool:
        """Whether a draw would give a card: the stock, or a discard pile the ruleset reshuffles into it."""
        return bool(self.stock) or (len(self.discard) > 1 and self.rs.reuses_discard)

    def draw(self, seat: Seat, k: int) -> list[Card]:
        """Move up to ``k`` cards from the stock to ``seat``, reshuffling the discard pile when needed (and the
        ruleset reuses it)."""
        stock, hand = self.stock, self.hands[seat]
        if k == 1 and stock:  # the common draw: one card, the stock not empty
            c = stock.pop()
            hand.append(c)
            if self.draw_log is not None:
                self.draw_log.append((seat, [c]))
            return [c]
        got: list[Card] = []
        for _ in range(k):
            if not stock:
                if self.rs.reuses_discard:
                    self.reshuffle()
                    stock = self.stock
                if not stock:
                    break
            c = stock.pop()
            hand.append(c)
            got.append(c)
        if self.draw_log is not None:
            self.draw_log.append((seat, got))
        return got

    def reshuffle(self) -> None:
        """The discard pile but its top becomes the stock (seeded; in put-down order for scripts)."""
        pile = self.discard[:-1]
        if not pile:
            return
        self.discard = self.discard[-1:]
        self.reshuffles += 1
        if self.seed is None:
            pile.reverse()  # the oldest card becomes the next one drawn
            self.stock = pile
        else:
            self.stock = shuffled(pile, self.seed, f"reshuffle:{self.reshuffles}")


# Whether this module runs as Python (else mypyc compiled it, and ``State`` is a C type of its own)
_INTERPRETED: Final = State.__new__ is object.__new__
