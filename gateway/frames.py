"""The frames a socket receives of a table (docs/protocol.md), built from what each viewer may see.

What a viewer may see is ``services.table.viewing``'s; here it is put in frames, and each batch's
frame text is built once per kind of viewer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from maumau.v1 import events_pb2
from services.table.domain import Table
from services.table.viewing import public_info, redact_event, seats_shown_more, table_info, viewer_view


def events_frame(t: Table, seq: int, batch: events_pb2.EventBatch, identity: str) -> dict[str, Any]:
    """The frame one stored batch makes for one viewer (``t`` is the table after the batch)."""
    seat = t.seat_of(identity)
    viewer = seat if seat >= 0 else None
    return {"type": "events", "table": t.table_id, "seq": seq,
            "events": [redact_event(ev, viewer) for ev in batch.events],
            "table_info": table_info(t, identity, seat), "view": viewer_view(t, identity, seat)}


def _object_with(head: bytes, extra: dict[str, Any]) -> orjson.Fragment:
    """The JSON text of an object: ``head`` (an object's text without its closing brace), then ``extra``'s keys.

    >>> orjson.dumps({"a": _object_with(orjson.dumps({"x": 1})[:-1], {"y": [2]})})
    b'{"a":{"x":1,"y":[2]}}'
    """
    return orjson.Fragment(head + b"," + orjson.dumps(extra)[1:])


@dataclass(frozen=True)
class _Shared:
    """What a batch shows every viewer alike, built and serialized once."""

    events: list[dict[str, Any]]  # as a spectator sees them
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

    def _frame(self, seat: int, creator: bool) -> dict[str, Any]:
        """What ``events_frame`` makes for a viewer at ``seat`` (-1: none) who did or did not create the table."""
        t = self.table
        if self.shared is None:
            self.shared = _Shared.of(t, self.batch)
        shared = self.shared
        events: list[dict[str, Any]] | orjson.Fragment = shared.events_json
        if seat in shared.shown_more:
            events = list(shared.events)
            for i in shared.shown_more[seat]:
                events[i] = redact_event(self.batch.events[i], seat)
        mine: dict[str, Any] = {"my_seat": seat, "creator": creator}
        if seat >= 0 or creator:
            mine["invitation"] = t.invitation
        return {"type": "events", "table": t.table_id, "seq": self.seq, "events": events,
                "table_info": _object_with(shared.info_head, mine), "view": viewer_view(t, "", seat)}


def state_frame(t: Table, identity: str) -> dict[str, Any]:
    return {"type": "state", "table": t.table_id, "seq": t.seq, "table_info": table_info(t, identity),
            "view": viewer_view(t, identity)}
