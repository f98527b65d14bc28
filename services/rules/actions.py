"""What a seat can do: one immutable ``Action`` per decision, and its plain-dict form.

>>> from services.rules.cards import FRENCH
>>> a = parse_action({"seat": 1, "do": "play", "card": "JH", "choose": "S"}, FRENCH)
>>> a.kind, FRENCH.name(a.card), a.choose
('play', 'JH', 3)
>>> action_to_dict(a, FRENCH)
{'seat': 1, 'do': 'play', 'card': 'JH', 'choose': 'S'}
>>> action_to_dict(parse_action({"seat": 0, "do": "play", "card": "AH", "with": "JC", "choose": "D"}, FRENCH), FRENCH)
{'seat': 0, 'do': 'play', 'card': 'AH', 'with': 'JC', 'choose': 'D'}
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, NotRequired, TypedDict

from services.rules.cards import WILD, Card, CardNameError, Family, Seat, Suit, rank, suit
from services.rules.errors import BadRequest

PLAY: Final = "play"
DOUBLE: Final = "double"
BURN: Final = "burn"
QUICK: Final = "quick"
DRAW: Final = "draw"
PASS: Final = "pass"
CHALLENGE: Final = "challenge"
CHALLENGE_WILD: Final = "challenge_wild"
CHOOSE: Final = "choose"
KINDS = (PLAY, DOUBLE, BURN, QUICK, DRAW, PASS, CHALLENGE, CHALLENGE_WILD, CHOOSE)
CARD_KINDS = (PLAY, BURN, QUICK)
ANNOUNCE_KINDS = (PLAY, DOUBLE, BURN, QUICK)

MAU: Final = "mau"
MAUMAU: Final = "maumau"
ANNOUNCEMENTS = (MAU, MAUMAU)


# An action's plain form (docs/protocol.md, "Actions"): the rules' legal actions, a stored
# ``Action`` message's fields, a tab's ``act``. Declared functionally because ``with`` is a
# Python keyword. ``seat`` is absent in the command spelling (a viewer's legal actions, a
# tab's command: the seat is the sender's); the other keys only where the action has them.
ActionDict = TypedDict("ActionDict", {
    "seat": NotRequired[int],
    "do": str,
    "card": NotRequired[str],
    "with": NotRequired[str],  # play: the card played together with an Ace (ace_with_company)
    "cards": NotRequired[list[str]],  # double: its two cards
    "choose": NotRequired[str],  # a suit's or a colour's letter
    "announce": NotRequired[str],  # "mau" or "maumau"
    "target": NotRequired[int],  # challenge: the seat challenged
})


class Action(NamedTuple):
    """One decision of one seat. Cards and suits are ints; -1 means "not given"."""

    kind: str
    seat: Seat
    card: Card = -1
    choose: Suit = -1
    announce: str | None = None
    target: Seat = -1
    card2: Card = -1  # double: the second card; play: the card played ``with`` an Ace (ace_with_company)


def takes_choice(card: Card, family: Family) -> bool:
    """Whether playing ``card`` asks for a suit (the family's ``chooser``: a Jack) or a colour (a wild).

    >>> from dataclasses import replace
    >>> from services.rules.cards import FRENCH, R8
    >>> takes_choice(FRENCH.parse("JH"), FRENCH), takes_choice(FRENCH.parse("8H"), replace(FRENCH, chooser=R8))
    (True, True)
    """
    return suit(card) == WILD if family.suits[0] == "R" else rank(card) == family.chooser


def _card(raw: Any, family: Family) -> Card:
    if not isinstance(raw, str):
        raise BadRequest(f"a card name is a string, not {raw!r}")
    try:
        return family.parse(raw)
    except CardNameError as e:
        raise BadRequest(str(e)) from None


def parse_action(raw: Any, family: Family) -> Action:
    """Turn a request's plain form into an Action, refusing malformed ones with BadRequest."""
    if not isinstance(raw, dict):
        raise BadRequest("an action is an object")
    kind = raw.get("do")
    if kind not in KINDS:
        raise BadRequest(f"unknown action {kind!r}")
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("an action names its seat")
    card = card2 = choose = target = -1
    announce = raw.get("announce")
    if announce is not None and (kind not in ANNOUNCE_KINDS or announce not in ANNOUNCEMENTS):
        raise BadRequest(f"announce must be one of {ANNOUNCEMENTS} with a card action")
    if kind in CARD_KINDS:
        card = _card(raw.get("card"), family)
    elif kind == DOUBLE:
        cards = raw.get("cards")
        if not isinstance(cards, list) or len(cards) != 2:
            raise BadRequest("a double names two cards")
        card, card2 = _card(cards[0], family), _card(cards[1], family)
    elif raw.get("card") is not None:
        raise BadRequest(f"{kind} takes no card")
    if raw.get("with") is not None:
        if kind != PLAY:
            raise BadRequest(f"{kind} takes no second card")
        card2 = _card(raw["with"], family)
    chosen = raw.get("choose")
    if chosen is not None:  # with a second card (``with``) the choice belongs to that one
        if kind not in (PLAY, CHOOSE) or (kind == PLAY and not takes_choice(card if card2 < 0 else card2, family)):
            raise BadRequest(f"{raw.get('card', kind)} takes no suit or colour")
        if not isinstance(chosen, str):
            raise BadRequest("choose is one letter")
        try:
            choose = family.parse_suit(chosen)
        except CardNameError as e:
            raise BadRequest(str(e)) from None
    elif kind == CHOOSE:
        raise BadRequest("choose needs a suit")
    if kind == CHALLENGE:
        t = raw.get("target")
        if not isinstance(t, int) or isinstance(t, bool):
            raise BadRequest("a challenge names its target seat")
        target = t
    return Action(kind, seat, card, choose, announce, target, card2)


def action_to_dict(a: Action, family: Family) -> ActionDict:
    """The plain form of an action (the inverse of ``parse_action``)."""
    d: ActionDict = {"seat": a.seat, "do": a.kind}
    if a.kind == DOUBLE:
        d["cards"] = [family.name(a.card), family.name(a.card2)]
    elif a.card >= 0:
        d["card"] = family.name(a.card)
        if a.card2 >= 0:
            d["with"] = family.name(a.card2)
    if a.choose >= 0:
        d["choose"] = family.suit_name(a.choose)
    if a.announce is not None:
        d["announce"] = a.announce
    if a.target >= 0:
        d["target"] = a.target
    return d
