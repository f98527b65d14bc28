"""A move as a tab spells it in a command frame, read into the ``Action`` of the seat the socket holds."""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format

from maumau.v1 import actions_pb2

_TEXT_FIELDS = frozenset({"do", "card", "choose", "announce", "with"})
INT32 = range(-(2**31), 2**31)


def action_of(body: dict[str, Any], seat: int, into: actions_pb2.Action) -> None:
    """A game action's command object as the ``Action`` of ``seat`` (the seat the object names is ignored).

    A move's usual spelling (strings, a list of cards, an int target) is set field by field; any
    other spelling goes through ``json_format.ParseDict``, which accepts what it accepts (numbers as
    strings, nulls) and raises its ``ParseError`` for the rest — parsing every move with it cost
    some 3 % of the gateway's CPU under load.

    >>> a = actions_pb2.Action()
    >>> action_of({"do": "play", "card": "QH", "seat": 3}, 1, a); (a.do, a.card, a.seat)
    ('play', 'QH', 1)
    >>> action_of({"do": "challenge", "target": "2"}, 0, a); (a.do, a.card, a.target)
    ('challenge', '', 2)
    """
    into.Clear()
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
    into.seat = seat
