"""The state of a match at one table, and the small moves every rule is made of.

``State`` is mutable for speed and owned by whoever holds it: the pure API
(``decide``/``evolve``) copies before it changes anything, while simulations (bots,
benchmarks) step one copy in place. It is a ``Position`` (what the rulesets' hooks take)
with its ruleset.
"""

from __future__ import annotations

from typing import Final

from services.rules.position import SLOTS, Position
from services.rules.rulesets.base import Ruleset

_SLOTS = ("rs", *SLOTS)  # every attribute of a state
_new = object.__new__


class State(Position):
    """A match at one table, played by the rules of ``rs`` (see ``Position``)."""

    __slots__ = ("rs",)

    rs: Ruleset

    def __init__(self, rs: Ruleset, seats: int, scores: list[int] | None = None, rounds_played: int = 0):
        self.rs = rs
        super().__init__(seats, scores, rounds_played)

    def reuses_discard(self) -> bool:
        return self.rs.reuses_discard

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


# Whether this module runs as Python (else mypyc compiled it, and ``State`` is a C type of its own)
_INTERPRETED: Final = State.__new__ is object.__new__
