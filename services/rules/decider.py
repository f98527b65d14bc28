"""The pure decider: ``decide(state, action) -> events`` and ``evolve(state, event) -> state``.

Events are facts. ``RoundDealt`` lays a deal out (its seed committed to, not shown);
``ActionTaken`` is an accepted decision with what it drew for whom; ``RoundEnded`` reveals
the result and the seed. ``evolve`` never changes the state it is given.

>>> from services.rules.engine import new_match
>>> s0 = new_match("classic32", 2)
>>> dealt = deal(s0, seed="00" * 32, table_id="t", round_no=0)
>>> s1 = evolve(s0, dealt)
>>> len(s1.hands[0]), len(s1.hands[1]), len(s1.stock), s0.round_over, s1.round_over
(5, 5, 21, True, False)
>>> events = decide(s1, next(iter(legal_actions(s1, s1.turn))))
>>> type(events[0]).__name__
'ActionTaken'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from services.rules.actions import Action
from services.rules.cards import Card, Seat
from services.rules.engine import apply, check, deal_cards, legal_actions, start_round
from services.rules.shuffle import commitment, verify_commitment
from services.rules.state import State

__all__ = ["ActionTaken", "Event", "RoundDealt", "RoundEnded", "deal", "decide", "decide_folding", "evolve",
           "legal_actions"]


@dataclass(frozen=True)
class RoundDealt:
    round_no: int
    dealer: Seat
    first: Seat
    hands: tuple[tuple[Card, ...], ...]
    starter: Card
    stock: tuple[Card, ...]  # from its top down
    seed: str | None
    commitment: str


@dataclass(frozen=True)
class ActionTaken:
    action: Action
    draws: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()  # (seat, cards) for every draw it caused
    reshuffles: int = 0


@dataclass(frozen=True)
class RoundEnded:
    winner: Seat
    round_points: tuple[int, ...]
    scores: tuple[int, ...]
    match_over: bool
    match_winners: tuple[Seat, ...]
    seed: str | None  # revealed: anyone can now recompute the deal and every reshuffle


Event = RoundDealt | ActionTaken | RoundEnded


def decide(s: State, a: Action) -> tuple[Event, ...]:
    """The events an action causes, or a ``RuleError`` that refuses it. ``s`` is not changed."""
    check(s, a)
    after = s.copy()
    after.draw_log = []
    apply(after, a)
    return _caused(s, a, after, after.draw_log)


def decide_folding(s: State, a: Action, fold: Callable[[], State]) -> tuple[Event, ...]:
    """``decide``, where ``fold`` makes the state after ``a``: it must ``evolve`` ``s`` by ``ActionTaken(a)``.

    For a verifier, which folds every action it has checked: the state is stepped once, not
    once to decide and once to fold. ``s`` lends ``fold`` an empty ``draw_log``, which the
    copy ``evolve`` steps shares and logs the draws in. A refused action is not folded;
    a ``fold`` that did not step a copy of ``s`` is answered by ``decide`` itself.
    """
    check(s, a)
    lent = s.draw_log
    log: list[tuple[Seat, list[Card]]] = []
    s.draw_log = log
    try:
        after = fold()
    finally:
        s.draw_log = lent
    if after.draw_log is not log:  # not a copy of ``s`` stepped
        return decide(s, a)
    after.draw_log = lent
    return _caused(s, a, after, log)


def _caused(before: State, a: Action, after: State, draws: list[tuple[Seat, list[Card]]]) -> tuple[Event, ...]:
    taken = ActionTaken(a, tuple((seat, tuple(cards)) for seat, cards in draws), after.reshuffles - before.reshuffles)
    if after.round_over:
        return taken, _ended(after)
    return (taken,)


def _ended(s: State) -> RoundEnded:
    return RoundEnded(s.round_winner, tuple(s.round_points or ()), tuple(s.scores), s.match_over,
                      tuple(s.match_winners), s.seed)


def evolve(s: State, e: Event) -> State:
    """The state after event ``e`` (a new object)."""
    new = s.copy()
    if isinstance(e, ActionTaken):
        apply(new, e.action)
    elif isinstance(e, RoundDealt):
        start_round(new, e.dealer, e.first, [list(h) for h in e.hands], e.starter, list(e.stock), e.seed)
    return new


def deal(s: State, seed: str, table_id: str, round_no: int, dealer: Seat | None = None) -> RoundDealt:
    """The deal of the next round from ``seed`` (hex), as documented in docs/shuffle.md: ``engine.deal_cards``'
    cards (the dealer ``round_no``'s seat unless given) in the event that lays them out, with the seed's commitment."""
    if dealer is None:
        dealer = round_no % s.n
    first, hands, starter, stock = deal_cards(s, seed, dealer)
    return RoundDealt(round_no, dealer, first, hands, starter, stock, seed, commitment(table_id, round_no, seed))


def verify_deal(before: State, dealt: RoundDealt, table_id: str, revealed_seed: str) -> bool:
    """Whether a revealed seed matches the deal's commitment and recomputes exactly the recorded deal."""
    if not verify_commitment(table_id, dealt.round_no, revealed_seed, dealt.commitment):
        return False
    return deal(before, revealed_seed, table_id, dealt.round_no, dealt.dealer) == dealt
