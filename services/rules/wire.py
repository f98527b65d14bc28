"""Conversions between the engine's objects and the protobuf messages of ``proto/maumau/v1``."""

from __future__ import annotations

from typing import Any

from maumau.v1 import actions_pb2, cards_pb2, events_pb2, state_pb2, views_pb2
from services.rules.actions import Action, ActionDict, move_fields, parse_action, with_move
from services.rules.cards import Family
from services.rules.decider import ActionTaken, Event, RoundDealt, RoundEnded
from services.rules.record import from_record, to_record
from services.rules.state import State
from services.rules.views import View

SCHEMA_VERSION = 1
KEPT = 4096  # distinct moves kept parsed and written: a table's moves repeat (its cards, a few calls)
_parsed: dict[tuple[str, int, str, int], Action] = {}
_written: dict[tuple[Action, str, int], ActionDict] = {}
_bare: dict[tuple[Action, str, int], bytes] = {}  # an action's event that drew nothing, serialized


def option_to_pb(value: Any) -> state_pb2.OptionValue:
    return state_pb2.OptionValue(**option_fields(value))


def option_fields(value: Any) -> dict[str, Any]:
    """An option's value as an ``OptionValue``'s one field."""
    if isinstance(value, bool):
        return {"flag": value}
    if isinstance(value, int):
        return {"number": value}
    return {"word": str(value)}


def options_from_pb(options: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in options.items():
        kind = value.WhichOneof("kind")
        if kind is None:
            raise ValueError(f"option {key!r} has no value")
        out[key] = getattr(value, kind)
    return out


def state_to_pb(s: State) -> state_pb2.MatchState:
    return state_pb2.MatchState(**state_fields(s))


def state_fields(s: State) -> dict[str, Any]:
    """A state as a ``MatchState``'s fields, nested messages as dicts: a message that carries a state
    builds it in place from them (``DecideCall(request={"state": state_fields(s), ...})``), at half
    the CPU of building a ``MatchState`` and copying it in.

    >>> from services.rules.engine import new_match
    >>> s = new_match("classic32", 2, {"ace_with_company": True, "seven_draws": 0, "scoring": "against"})
    >>> state_pb2.MatchState(**state_fields(s)) == state_to_pb(s) and state_from_pb(state_to_pb(s)).n == 2
    True
    """
    record = to_record(s)  # its hands are [{"cards": [...]}] already
    record["options"] = {k: option_fields(v) for k, v in record["options"].items()}
    return record


def state_from_pb(msg: state_pb2.MatchState) -> State:
    """Raises ``KeyError``/``ValueError`` when the message does not describe a consistent state."""
    record: dict[str, Any] = {name: getattr(msg, name) for name in _RECORD_FIELDS}
    record["options"] = options_from_pb(msg.options)
    record["hands"] = [{"cards": list(h.cards)} for h in msg.hands]
    return from_record(record)


_RECORD_FIELDS = tuple(f.name for f in state_pb2.MatchState.DESCRIPTOR.fields if f.name not in ("options", "hands"))


def action_fields(msg: actions_pb2.Action) -> ActionDict:
    """An ``Action`` message's plain form with its seat, read from its ``move``; from the fields
    beside it only in a record written before the move existed (syntax checked, not the deck).

    >>> action_fields(actions_pb2.Action(seat=1, move="JH=S!", do="draw"))  # the move is what is read
    {'do': 'play', 'card': 'JH', 'choose': 'S', 'announce': 'mau', 'seat': 1}
    >>> action_fields(actions_pb2.Action(seat=2, do="double", cards=["7H", "7H"]))
    {'seat': 2, 'do': 'double', 'cards': ['7H', '7H']}
    """
    if msg.move:
        moved = move_fields(msg.move)
        moved["seat"] = msg.seat
        return moved
    raw: ActionDict = {"seat": msg.seat, "do": msg.do}
    if msg.card:
        raw["card"] = msg.card
    if msg.cards:
        raw["cards"] = list(msg.cards)
    if msg.choose:
        raw["choose"] = msg.choose
    companion = getattr(msg, "with")  # ``with`` is a Python keyword
    if companion:
        raw["with"] = companion
    if msg.announce:
        raw["announce"] = msg.announce
    if msg.HasField("target"):
        raw["target"] = msg.target
    return raw


def action_from_pb(msg: actions_pb2.Action, family: Family) -> Action:
    """Raises ``BadRequest`` (``MoveError`` for a move's text) for a malformed action.

    Every reader of a table parses each stored action, so a move once read is kept (by its text,
    seat and deck): a move is read once per process, not once per event.
    """
    move = msg.move
    if not move:
        return parse_action(action_fields(msg), family)
    key = (move, msg.seat, family.label, family.chooser)
    a = _parsed.get(key)
    if a is None:
        a = parse_action(action_fields(msg), family)
        _keep(_parsed, key, a)
    return a


def action_to_pb(a: Action, family: Family) -> actions_pb2.Action:
    """The message of an action: its ``move``, and the same move field by field for the readers of
    the release before (docs/operations.md, "Upgrade")."""
    key = (a, family.label, family.chooser)
    fields = _written.get(key)
    if fields is None:
        fields = with_move(a, family)
        _keep(_written, key, fields)
    return actions_pb2.Action(**fields)


def _keep(kept: dict[Any, Any], key: object, value: object) -> None:
    if len(kept) >= KEPT:  # bounded: a move outside the usual few starts the set again
        kept.clear()
    kept[key] = value


def event_to_pb(e: Event, family: Family, table_id: str = "") -> events_pb2.Event:
    env = events_pb2.Event(type=type(e).__name__, schema_version=SCHEMA_VERSION, table_id=table_id)
    if isinstance(e, RoundDealt):
        env.round_dealt.CopyFrom(events_pb2.RoundDealt(
            round_no=e.round_no, dealer=e.dealer, first=e.first,
            hands=[cards_pb2.Hand(cards=family.names(h)) for h in e.hands], starter=family.name(e.starter),
            stock=family.names(e.stock), seed=e.seed or "", commitment=e.commitment))
    elif isinstance(e, ActionTaken):
        env.action_taken.CopyFrom(taken_to_pb(e, family))
    elif isinstance(e, RoundEnded):
        env.round_ended.CopyFrom(events_pb2.RoundEnded(
            winner=e.winner, round_points=e.round_points, scores=e.scores, match_over=e.match_over,
            match_winners=e.match_winners, seed=e.seed or ""))
    return env


def taken_bytes(e: ActionTaken, family: Family) -> bytes:
    """``taken_to_pb(e)`` serialized: an action that drew nothing is written once per process."""
    bare = not e.draws and not e.reshuffles
    key = (e.action, family.label, family.chooser)
    data: bytes | None = _bare.get(key) if bare else None
    if data is None:
        data = taken_to_pb(e, family).SerializeToString()
        if bare:
            _keep(_bare, key, data)
    return data


def taken_to_pb(e: ActionTaken, family: Family) -> events_pb2.ActionTaken:
    return events_pb2.ActionTaken(
        action=action_to_pb(e.action, family),
        draws=[events_pb2.Draw(seat=seat, cards=family.names(cards)) for seat, cards in e.draws],
        reshuffles=e.reshuffles)


def view_to_pb(v: View) -> views_pb2.View:
    msg = views_pb2.View()
    for key, value in v.items():
        if value is None or key in ("legal_actions", "revealed_hands"):  # messages: below
            continue
        if isinstance(value, list):
            getattr(msg, key).extend(value)
        else:
            setattr(msg, key, value)
    msg.legal_actions.extend(actions_pb2.Action(**a) for a in v["legal_actions"])
    msg.revealed_hands.extend(cards_pb2.Hand(cards=h) for h in v.get("revealed_hands", ()))
    return msg
