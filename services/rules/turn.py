"""What the seat on turn may do in its phase, and which call ("Mau", "Mau-Mau") an action needs.

The predicates ``check`` refuses by, ``legal_actions`` lists by and ``apply`` ends a turn by,
so that the three agree.
"""

from __future__ import annotations

from services.rules.actions import BURN, DOUBLE, MAU, MAUMAU, PLAY, QUICK, Action
from services.rules.cards import R8, Card, Seat, distinct, rank
from services.rules.phases import BOUNCE, BURNED, DRAWN, NORMAL
from services.rules.state import State


def playable_now(s: State, seat: Seat) -> list[Card]:
    """The distinct cards the seat on turn may play in its current phase, in the order of its hand (the first copy).

    A card that needs company (``ace_with_company``) is among them only when a companion fits.
    """
    rs, phase = s.rs, s.phase
    if phase is NORMAL or phase is BURNED or (phase is DRAWN and rs.after_draw_any):
        return playable_from_hand(s, seat)
    if phase is DRAWN:
        c = s.drawn_card
        cards = [c] if c >= 0 and rs.playable(s, c) else []
    elif phase is BOUNCE:
        cards = distinct([c for c in s.hands[seat] if rank(c) == R8])
    else:
        return []
    return _with_company(s, seat, cards) if rs.ace_company else cards


def playable_from_hand(s: State, seat: Seat) -> list[Card]:
    """The distinct cards of the seat's hand that may go down on the pile as it is, company counted.

    What a turn may play before drawing, and what a blocked table asks of a seat that passed.
    """
    rs, hand = s.rs, s.hands[seat]
    # In the hand's order (the legal actions' order), each card once: with one card or none nothing to do.
    cards = rs.playable_cards(s, hand)
    if len(cards) > 1:
        cards = distinct(cards)
    return _with_company(s, seat, cards) if rs.ace_company else cards


def _with_company(s: State, seat: Seat, cards: list[Card]) -> list[Card]:
    """Those of ``cards`` that go down alone or have a companion in the hand (a function of its own: see ``legal``)."""
    rs, hand = s.rs, s.hands[seat]
    return [c for c in cards if not rs.needs_company(c) or rs.company(hand, c)]


def may_draw_or_pass(s: State, playable: list[Card]) -> tuple[bool, bool]:
    """Whether the seat on turn, holding ``playable``, may draw, and whether it may pass (both at once: one call
    of ``legal_actions`` per action); the ruleset's ``may_draw_or_pass``."""
    return s.rs.may_draw_or_pass(s, playable)


def may_pass(s: State, seat: Seat, playable: list[Card]) -> bool:
    return may_draw_or_pass(s, playable)[1]


def may_draw(s: State, playable: list[Card]) -> bool:
    return may_draw_or_pass(s, playable)[0]


def burnable(s: State, card: Card) -> bool:
    top = s.discard[-1]
    return not s.pending and card == top and not s.rs.special(top)


def required_call(s: State, seat: Seat, card: Card, before: int, after: int) -> str | None:
    """The call an action needs: "mau" when it leaves one card, "maumau" when the ruleset wants one going out."""
    rs = s.rs
    if (s.phase is BURNED and s.burn_announced) or not rs.calls:
        return None
    if after == 1:
        return MAU
    if after == 0 and (before == 2 or rs.needs_mau_mau(card)):
        return MAUMAU
    return None


def plain_call(s: State, card: Card, after: int) -> str | None:
    """The call a burn or a quick action needs, which leaves ``after`` cards."""
    if not s.rs.calls:
        return None
    if after == 1:
        return MAU
    return MAUMAU if after == 0 and s.rs.needs_mau_mau(card) else None


def required_call_for(s: State, a: Action) -> str | None:
    """The call ``a`` needs, if any."""
    n = len(s.hands[a.seat])
    if a.kind == PLAY:
        return required_call(s, a.seat, a.card, n, n - 1)
    if a.kind == DOUBLE:
        return required_call(s, a.seat, a.card, n, n - 2)
    if a.kind in (BURN, QUICK):
        return plain_call(s, a.card, n - 1)
    return None
