"""Replays made in a process of their own beside the gateway's (docs/performance.md, "Replays").

Making a replay folds a whole table and encodes it: about 0.25 ms of CPU per batch, 0.2 s for
700 batches, all Python. In a thread of the gateway it held the interpreter's lock in 5 ms
turns against the event loop, and every live move waited behind it (the outside probe's p99
37 → 502 ms under 10 replays a second). In a worker process at a lower priority (``NICE``,
as the reacting services have), the gateway only ships the table's stored bytes out and the
encoded body back, and the worker waits for a free core instead of delaying the moves. One
worker per gateway, started at the first replay asked (about a second): replays are made one
at a time, which more workers would only spread over the same cores.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Literal, TypedDict

from gateway.replaycache import Body
from services.record import replay
from services.table.domain import Table
from services.table.store import Stored


class Replay(TypedDict):
    """The body of ``GET /api/tables/{id}/replay`` (docs/protocol.md)."""

    table_id: str
    ruleset: str
    viewer: Literal["staff", "seat", "spectator"]
    seat: int | None
    full_until: int | None  # staff: every hand up to this sequence
    steps: list[replay.ReplayStep]


NICE = 10  # as the reacting services' (services/runtime/supervisor.py): the moves players wait for go first


def viewer_of(identity: str, full_until: int | None) -> Callable[[Table], replay.Viewer]:
    """Who sees each step: everything up to ``full_until`` (staff), else the seat ``identity`` held then."""
    def viewer(t: Table) -> replay.Viewer:
        if full_until is not None:
            return replay.FULL if t.seq <= full_until else None
        seat = t.seat_of(identity)
        return seat if seat >= 0 else None
    return viewer


def body(table_id: str, records: list[Stored], identity: str, full_until: int | None) -> Body:
    """The replay as ``GET /api/tables/{id}/replay`` sends it, JSON and gzipped."""
    steps = replay.steps(table_id, records, viewer_of(identity, full_until), identity)
    last = steps[-1]["table_info"]
    shown: Replay = {
        "table_id": table_id, "ruleset": last["ruleset"], "viewer": "staff" if full_until is not None else (
            "seat" if last["my_seat"] >= 0 else "spectator"),
        "seat": last["my_seat"] if last["my_seat"] >= 0 else None, "full_until": full_until, "steps": steps}
    raw = json.dumps(shown, separators=(",", ":")).encode()
    return Body(raw, gzip.compress(raw, 6))


def _started() -> None:
    os.nice(NICE)


def _make(table_id: str, records: list[tuple[int, bytes]], identity: str, full_until: int | None) -> Body:
    """In the worker: ``body`` from the stored bytes."""
    return body(table_id, [Stored.decode(seq, data) for seq, data in records], identity, full_until)


def _raw(stored: Stored) -> tuple[int, bytes]:
    assert stored.data is not None  # EventStore.read keeps every batch's bytes
    return stored.seq, stored.data


class ReplayMaker:
    """The gateway's one replay worker, started when first needed and again after it died."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None

    async def make(self, table_id: str, records: list[Stored], identity: str, full_until: int | None) -> Body:
        """The replay's body, made in the worker (raises ``BrokenProcessPool`` if it died meanwhile)."""
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_started)
        try:
            return await asyncio.wrap_future(self.pool.submit(_make, table_id, [_raw(s) for s in records], identity,
                                                              full_until))
        except BrokenProcessPool:
            self.pool = None  # the worker died: the next replay starts another
            raise

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
