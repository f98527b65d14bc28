"""The base of every SQL projection: a durable JetStream consumer that waits for its database.

A projection writes one transaction per fetch and acknowledges the batch once it is written:
if the process dies before, the batch comes again, and the projection's position (``sql``)
makes the second write a no-op.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import ClassVar, Generic, TypeVar

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from services.eventlog.consuming import consume
from services.eventlog.sql import position
from services.runtime.backoff import pauses

log = logging.getLogger("maumau.projector")
RETRY_FIRST, RETRY_MAX = 0.5, 10.0
UNREACHABLE = (OperationalError, InterfaceError, OSError)  # the database is down, locked or cut off


class Patient:
    """A projection that waits for its database: a batch is written, however long it takes, then acknowledged."""

    writing = True  # the last transaction went through: readiness says so

    async def patiently(self, write: Callable[[], Awaitable[object]]) -> None:
        """Run ``write`` (one transaction) until it goes through, waiting longer after each failure.

        The batch stays unacknowledged meanwhile: if this process dies, it comes again.
        """
        for delay in pauses(RETRY_FIRST, RETRY_MAX):
            try:
                await write()
                break
            except UNREACHABLE as e:
                self.writing = False
                log.warning("projections not written (%s); trying again in %g s",
                            (str(e) or type(e).__name__).splitlines()[0], delay)
                await asyncio.sleep(delay)
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

    async def consumers(self) -> list[tuple[str, str]]:
        """Its durable consumer, as (stream, name)."""
        return [(self.stream, self.durable)]

    async def caught_up(self) -> int:
        async with self.engine.connect() as conn:
            return await position(conn, self.position_name)
