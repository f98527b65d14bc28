"""Tables folded from the stream by the services that consume it (projector, clock, bots)."""

from __future__ import annotations

from collections import OrderedDict

from maumau.v1 import events_pb2
from services.table import domain
from services.table.store import EventStore


class TableFolder:
    """An LRU of tables, each folded up to the last batch its consumer handled.

    ``before(table_id, seq, previous)`` gives the table as it was just before the batch at
    ``seq``: the cached one when it is right there; caught up from the stream when the
    batch's predecessor (``previous``, from its headers) is past the cached one (a batch
    redelivered out of order had sent the cache back); else folded again from the stream
    (after a restart, an eviction, or a redelivery).
    """

    def __init__(self, store: EventStore, size: int = 2000):
        self.store = store
        self.size = size
        self.tables: OrderedDict[str, domain.Table] = OrderedDict()

    async def before(self, table_id: str, seq: int, previous: int | None = None) -> domain.Table:
        t = self.tables.pop(table_id, None)
        if t is not None and previous is not None and t.seq < previous < seq:
            for stored in await self.store.read(table_id, t.seq, until=previous):
                for ev in stored.batch.events:
                    domain.evolve(t, stored.seq, ev)
        if t is None or t.seq >= seq:
            t = domain.Table(table_id)
            for stored in await self.store.read(table_id, 0, until=seq - 1):
                for ev in stored.batch.events:
                    domain.evolve(t, stored.seq, ev)
        self.tables[table_id] = t
        while len(self.tables) > self.size:
            self.tables.popitem(last=False)
        return t

    async def after(self, table_id: str, seq: int, batch: events_pb2.EventBatch,
                    previous: int | None = None) -> domain.Table:
        """The table with the batch at ``seq`` (which followed ``previous``) folded in."""
        t = await self.before(table_id, seq, previous)
        try:
            for ev in batch.events:
                domain.evolve(t, seq, ev)
        except Exception:
            self.forget(table_id)
            raise
        return t

    def forget(self, table_id: str) -> None:
        """Drop a table whose fold can no longer be trusted (a transaction around it failed)."""
        self.tables.pop(table_id, None)
