"""The engine every ruleset shares: a match, its rounds, its seats, and the turn machinery's API.

``check`` refuses an action with a typed error (in the precedence order of the
conformance contract) and changes nothing (``checking``); ``apply`` carries out an
action that ``check`` accepted, in place (``applying``); ``legal_actions`` yields exactly
the actions ``check`` accepts (``legal``). This module sets a match up, lays a deal out,
seats a late joiner and picks the action of a seat whose time ran out.

>>> s = new_match("classic32", 2)
>>> start_round(s, dealer=1, first=0, hands=[["7H", "9S"], ["8H", "KD"]], starter="9H", stock=["AC"])
>>> sorted(action_to_dict(a, FRENCH)["do"] + " " + action_to_dict(a, FRENCH).get("card", "")
...        for a in legal_actions(s, 0))
['draw ', 'play 7H', 'play 7H', 'play 9S', 'play 9S']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.rules.actions import CHOOSE, DRAW, PASS, PLAY, Action, action_to_dict
from services.rules.applying import apply
from services.rules.cards import FRENCH, WILD, Card, Family, Seat, suit
from services.rules.checking import check
from services.rules.legal import legal_actions
from services.rules.rulesets import Ruleset, make_ruleset
from services.rules.shuffle import choice_index, shuffled
from services.rules.state import State
from services.rules.turn import required_call, required_call_for

__all__ = ["FRENCH", "State", "action_to_dict", "add_player", "apply", "auto_action", "check", "deal_cards",
           "legal_actions", "may_join_late", "new_match", "required_call", "start_round", "winners_without"]


def new_match(ruleset: str | Ruleset, seats: int, options: dict[str, Any] | None = None,
              scores: list[int] | None = None, rounds_played: int = 0) -> State:
    """A table's match before its first deal."""
    rs = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(ruleset, options or {})
    rs.check_seats(seats)
    return State(rs, seats, scores, rounds_played)


def deal_cards(s: State, seed: str, dealer: Seat) -> tuple[Seat, tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """The cards of the next round's deal from ``seed`` (hex), as documented in docs/shuffle.md: its first player,
    each seat's hand, the starter and the stock from its top down (``decider.deal`` makes its event of them).

    The first player is the seat after the dealer, or drawn from the seed where the ruleset says so
    (``random_first``). Cards are dealt one at a time from the top of the shuffled deck, starting with the first
    player; the next card is the starter. Here, not in ``decider``: compiled (make setup), a deal is a fifth of
    the CPU of a random classic52 round less than interpreted.
    """
    rs = s.rs
    n = s.n
    seats = _tiebreak_seats(s) if s.tiebreak and not s.match_over else list(range(n))
    first = seats[choice_index(len(seats), seed, "first")] if rs.random_first else _seat_after(seats, dealer, n)
    # the deck from its top (the shuffled list's end, a new list: reversed in place) down; each seat's cards are
    # every len(order)-th
    top_down = shuffled(rs.deck(n), seed, "deal")
    top_down.reverse()
    at = seats.index(first)
    order = seats[at:] + seats[:at]
    k = len(order)
    dealt = rs.deal_size(k) * k
    if dealt >= len(top_down):
        raise ValueError(f"{len(top_down)} cards do not deal {k} hands of {dealt // k} and a starter")
    hands: list[tuple[Card, ...]] = [()] * n
    for place in range(k):
        hands[order[place]] = tuple(top_down[place:dealt:k])
    return first, tuple(hands), top_down[dealt], tuple(top_down[dealt + 1:])


def _tiebreak_seats(s: State) -> list[Seat]:
    return [i for i in range(s.n) if i in s.tiebreak]


def _seat_after(seats: list[Seat], dealer: Seat, n: int) -> Seat:
    """The first of ``seats`` after the dealer (a function of its own: ``deal_cards`` would make cells for the key)."""
    if len(seats) == n:  # everyone plays: the seat after the dealer
        return (dealer + 1) % n
    return min(seats, key=lambda i: (i - dealer - 1) % n)


def start_round(s: State, dealer: Seat, first: Seat, hands: Sequence[Sequence[str | Card]],
                starter: str | Card, stock: Sequence[str | Card], seed: str | None = None) -> None:
    """Lay a deal out (stock listed from its top) and apply the starter; starts a new match when the last one ended.

    In a tie-break round only the tied seats play; the others are dealt nothing.
    """
    rs = s.rs
    if s.match_over:
        s.scores = [0] * s.n
        s.rounds_played = 0
        s.match_over = False
        s.match_winners = []
        s.tiebreak = []
    fam = rs.family
    s.reset_round()
    s.active = _tiebreak_active(s) if s.tiebreak else [True] * s.n
    s.hands = [_cards(fam, h) for h in hands]
    s.stock = _cards(fam, stock)[::-1]
    s.discard = [starter if isinstance(starter, int) else fam.parse(starter)]
    s.seed = seed
    s.reshuffles = 0
    s.round_over = False
    s.round_points = None
    s.round_winner = -1
    s.dealer, s.first = dealer, first
    while rs.starter_returns(s.discard[-1]) and s.stock:
        s.stock.insert(0, s.discard.pop())
        s.discard.append(s.stock.pop())
    s.turn = first
    top = s.discard[-1]
    s.follow = suit(top) if suit(top) != WILD else -1
    rs.starter_effect(s)


def _cards(fam: Family, xs: Sequence[str | Card]) -> list[Card]:
    """Cards given as numbers (a deal's) or names (a script's)."""
    try:
        # numbers already (a deal's), copied as they are: ``bytes`` checks that in C, at a third of the
        # cost of collecting the items' types (a ``type`` call each)
        bytes(xs)  # type: ignore[arg-type]  # a name is refused here
    except (TypeError, ValueError):
        return [x if isinstance(x, int) else fam.parse(x) for x in xs]
    return list(xs)  # type: ignore[arg-type]  # every item is a number


def _tiebreak_active(s: State) -> list[bool]:
    return [i in s.tiebreak for i in range(s.n)]


def may_join_late(s: State) -> bool:
    """Whether a newcomer may take a seat now, between rounds of a match under way."""
    rs = s.rs
    return (s.round_over and not s.match_over and s.rounds_played < rs.late_join_rounds
            and s.n < rs.max_seats and not s.tiebreak)


def add_player(s: State) -> Seat:
    """Seat a late joiner (see ``may_join_late``); they start with the highest total at the table."""
    s.n += 1
    s.hands.append([])
    s.active.append(True)
    s.scores.append(max(s.scores))
    return s.n - 1


def winners_without(s: State, leaving: Seat) -> list[Seat]:
    """The winners of a match that ``leaving`` abandons: whoever leads among the others (the other team)."""
    rs = s.rs
    others = [i for i in range(s.n) if i != leaving and (not rs.teams or i % 2 != leaving % 2)]
    return rs.leaders(s.scores, others)


def auto_action(s: State, seat: Seat) -> Action:
    """What the system plays for a seat whose turn time ran out (seed 002, "a jogada é feita pelo sistema").

    It draws (or takes the pending draw), or passes when the turn allows nothing else; only
    where neither is allowed does it play: the cheapest card, a Jack or wild last, with the
    call when one is needed and the suit the hand holds most of.
    """
    legal = list(legal_actions(s, seat))
    by_kind = {a.kind: a for a in legal}
    for kind in (DRAW, PASS):
        if kind in by_kind:
            return by_kind[kind]
    hand = s.hands[seat]
    counts = [sum(1 for c in hand if suit(c) == x) for x in range(4)]
    rs = s.rs

    def cost(a: Action) -> tuple[int, int, int, int]:
        return (a.kind not in (PLAY, CHOOSE), rs.chooses[a.card] if a.card >= 0 else 0,
                rs.points[a.card] if a.card >= 0 else 0, -counts[a.choose] if a.choose >= 0 else 0)

    announced = [a for a in legal if a.announce is not None or required_call_for(s, a) is None]
    return min(announced or legal, key=cost)
