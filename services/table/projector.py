"""The projector: a durable JetStream consumer that keeps the SQL projections up to date."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import ClassVar, Generic, TypeVar
from zoneinfo import ZoneInfo

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from sqlalchemy import text
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from maumau.v1 import events_pb2
from services.accounts.projections import DURABLE as ACCOUNTS_DURABLE
from services.accounts.store import STREAM as ACCOUNTS_STREAM
from services.disputes.projections import DURABLE as DISPUTES_DURABLE
from services.disputes.store import STREAM as DISPUTES_STREAM
from services.eventlog.consuming import consume, consume_all
from services.rankings.periods import zone
from services.rankings.projection import Standings
from services.runtime import metrics, subjects
from services.table.domain import Status, Table
from services.table.projections import finish, metadata, migrate, partition_position, position, project
from services.table.repository import tables
from services.table.store import SUBJECTS, EventStore, Stored, partition_of_stream, stream_of

log = logging.getLogger("maumau.projector")
DURABLE = "projector"
RETRY_FIRST, RETRY_MAX = 0.5, 10.0
UNREACHABLE = (OperationalError, InterfaceError, OSError)  # the database is down, locked or cut off


class Patient:
    """A projection that waits for its database: a batch is written, however long it takes, then acknowledged."""

    writing = True  # the last transaction went through: readiness says so

    async def patiently(self, write: Callable[[], Awaitable[object]]) -> None:
        """Run ``write`` (one transaction) until it goes through, waiting longer after each failure.

        The batch stays unacknowledged meanwhile: if this process dies, it comes again.
        """
        delay = RETRY_FIRST
        while True:
            try:
                await write()
                break
            except UNREACHABLE as e:
                self.writing = False
                log.warning("projections not written (%s); trying again in %g s",
                            (str(e) or type(e).__name__).splitlines()[0], delay)
                await asyncio.sleep(delay)
                delay = min(2 * delay, RETRY_MAX)
        self.writing = True


B = TypeVar("B")


class StreamProjector(Patient, Generic[B]):
    """A durable consumer of one stream writing one projection (accounts, disputes): batches in, one
    transaction per fetch, acknowledged once written. A subclass names its stream and says how a
    message's bytes parse and how stored batches are written."""

    stream: ClassVar[str]
    subjects: ClassVar[str]
    durable: ClassVar[str]
    position_name: ClassVar[str]  # its row in projection_positions
    log: ClassVar[logging.Logger]

    def __init__(self, js: JetStreamContext, engine: AsyncEngine):
        self.js = js
        self.engine = engine

    def parse(self, data: bytes) -> B:
        raise NotImplementedError

    async def write(self, conn: AsyncConnection, stored: list[tuple[int, str, B]]) -> int:
        """Project stored batches (sequence, aggregate id, batch) in stream order; how many were new."""
        raise NotImplementedError

    async def apply_many(self, stored: list[tuple[int, str, B]]) -> int:
        async with self.engine.begin() as conn:
            return await self.write(conn, stored)

    async def run(self, batch: int = 200, linger: float = 0.25) -> None:
        """Consume the stream until cancelled (resumes at the durable consumer's position)."""
        config = ConsumerConfig(durable_name=self.durable, deliver_policy=DeliverPolicy.ALL,
                                ack_policy=AckPolicy.EXPLICIT, filter_subject=self.subjects, max_ack_pending=10_000)
        await consume(self.js, self.stream, config, self._project, size=batch, linger=linger, log=self.log)

    async def _project(self, msgs: list[Msg]) -> None:
        stored = [(m.metadata.sequence.stream, m.subject.rsplit(".", 1)[-1], self.parse(m.data)) for m in msgs]
        await self.patiently(lambda: self.apply_many(stored))
        for msg in msgs:
            await msg.ack()

    async def caught_up(self) -> int:
        async with self.engine.connect() as conn:
            return await position(conn, self.position_name)


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

    async def caught_up(self, stream: str = stream_of(0)) -> int:
        """The sequence of ``stream`` (a partition's) the projection has reached."""
        partition = partition_of_stream(stream)
        assert partition is not None, f"{stream} is not a stream of tables"
        async with self.engine.connect() as conn:
            return await position(conn, partition_position(partition))


async def reset(engine: AsyncEngine, url: str, js: JetStreamContext) -> None:
    """Drop the projections (tables, accounts, disputes) and their consumers: the next run rebuilds them."""
    async with engine.begin() as conn:
        await conn.run_sync(lambda c: metadata.drop_all(c, checkfirst=True))  # every projection: all are rebuilt
        await conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    partitions = [(stream, DURABLE) for stream, _ in await EventStore(js).streams()]
    consumers = (*partitions, (ACCOUNTS_STREAM, ACCOUNTS_DURABLE), (DISPUTES_STREAM, DISPUTES_DURABLE))
    for stream, durable in consumers:
        try:
            await js.delete_consumer(stream, durable)
        except Exception as e:
            log.info("no consumer to delete: %s", e)
    await migrate(url)



