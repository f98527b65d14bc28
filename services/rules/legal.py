"""``legal_actions``: every action a seat may take now, each once, in one canonical spelling.

A call (``announce``) only where one is needed — then both with and without it, since
forgetting is a legal, punished choice —, a suit only where one is asked, and the
``card`` of duplicate cards once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from services.rules.actions import BURN, CHALLENGE, CHALLENGE_WILD, CHOOSE, DOUBLE, DRAW, PASS, PLAY, QUICK, Action
from services.rules.cards import Card, Seat, distinct
from services.rules.phases import CHOOSE as CHOOSING
from services.rules.phases import DRAWN, NORMAL, WILD4
from services.rules.rulesets import CHALLENGE_MODE, NEXT_PLAYER, RULESETS
from services.rules.state import State
from services.rules.turn import burnable, plain_call, playable_now, required_call

# A draw and a pass of each seat, made once and shared (actions are immutable). ``Final``, as what follows:
# compiled (make setup), each a constant of the module, not a dictionary lookup by name on every action.
_SEATS = range(max(r.max_seats for r in RULESETS.values()))
_DRAWS: Final = tuple(Action(DRAW, seat) for seat in _SEATS)
_PASSES: Final = tuple(Action(PASS, seat) for seat in _SEATS)
_CHOOSES: Final = tuple(tuple(Action(CHOOSE, seat, choose=suit) for suit in range(4)) for seat in _SEATS)
_CHALLENGES: Final = tuple(tuple(Action(CHALLENGE, seat, target=target) for target in _SEATS) for seat in _SEATS)
_CHALLENGE_WILDS: Final = tuple(Action(CHALLENGE_WILD, seat) for seat in _SEATS)


def legal_actions(s: State, seat: Seat) -> Iterator[Action]:
    """Every action ``seat`` may take now, each once (announcements and choices canonical)."""
    return iter(legal_list(s, seat))


def legal_list(s: State, seat: Seat) -> list[Action]:
    """``legal_actions`` as a new list, in the same order: what a playout picks from."""
    if s.round_over or not s.active[seat]:
        return []
    rs = s.rs
    out: list[Action] = []
    if s.mau_offender >= 0 and seat != s.mau_offender and (
        (mode := rs.announce_mode) == CHALLENGE_MODE or (mode == NEXT_PLAYER and seat == s.mau_guard)
    ):
        out.append(_CHALLENGES[seat][s.mau_offender])
    burns = rs.has_burns
    if seat != s.turn:
        if burns:
            _burn_out_of_turn(s, seat, out)
        return out
    phase = s.phase
    if phase is CHOOSING:
        out += _CHOOSES[seat]
        return out
    n_hand = len(s.hands[seat])
    playable = playable_now(s, seat)
    singles = _with_company(s, seat, playable, out) if rs.ace_company else playable
    if n_hand > 2:  # no call can be due: each card's plays are the ruleset's ready-made ones
        plays = rs.plays[seat]
        for card in singles:
            out += plays[card]
    else:  # each card's plays as ``required_call`` asks: with the call due and without it, a suit where asked
        for card in singles:
            required = required_call(s, seat, card, n_hand, n_hand - 1)  # "mau" leaving one card, or none
            if n_hand > 1:
                out += rs.plays[seat][card] if required is None else rs.mau_plays[seat][card]
            else:  # the last card: no suit asked; "mau-mau" or none
                last = rs.last_plays[seat][card]
                if required is None:
                    out.append(last[1])
                else:
                    out += last
    draw, pass_ = rs.may_draw_or_pass(s, playable)  # the ruleset's, not turn's: a call less on every action
    if draw:
        out.append(_DRAWS[seat])
    if pass_:
        out.append(_PASSES[seat])
    if phase is NORMAL and s.pending_kind is WILD4:
        out.append(_CHALLENGE_WILDS[seat])
    if burns:
        _burn_on_turn(s, seat, out)
    return out


# The helpers below hold the rare actions' generator expressions: a function that has one makes a
# cell of every variable the expression reads, at every call, whether or not the expression runs.


def _burn_out_of_turn(s: State, seat: Seat, out: list[Action]) -> None:
    """candeias, a seat not on turn: a quick action in its window, or a burn at the opening."""
    top = s.discard[-1]
    if top in s.hands[seat] and ((s.quick_from >= 0 and seat != s.quick_from) or (s.opening and burnable(s, top))):
        kind = QUICK if s.quick_from >= 0 else BURN
        out.extend(Action(kind, seat, top, announce=call) for call in _burn_calls(s, top, len(s.hands[seat])))


def _burn_on_turn(s: State, seat: Seat, out: list[Action]) -> None:
    """candeias, the seat on turn: a burn of the top card, and doubles."""
    phase = s.phase
    hand = s.hands[seat]
    n_hand = len(hand)
    top = s.discard[-1]
    if phase is NORMAL and top in hand and burnable(s, top):
        out.extend(Action(BURN, seat, top, announce=call) for call in _burn_calls(s, top, n_hand))
    if phase is NORMAL or phase is DRAWN:
        rs = s.rs
        for card in distinct(rs.playable_cards(s, hand)):
            if not rs.special(card) and hand.count(card) >= 2:
                required = required_call(s, seat, card, n_hand, n_hand - 2)
                out.extend(Action(DOUBLE, seat, card, announce=call, card2=card)
                           for call in ((None,) if required is None else (required, None)))


def _with_company(s: State, seat: Seat, playable: list[Card], out: list[Action]) -> list[Card]:
    """``ace_with_company``: each Ace with each companion that fits (its suit, its call judged after both).

    Returns the playable cards that go down alone.
    """
    rs = s.rs
    hand = s.hands[seat]
    after = len(hand) - 2
    for ace in [c for c in playable if rs.needs_company(c)]:
        for card in rs.company(hand, ace):
            required = required_call(s, seat, card, after + 1, after)
            suits = range(4) if after > 0 and rs.chooses[card] else (-1,)
            calls = (None,) if required is None else (required, None)
            out.extend(Action(PLAY, seat, ace, suit, call, card2=card) for suit in suits for call in calls)
    return [c for c in playable if not rs.needs_company(c)]


def _burn_calls(s: State, card: Card, n_hand: int) -> tuple[str | None, ...]:
    required = plain_call(s, card, n_hand - 1)
    return (None,) if required is None else (required, None)
