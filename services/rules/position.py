"""What a ruleset's hooks read and change of a match: the ``State`` but its ruleset.

``State`` holds its ruleset and the rulesets' hooks take a state, so one of the two must not
know the other. This class, below both, is what the hooks are written against, and ``State``
extends it with the ruleset. A class, not a protocol: compiled by mypyc (``make setup``), a
hook reads and writes a position's attributes in place, where a protocol's are looked up by name.
"""

from __future__ import annotations

from services.rules.cards import Card, Seat, Suit
from services.rules.phases import NONE, NORMAL, Pending, Phase
from services.rules.shuffle import shuffled

SLOTS = (
    "n", "active", "hands", "stock", "discard", "turn", "direction", "follow",
    "pending", "pending_kind", "chain", "phase", "draws", "drawn_card", "last_player", "quick_from",
    "opening", "burn_announced", "mau_offender", "mau_guard", "w4_seat", "w4_bluff",
    "finisher", "stuck", "double_points", "dealer", "first", "rounds_played", "scores",
    "round_points", "round_over", "round_winner", "match_over", "match_winners",
    "tiebreak", "seed", "reshuffles", "draw_log",
)  # fmt: skip


class Position:
    """A match at one table: the round in play and the match around it (``State`` adds its ruleset).

    Stock and discard keep their top card at the end of the list. ``turn`` is -1 when
    the round is over. ``follow`` is the suit or colour in force, -1 when any card may
    follow (or while a classic52 dealer still has to choose).
    """

    __slots__ = SLOTS

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

    def __init__(self, seats: int, scores: list[int] | None, rounds_played: int):
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

    def reuses_discard(self) -> bool:
        """Whether an empty stock is made again from the discard pile (but its top): the ruleset says (``State``)."""
        raise NotImplementedError

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
        return bool(self.stock) or (len(self.discard) > 1 and self.reuses_discard())

    def draw(self, seat: Seat, k: int) -> list[Card]:
        """Move up to ``k`` cards from the stock to ``seat``, reshuffling the discard pile when needed (and the
        ruleset reuses it)."""
        stock, hand = self.stock, self.hands[seat]
        if k == 1 and stock:  # the common draw: one card, the stock not empty
            return [self.draw_one(seat)]
        got: list[Card] = []
        for _ in range(k):
            if not stock:
                if self.reuses_discard():
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

    def draw_one(self, seat: Seat) -> Card:
        """``draw(seat, 1)``'s card, -1 where none came: a turn's own draw, without a list."""
        stock = self.stock
        if not stock:
            got = self.draw(seat, 1)  # a reshuffle, if the ruleset makes one
            return got[0] if got else -1
        c = stock.pop()
        self.hands[seat].append(c)
        if self.draw_log is not None:
            self.draw_log.append((seat, [c]))
        return c

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
