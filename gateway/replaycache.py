"""The replays' cache: each (table, viewer kind)'s replay body as it was last made, good while the table's
sequence stays (docs/performance.md, "Replays").

A replay reads and folds a table's whole record (0.2 s of CPU for 700 batches), and the
same replay is asked again and again (a finished table's never changes; a live table's
stays the same until its next batch). So the body is made once per (table, sequence,
viewer kind), JSON and gzip both, and kept: the next ask for it is a dictionary look-up
and a write. A table's newer sequence replaces its older body of that kind; the bodies
together hold at most ``max_bytes``, the least recently asked dropped first. Asked again
while it is being made, a body is made once: the askers wait for the same task.

>>> import asyncio
>>> cache = ReplayCache(max_bytes=10)
>>> async def make() -> Body:
...     return Body(b"{}", b"gz")
>>> body = asyncio.run(cache.get("t1", 5, "spectator", make))
>>> cache.cached("t1", 5, "spectator") == body, cache.cached("t1", 6, "spectator")
(True, None)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from cachetools import LRUCache

MAX_BYTES = 64 << 20  # a 700-batch table's replay is about 1 MiB of JSON and a tenth of that gzipped


@dataclass(frozen=True)
class Body:
    """One replay, encoded: the JSON, and the same gzipped (what nearly every browser asks for)."""

    raw: bytes
    gzipped: bytes

    @property
    def size(self) -> int:
        return len(self.raw) + len(self.gzipped)


Slot = tuple[str, str]  # (table, viewer kind)


class ReplayCache:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bodies: LRUCache[Slot, tuple[int, Body]] = LRUCache(max_bytes, getsizeof=lambda kept: kept[1].size)
        self.making: dict[tuple[str, int, str], asyncio.Task[Body]] = {}

    @property
    def size(self) -> int:
        """The bytes of the bodies kept."""
        return int(self.bodies.currsize)

    def cached(self, table_id: str, seq: int, kind: str) -> Body | None:
        """The body of ``kind`` for the table at ``seq``, if it is kept (and then the most recently asked)."""
        kept = self.bodies.get((table_id, kind))
        return None if kept is None or kept[0] != seq else kept[1]

    async def get(self, table_id: str, seq: int, kind: str, make: Callable[[], Awaitable[Body]]) -> Body:
        """The body of ``kind`` for the table at ``seq``: kept, being made, or made now (``make``) and kept."""
        body = self.cached(table_id, seq, kind)
        if body is not None:
            return body
        key = (table_id, seq, kind)
        task = self.making.get(key)
        if task is None:
            task = self.making[key] = asyncio.ensure_future(make())
            task.add_done_callback(lambda done: self._made(key, done))
        return await asyncio.shield(task)  # one asker gone does not stop the others' body

    def _made(self, key: tuple[str, int, str], task: asyncio.Task[Body]) -> None:
        del self.making[key]
        if not task.cancelled() and task.exception() is None:
            self._keep((key[0], key[2]), key[1], task.result())

    def _keep(self, slot: Slot, seq: int, body: Body) -> None:
        old = self.bodies.get(slot)
        if old is not None and old[0] > seq:  # a newer one was kept meanwhile
            return
        if body.size > self.max_bytes:
            self.bodies.pop(slot, None)
            return
        self.bodies[slot] = (seq, body)
