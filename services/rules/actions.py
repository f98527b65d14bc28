"""What a seat can do: one immutable ``Action`` per decision, its plain-dict form and its notation.

The notation (``parse_move``/``format_move``; docs/protocol.md, "Move notation") is the one
spelling a move travels in: stored events, the rules service, frames, the client, the replay.
The seat is not part of it: it travels beside it (a tab's command is its socket's seat).

>>> from services.rules.cards import FRENCH
>>> format_move(parse_move("JH=S!", 2, FRENCH), FRENCH)
'JH=S!'

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
    "move": NotRequired[str],  # the same move in its notation, beside the fields while both travel
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


class MoveError(BadRequest):
    """A move's text that is not the notation, or that names a card or suit its deck has not."""


MAX_MOVE = 32  # the longest move is far shorter ("double:10H,10H!!"): a longer text is refused unread
_NAMED = frozenset({DRAW, PASS, CHALLENGE_WILD})  # the moves that are only their kind
_PREFIXED = frozenset({BURN, QUICK, DOUBLE, CHALLENGE, CHOOSE})  # ``kind:argument``
_MARKS = {None: "", MAU: "!", MAUMAU: "!!"}
_NAME_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+")  # every card's and suit's


def _name(token: str) -> bool:
    """Whether ``token`` may be a card's or a suit's name (which the deck then accepts or not)."""
    return bool(token) and _NAME_CHARS.issuperset(token) and token not in KINDS


def move_fields(text: object) -> ActionDict:
    """The notation read into the plain form (without a seat), checking its syntax only.

    Grammar: ``card[&card][=suit]`` plays (``&`` the card played with an Ace, ``=`` the suit or
    colour asked), ``burn:card``, ``quick:card``, ``double:card,card``, ``challenge:seat``,
    ``choose:suit``, ``draw``, ``pass``, ``challenge_wild``; a final ``!`` calls "mau", ``!!``
    "maumau". Card names hold none of ``& = : , !`` (``R+2``, ``W+4`` and ``10S`` are names).

    >>> move_fields("AH&JC=D!!")
    {'do': 'play', 'card': 'AH', 'with': 'JC', 'choose': 'D', 'announce': 'maumau'}
    >>> move_fields("double:7H,7H"), move_fields("challenge:2"), move_fields("draw")
    ({'do': 'double', 'cards': ['7H', '7H']}, {'do': 'challenge', 'target': 2}, {'do': 'draw'})
    >>> move_fields("play 7H")
    Traceback (most recent call last):
    ...
    services.rules.actions.MoveError: 'play 7H' is not a move: ...
    """
    if not isinstance(text, str) or not 0 < len(text) <= MAX_MOVE:
        raise MoveError(f"a move is a string of 1 to {MAX_MOVE} characters, not {text!r}")
    body = text.rstrip("!")
    marks = len(text) - len(body)
    kind, colon, argument = body.partition(":")
    d: ActionDict
    if colon:
        if kind not in _PREFIXED:
            raise _malformed(text)
        d = {"do": kind}
        if kind == DOUBLE:
            first, comma, second = argument.partition(",")
            if not (comma and _name(first) and _name(second)):
                raise _malformed(text)
            d["cards"] = [first, second]
        elif kind == CHALLENGE:  # a seat's number as it is written: "02" would not round-trip
            if not (argument.isascii() and argument.isdigit() and len(argument) <= 2) or argument != str(int(argument)):
                raise _malformed(text)
            d["target"] = int(argument)
        elif not _name(argument):
            raise _malformed(text)
        elif kind == CHOOSE:
            d["choose"] = argument
        else:
            d["card"] = argument
    elif body in _NAMED:
        d = {"do": body}
    else:
        cards, equals, chosen = body.partition("=")
        card, ampersand, companion = cards.partition("&")
        if not _name(card) or (ampersand and not _name(companion)) or (equals and not _name(chosen)):
            raise _malformed(text)
        d = {"do": PLAY, "card": card}
        if ampersand:
            d["with"] = companion
        if equals:
            d["choose"] = chosen
    if marks > 2:
        raise _malformed(text)
    if marks:
        d["announce"] = MAU if marks == 1 else MAUMAU
    return d


def _malformed(text: str) -> MoveError:
    return MoveError(f"{text!r} is not a move: see the notation in docs/protocol.md")


def move_text(d: ActionDict) -> str:
    """The notation of a plain form (its seat, if any, is not part of it): ``move_fields``' inverse.

    >>> move_text({"seat": 0, "do": "burn", "card": "R+2", "announce": "mau"})
    'burn:R+2!'
    """
    kind = d["do"]
    if kind == PLAY:
        text = d["card"] + ("&" + d["with"] if "with" in d else "") + ("=" + d["choose"] if "choose" in d else "")
    elif kind == DOUBLE:
        text = f"{kind}:{d['cards'][0]},{d['cards'][1]}"
    elif kind in (BURN, QUICK):
        text = f"{kind}:{d['card']}"
    elif kind == CHALLENGE:
        text = f"{kind}:{d['target']}"
    elif kind == CHOOSE:
        text = f"{kind}:{d['choose']}"
    else:
        text = kind
    return text + _MARKS[d.get("announce")]


def parse_move(text: object, seat: Seat, family: Family) -> Action:
    """The action of ``seat`` a move's text spells; ``MoveError`` (a ``BadRequest``) when malformed.

    >>> from services.rules.cards import COLORS, FRENCH
    >>> parse_move("W+4=G!", 1, COLORS) == Action("play", 1, COLORS.parse("W+4"), 1, "mau")
    True
    >>> parse_move("7H=S", 0, FRENCH)
    Traceback (most recent call last):
    ...
    services.rules.actions.MoveError: 7H takes no suit or colour
    """
    fields = move_fields(text)
    fields["seat"] = seat
    try:
        return parse_action(fields, family)
    except MoveError:
        raise
    except BadRequest as e:
        raise MoveError(str(e)) from None


def with_move(a: Action, family: Family) -> ActionDict:
    """The plain form of an action with its notation beside it, as views, frames and stored
    events carry it until the fields are dropped (docs/operations.md, "Upgrade").

    >>> from services.rules.cards import FRENCH
    >>> with_move(Action("play", 0, FRENCH.parse("AH"), 3, card2=FRENCH.parse("JC")), FRENCH)
    {'seat': 0, 'do': 'play', 'card': 'AH', 'with': 'JC', 'choose': 'S', 'move': 'AH&JC=S'}
    """
    d = action_to_dict(a, family)
    d["move"] = move_text(d)
    return d


def format_move(a: Action, family: Family) -> str:
    """The notation of an action (``parse_move``'s inverse; the seat travels beside it).

    >>> from services.rules.cards import FRENCH
    >>> format_move(Action("double", 3, FRENCH.parse("7H"), card2=FRENCH.parse("7H"), announce="maumau"), FRENCH)
    'double:7H,7H!!'
    """
    return move_text(action_to_dict(a, family))
