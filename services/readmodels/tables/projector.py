"""The tables' projector: a durable consumer of every partition's stream writing the tables' read model and
the rankings (``services.readmodels.rankings``), one transaction per fetch."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime
from zoneinfo import ZoneInfo

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import events_pb2
from services.eventlog.consuming import consume_all
from services.eventlog.projector import Patient
from services.eventlog.sql import position
from services.readmodels.rankings.periods import zone
from services.readmodels.rankings.projection import Standings
from services.readmodels.tables.projection import finish, partition_position, project
from services.runtime import metrics, subjects
from services.table.domain import Status, Table
from services.table.repository import tables
from services.table.store import SUBJECTS, EventStore, Stored, partition_of_stream, stream_of

log = logging.getLogger("maumau.projector")
DURABLE = "projector"


class Projector(Patient):
    def __init__(self, js: JetStreamContext, engine: AsyncEngine, cache_size: int = 2000, tz: ZoneInfo | None = None):
        self.js = js
        self.engine = engine
        self.store = EventStore(js)
        self.tables = tables(self.store, cache_size)
        self.tz = tz or zone()  # the platform's days, for the rankings' periods
        self.one_writer = asyncio.Lock()  # one transaction at a time, whichever partition it comes from

    async def apply(self, seq: int, table_id: str, batch: events_pb2.EventBatch) -> bool:
        """Project one stored batch; False when it was projected already."""
        return bool(await self.apply_many([(seq, table_id, batch)]))

    async def apply_many(self, stored: list[tuple[int, str, events_pb2.EventBatch]]) -> int:
        """Project stored batches (in the order of their partition's stream) in one transaction; how many were new."""
        if not stored:
            return 0
        name = partition_position(subjects.table_partition(stored[0][1]))
        async with self.one_writer:
            return await self._write(name, stored)

    async def _write(self, name: str, stored: list[tuple[int, str, events_pb2.EventBatch]]) -> int:
        touched: dict[str, tuple[Table, datetime]] = {}
        standings = Standings()  # what the batches do to the rankings and chips, as they are folded
        try:
            async with self.engine.begin() as conn:
                known = last = await position(conn, name)
                applied = 0
                for seq, table_id, batch in stored:
                    if seq <= last:
                        continue
                    t = await self.tables.before(table_id, seq, batch.previous_seq or None)
                    was_over = t.status in (Status.OVER, Status.ENDED)
                    self.tables.apply(t, Stored(seq, batch))
                    when = await project(conn, t, batch, was_over)
                    touched[table_id] = (t, when)
                    standings.observe(t, batch, was_over, when)
                    last = seq
                    applied += 1
                if touched:
                    await standings.write(conn, self.tz)
                    await finish(conn, touched, last, known, name)
                return applied
        except Exception:
            for table_id in touched:  # folded ahead of a transaction that did not commit
                self.tables.forget(table_id)
            raise

    async def run(self, batch: int = 500, linger: float = 0.25) -> None:
        """Consume the stream until cancelled (resumes at the durable consumer's position).

        Projections may lag the stream by ``linger`` seconds: a busy platform's batches then
        come whole, each one transaction.
        """
        config = ConsumerConfig(durable_name=DURABLE, deliver_policy=DeliverPolicy.ALL,
                                ack_policy=AckPolicy.EXPLICIT, filter_subject=SUBJECTS, max_ack_pending=10_000)
        await consume_all(self.js, self.store.streams, config, self._project, size=batch, linger=linger, log=log)

    async def _project(self, msgs: list[Msg]) -> None:
        """Write the batch, waiting for the database as long as it takes; acknowledge it once written."""
        stored = [(m.metadata.sequence.stream, m.subject.rsplit(".", 1)[-1], events_pb2.EventBatch.FromString(m.data))
                  for m in msgs]
        await self.patiently(lambda: self.apply_many(stored))
        if msgs:  # a fetch may come back empty
            metrics.PROJECTION_POSITION.labels(partition_position(subjects.table_partition(stored[0][1]))).set(
                stored[-1][0])
            metrics.PROJECTION_LAG.labels("tables").set(max(0.0, time.time() - msgs[-1].metadata.timestamp.timestamp()))
        for msg in msgs:
            await msg.ack()

    async def consumers(self) -> list[tuple[str, str]]:
        """Its durable consumer on every partition's stream, as (stream, name)."""
        return [(stream, DURABLE) for stream, _ in await self.store.streams()]

    async def caught_up(self, stream: str = stream_of(0)) -> int:
        """The sequence of ``stream`` (a partition's) the projection has reached."""
        partition = partition_of_stream(stream)
        assert partition is not None, f"{stream} is not a stream of tables"
        async with self.engine.connect() as conn:
            return await position(conn, partition_position(partition))

