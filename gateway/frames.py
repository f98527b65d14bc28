"""The frames a socket receives (docs/protocol.md), those of a table built from what each viewer may see.

What a viewer may see is ``services.table.viewing``'s; here it is put in frames, and each batch's
frame text is built once per kind of viewer. Every frame a tab receives is typed here
(``Frame``), those the socket answers with itself (``gateway/ws.py``) too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

import orjson

from gateway.openlist import OpenTableFrame
from maumau.v1 import chat_pb2, events_pb2
from services.matchmaking.quick import Answer
from services.rules.views import View
from services.runtime.refusals import Code
from services.table.domain import Table
from services.table.viewing import (
    SeenEvent,
    TableInfo,
    mine,
    public_info,
    redact_event,
    seats_shown_more,
    table_info,
    viewer_view,
)


class EventsFrame(TypedDict):
    """One stored batch as one viewer sees it."""

    type: Literal["events"]
    table: str
    seq: int
    events: list[SeenEvent]
    table_info: TableInfo
    view: View | None  # None before the first deal


class StateFrame(TypedDict):
    """The table as one viewer sees it now (a subscription's first frame, when no missed batches are sent)."""

    type: Literal["state"]
    table: str
    seq: int
    table_info: TableInfo
    view: View | None


class ChatLine(TypedDict):
    seat: int
    name: str
    text: str
    time: int  # milliseconds since the epoch
    reaction: NotRequired[str]  # a line that is a reaction


class ChatFrame(TypedDict):
    type: Literal["chat"]
    table: str
    lines: list[ChatLine]


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: Code
    message: str
    table: NotRequired[str]  # when the refused frame named one


class Ack(TypedDict):
    """A command's or a quick match's answer, but for the frame's type and id."""

    ok: bool
    seqs: NotRequired[list[int]]  # the stream sequences a command stored
    seat: NotRequired[int]  # the seat a table command took
    code: NotRequired[Code | str]  # a refusal's (the table service's code arrives as its text)
    message: NotRequired[str]
    # a quick match's (services.matchmaking.quick.Answer)
    ticket: NotRequired[str]
    status: NotRequired[str]
    table_id: NotRequired[str | None]


def matched(answer: Answer) -> Ack:
    """A quick match's answer as its ack says it, the keys in the answer's order (each named: mypy types a
    TypedDict built from another only when every optional key of the one built is named or spread)."""
    if "ticket" in answer:
        return {"ok": True, "ticket": answer["ticket"], "status": answer["status"], "table_id": answer["table_id"]}
    return {"ok": True, "status": answer["status"], "table_id": answer["table_id"]}


class AckFrame(Ack):
    type: Literal["ack"]
    id: str  # the tab's own id of the frame answered


class QuickMatchFrame(Answer):
    """A waiting ticket's end, sent when it comes (``ticket``, ``status``, ``table_id``)."""

    type: Literal["quick_match"]


class WelcomeFrame(TypedDict):
    type: Literal["welcome"]
    v: int
    identity: str
    name: str
    client: str  # the web client's build a page opened now gets (``client_files.client_build``)


class PongFrame(TypedDict):
    type: Literal["pong"]


Frame = (EventsFrame | StateFrame | ChatFrame | ErrorFrame | AckFrame | QuickMatchFrame | WelcomeFrame | PongFrame
         | OpenTableFrame)
"""Every frame a tab receives as an object (a table's batches mostly as text: ``BatchFrames``; an open
table's line is ``gateway/openlist.py``'s, which forwards it)."""


def chat_line(line: chat_pb2.ChatLine) -> ChatLine:
    out: ChatLine = {"seat": line.seat, "name": line.name, "text": line.text, "time": line.time.ToMilliseconds()}
    if line.reaction:
        out["reaction"] = line.reaction
    return out


def events_frame(t: Table, seq: int, batch: events_pb2.EventBatch, identity: str) -> EventsFrame:
    """The frame one stored batch makes for one viewer (``t`` is the table after the batch)."""
    seat = t.seat_of(identity)
    viewer = seat if seat >= 0 else None
    return {"type": "events", "table": t.table_id, "seq": seq,
            "events": [redact_event(ev, viewer) for ev in batch.events],
            "table_info": table_info(t, identity, seat), "view": viewer_view(t, identity, seat)}


def _object_with(head: bytes, extra: Mapping[str, object]) -> orjson.Fragment:
    """The JSON text of an object: ``head`` (an object's text without its closing brace), then ``extra``'s keys.

    >>> orjson.dumps({"a": _object_with(orjson.dumps({"x": 1})[:-1], {"y": [2]})})
    b'{"a":{"x":1,"y":[2]}}'
    """
    return orjson.Fragment(head + b"," + orjson.dumps(extra)[1:])


@dataclass(frozen=True)
class _Shared:
    """What a batch shows every viewer alike, built and serialized once."""

    events: list[SeenEvent]  # as a spectator sees them
    events_json: orjson.Fragment
    shown_more: dict[int, list[int]]  # seat: the events it sees more of (their places in the batch)
    info_head: bytes  # public_info's JSON text without its closing brace

    @classmethod
    def of(cls, t: Table, batch: events_pb2.EventBatch) -> _Shared:
        events = [redact_event(ev, None) for ev in batch.events]
        more: dict[int, list[int]] = {}
        for i, ev in enumerate(batch.events):
            for seat in seats_shown_more(ev):
                more.setdefault(seat, []).append(i)
        return cls(events, orjson.Fragment(orjson.dumps(events)), more, orjson.dumps(public_info(t))[:-1])


@dataclass
class BatchFrames:
    """The frames one stored batch makes, each built and serialized once per kind of viewer.

    What a frame holds depends on the viewer's seat (a spectator's is the same for every
    spectator) and on whether the viewer created the table, nothing else: viewers alike share
    one text, so a table watched by many costs one view per seat, not one per socket. Within
    the batch, what every viewer sees alike is built and serialized once (``_Shared``): the
    table's public facts, and the events as a spectator sees them — redacted again for a seat
    only where that seat sees more (its hand dealt, the cards it drew). Built while the table is
    as the batch left it (``Feeds`` holds the feed's lock).
    """

    table: Table
    seq: int
    batch: events_pb2.EventBatch
    made: dict[tuple[int, bool], str] = field(default_factory=dict)
    shared: _Shared | None = None

    def text_for(self, identity: str) -> str:
        t = self.table
        key = (t.seat_of(identity), t.creator == identity)
        text = self.made.get(key)
        if text is None:
            text = self.made[key] = orjson.dumps(self._frame(*key)).decode()
        return text

    def _frame(self, seat: int, creator: bool) -> _PrebuiltFrame:
        """What ``events_frame`` makes for a viewer at ``seat`` (-1: none) who did or did not create the table."""
        t = self.table
        if self.shared is None:
            self.shared = _Shared.of(t, self.batch)
        shared = self.shared
        events: list[SeenEvent] | orjson.Fragment = shared.events_json
        if seat in shared.shown_more:
            events = list(shared.events)
            for i in shared.shown_more[seat]:
                events[i] = redact_event(self.batch.events[i], seat)
        return {"type": "events", "table": t.table_id, "seq": self.seq, "events": events,
                "table_info": _object_with(shared.info_head, mine(t, seat, creator)), "view": viewer_view(t, "", seat)}


class _PrebuiltFrame(TypedDict):
    """An ``EventsFrame`` with parts already serialized (``orjson.Fragment``): the same text once dumped."""

    type: Literal["events"]
    table: str
    seq: int
    events: list[SeenEvent] | orjson.Fragment
    table_info: orjson.Fragment
    view: View | None


def state_frame(t: Table, identity: str) -> StateFrame:
    return {"type": "state", "table": t.table_id, "seq": t.seq, "table_info": table_info(t, identity),
            "view": viewer_view(t, identity)}
