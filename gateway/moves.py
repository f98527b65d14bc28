"""A move as a tab spells it in a command frame, read into the ``Action`` of the seat the socket holds."""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format

from maumau.v1 import actions_pb2
from services.rules.actions import MoveError, move_fields

_TEXT_FIELDS = frozenset({"do", "card", "choose", "announce", "with"})
INT32 = range(-(2**31), 2**31)


def is_move(body: dict[str, Any]) -> bool:
    """Whether a command object is a game action (its notation, or its fields) rather than a table command."""
    return "move" in body or "do" in body


def action_of(body: dict[str, Any], seat: int, into: actions_pb2.Action) -> None:
    """A game action's command object as the ``Action`` of ``seat`` (the seat the object names is ignored).

    A tab sends the move's notation (``{"move": "JH=S!"}``), passed on as it is, with the same
    move field by field for the readers of the release before (docs/operations.md, "Upgrade");
    ``MoveError`` when it is not the notation, or when fields beside it (a legal action sent back
    as a frame carried it) spell another move. A tab of the
    release before sends the fields (``{"do": "play", "card": "QH"}``): the usual spelling
    (strings, a list of cards, an int target) is set field by field, any other goes through
    ``json_format.ParseDict``, which accepts what it accepts (numbers as strings, nulls) and raises
    its ``ParseError`` for the rest — parsing every move with it cost some 3 % of the gateway's CPU.

    >>> a = actions_pb2.Action()
    >>> action_of({"move": "JH=S!", "seat": 3}, 1, a); (a.move, a.do, a.card, a.choose, a.announce, a.seat)
    ('JH=S!', 'play', 'JH', 'S', 'mau', 1)
    >>> action_of({"do": "challenge", "target": "2"}, 0, a); (a.move, a.do, a.card, a.target)
    ('', 'challenge', '', 2)
    >>> action_of({"move": "draw", "do": "draw"}, 0, a); (a.move, a.do)
    ('draw', 'draw')
    >>> action_of({"move": "draw", "do": "pass"}, 0, a)
    Traceback (most recent call last):
    ...
    services.rules.actions.MoveError: the fields beside the move 'draw' spell another move
    """
    into.Clear()
    if "move" in body:
        fields = dict(move_fields(body["move"]))
        beside = {key: value for key, value in body.items() if key not in ("move", "seat")}
        if beside and beside != fields:
            raise MoveError(f"the fields beside the move {body['move']!r} spell another move")
        _set_fields(fields, into)
        into.move = body["move"]
    else:
        _set_fields(body, into)
    into.seat = seat


def _set_fields(body: dict[str, Any], into: actions_pb2.Action) -> None:
    for key, value in body.items():
        if key in _TEXT_FIELDS and type(value) is str:
            setattr(into, key, value)
        elif key == "cards" and type(value) is list and all(type(c) is str for c in value):
            into.cards.extend(value)
        elif key == "target" and type(value) is int and value in INT32:
            into.target = value
        elif key != "seat":
            parsed = json_format.ParseDict({k: v for k, v in body.items() if k != "seat"}, actions_pb2.Action())
            into.CopyFrom(parsed)
            break
