"""``legal_actions``: every action a seat may take now, each once, in one canonical spelling.

A call (``announce``) only where one is needed — then both with and without it, since
forgetting is a legal, punished choice —, a suit only where one is asked, and the
``card`` of duplicate cards once.
"""

from __future__ import annotations

from collections.abc import Iterator

from services.rules.actions import BURN, CHALLENGE, CHALLENGE_WILD, CHOOSE, DOUBLE, DRAW, PASS, PLAY, QUICK, Action
from services.rules.cards import Card, Seat
from services.rules.phases import CHOOSE as CHOOSING
from services.rules.phases import DRAWN, NORMAL, WILD4
from services.rules.rulesets import CHALLENGE_MODE, NEXT_PLAYER
from services.rules.state import State
from services.rules.turn import burnable, may_draw, may_pass, plain_call, playable_now, required_call

_new = tuple.__new__  # builds an Action without NamedTuple's Python-level __new__ (the hot path)


def legal_actions(s: State, seat: Seat) -> Iterator[Action]:
    """Every action ``seat`` may take now, each once (announcements and choices canonical)."""
    if s.round_over or not s.active[seat]:
        return
    rs = s.rs
    hand = s.hands[seat]
    n_hand = len(hand)
    mode = rs.announce_mode
    if s.mau_offender >= 0 and seat != s.mau_offender and (
        mode == CHALLENGE_MODE or (mode == NEXT_PLAYER and seat == s.mau_guard)
    ):
        yield Action(CHALLENGE, seat, target=s.mau_offender)
    top = s.discard[-1]
    if rs.has_burns and seat != s.turn and top in hand and (
        (s.quick_from >= 0 and seat != s.quick_from) or (s.opening and burnable(s, top))
    ):
        kind = QUICK if s.quick_from >= 0 else BURN
        for call in _burn_calls(s, top, n_hand):
            yield Action(kind, seat, top, announce=call)
    if seat != s.turn:
        return
    phase = s.phase
    if phase is CHOOSING:
        for suit in range(4):
            yield Action(CHOOSE, seat, choose=suit)
        return
    playable = playable_now(s, seat)
    singles = playable
    if rs.ace_company:
        singles = [c for c in playable if not rs.needs_company(c)]
        yield from _with_company(s, seat, [c for c in playable if rs.needs_company(c)])
    if n_hand > 2:
        for card in singles:
            if rs.chooses[card]:
                for suit in range(4):
                    yield _new(Action, (PLAY, seat, card, suit, None, -1, -1))
            else:
                yield _new(Action, (PLAY, seat, card, -1, None, -1, -1))
    else:
        for card in singles:
            required = required_call(s, seat, card, n_hand, n_hand - 1)
            calls = (None,) if required is None else (required, None)
            suits = range(4) if n_hand > 1 and rs.chooses[card] else (-1,)
            for suit in suits:
                for call in calls:
                    yield Action(PLAY, seat, card, suit, call)
    if may_draw(s, playable):
        yield _new(Action, (DRAW, seat, -1, -1, None, -1, -1))
    if may_pass(s, seat, playable):
        yield _new(Action, (PASS, seat, -1, -1, None, -1, -1))
    if phase is NORMAL:
        if s.pending_kind is WILD4:
            yield Action(CHALLENGE_WILD, seat)
        if rs.has_burns and top in hand and burnable(s, top):
            for call in _burn_calls(s, top, n_hand):
                yield Action(BURN, seat, top, announce=call)
    if rs.has_burns and (phase is NORMAL or phase is DRAWN):
        for card in rs.playable_cards(s, set(hand)):
            if not rs.special(card) and hand.count(card) >= 2:
                required = required_call(s, seat, card, n_hand, n_hand - 2)
                for call in (None,) if required is None else (required, None):
                    yield Action(DOUBLE, seat, card, announce=call, card2=card)


def _with_company(s: State, seat: Seat, aces: list[Card]) -> Iterator[Action]:
    """``ace_with_company``: each Ace with each companion that fits (its suit, its call judged after both)."""
    rs = s.rs
    hand = s.hands[seat]
    after = len(hand) - 2
    for ace in aces:
        for card in rs.company(hand, ace):
            required = required_call(s, seat, card, after + 1, after)
            suits = range(4) if after > 0 and rs.chooses[card] else (-1,)
            for suit in suits:
                for call in (None,) if required is None else (required, None):
                    yield Action(PLAY, seat, ace, suit, call, card2=card)


def _burn_calls(s: State, card: Card, n_hand: int) -> tuple[str | None, ...]:
    required = plain_call(s, card, n_hand - 1)
    return (None,) if required is None else (required, None)
