"""``check``: refuse an action with the typed error the conformance contract orders first, changing nothing."""

from __future__ import annotations

from services.rules.actions import (
    BURN,
    CHALLENGE,
    CHALLENGE_WILD,
    CHOOSE,
    DOUBLE,
    DRAW,
    PASS,
    PLAY,
    QUICK,
    Action,
    takes_choice,
)
from services.rules.cards import Card, Seat
from services.rules.errors import BadRequest, CardNotInHand, IllegalAction, IllegalCard, NotYourTurn, RoundOver
from services.rules.phases import CHOOSE as CHOOSING
from services.rules.phases import DRAWN, NORMAL, WILD4
from services.rules.rulesets import AUTOMATIC, CHALLENGE_MODE, NEXT_PLAYER
from services.rules.state import State
from services.rules.turn import burnable, may_draw, may_pass, playable_now


def check(s: State, a: Action) -> None:
    """Raise the rule error that refuses ``a`` in ``s``, or return when it is legal. Changes nothing."""
    rs, kind, seat = s.rs, a.kind, a.seat
    if not 0 <= seat < s.n or (kind == CHALLENGE and not 0 <= a.target < s.n):
        raise BadRequest("no such seat")
    if s.round_over:
        raise RoundOver("the round is over")
    if kind == CHALLENGE:
        _check_challenge(s, a)
        return
    if kind == QUICK:
        if not rs.has_burns or s.quick_from < 0 or seat in (s.quick_from, s.turn) or not s.active[seat]:
            raise IllegalAction("no quick action is open to this seat now")
        if a.card != s.discard[-1] or rs.special(a.card):
            raise IllegalAction("a quick action discards a normal card identical to the top card")
        _in_hand(s, seat, a.card)
        return
    if kind == CHALLENGE_WILD:
        if s.pending_kind is not WILD4 or seat != s.turn or s.phase is not NORMAL:
            raise IllegalAction("there is no wild draw four to challenge")
        return
    if kind == BURN and seat != s.turn:
        if not rs.has_burns or not s.opening or not s.active[seat]:
            raise IllegalAction("burning out of turn is only allowed on the opening starter")
        if not burnable(s, a.card):
            raise IllegalAction("a burn needs a normal card identical to the top card")
        _in_hand(s, seat, a.card)
        return
    if seat != s.turn:
        raise NotYourTurn(f"it is seat {s.turn}'s turn")
    phase = s.phase
    if kind == PLAY:
        if phase is CHOOSING:
            raise IllegalAction("the dealer must choose the suit first")
        if a.card2 >= 0 and not rs.needs_company(a.card):
            raise IllegalAction("only an Ace, at a table playing it with company, takes a second card")
        if a.card2 < 0 and rs.needs_company(a.card):
            raise IllegalAction("the Ace is played only together with a second card (with)")
        _in_hand(s, seat, a.card)
        last, left = (a.card, 1) if a.card2 < 0 else (a.card2, 2)
        if a.card2 >= 0:
            rest = list(s.hands[seat])
            rest.remove(a.card)
            if a.card2 not in rest:
                raise CardNotInHand(f"{rs.family.name(a.card2)} is not in the hand")
        if a.choose < 0 and takes_choice(last, rs.family) and len(s.hands[seat]) > left:
            raise BadRequest("QUAL NAIPE? a Jack or a wild needs a suit or colour")
        if a.card not in playable_now(s, seat):
            raise IllegalCard(f"{rs.family.name(a.card)} may not be played now")
        if a.card2 >= 0 and a.card2 not in rs.company(s.hands[seat], a.card):
            raise IllegalCard(f"{rs.family.name(a.card2)} does not fit on the Ace")
    elif kind == DRAW:
        if not may_draw(s, playable_now(s, seat)):
            raise IllegalAction("drawing is not allowed now")
    elif kind == PASS:
        if not may_pass(s, seat, playable_now(s, seat)):
            raise IllegalAction("passing is not allowed now")
    elif kind == CHOOSE:
        if phase is not CHOOSING:
            raise IllegalAction("there is no suit to choose")
    elif kind == BURN:
        if not rs.has_burns or phase is not NORMAL:
            raise IllegalAction("burning is not allowed now")
        if not burnable(s, a.card):
            raise IllegalAction("a burn needs a normal card identical to the top card")
        _in_hand(s, seat, a.card)
    elif kind == DOUBLE:
        if not rs.has_burns or (phase is not NORMAL and phase is not DRAWN):
            raise IllegalAction("a double is not allowed now")
        if a.card != a.card2:
            raise IllegalAction("a double is two identical cards")
        if s.hands[seat].count(a.card) < 2:
            raise CardNotInHand("a double needs both cards in the hand")
        if rs.special(a.card) or not rs.playable(s, a.card):
            raise IllegalCard(f"{rs.family.name(a.card)} may not be doubled now")


def _in_hand(s: State, seat: Seat, card: Card) -> None:
    if card not in s.hands[seat]:
        raise CardNotInHand(f"{s.rs.family.name(card)} is not in the hand")


def _check_challenge(s: State, a: Action) -> None:
    mode = s.rs.announce_mode
    if a.kind == CHALLENGE and mode != AUTOMATIC and s.mau_offender == a.target and a.seat != a.target:
        if mode == CHALLENGE_MODE and s.active[a.seat]:
            return
        if mode == NEXT_PLAYER and a.seat == s.mau_guard:
            return
    raise IllegalAction("nothing to challenge")
