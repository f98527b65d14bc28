"""The disputes projector: a durable consumer of the DISPUTES stream writing ``services.disputes.projections``.

It runs in the ``maumau projector`` process beside the tables' and the accounts' projectors:
one process owns the SQL projections, their migrations and their rebuild.
"""

from __future__ import annotations

import logging

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import disputes_pb2
from services.disputes import projections
from services.disputes.store import STREAM, SUBJECTS
from services.runtime.consuming import consume
from services.table.projections import position
from services.table.projector import Patient

log = logging.getLogger("maumau.projector.disputes")


class DisputesProjector(Patient):
    def __init__(self, js: JetStreamContext, engine: AsyncEngine):
        self.js = js
        self.engine = engine

    async def apply_many(self, stored: list[projections.Stored]) -> int:
        async with self.engine.begin() as conn:
            return await projections.apply_many(conn, stored)

    async def run(self, batch: int = 200, linger: float = 0.25) -> None:
        """Consume the stream until cancelled (resumes at the durable consumer's position)."""
        config = ConsumerConfig(durable_name=projections.DURABLE, deliver_policy=DeliverPolicy.ALL,
                                ack_policy=AckPolicy.EXPLICIT, filter_subject=SUBJECTS, max_ack_pending=10_000)
        await consume(self.js, STREAM, config, self._project, size=batch, linger=linger, log=log)

    async def _project(self, msgs: list[Msg]) -> None:
        stored = [(m.metadata.sequence.stream, m.subject.rsplit(".", 1)[-1],
                   disputes_pb2.DisputeEvent.FromString(m.data)) for m in msgs]
        await self.patiently(lambda: self.apply_many(stored))
        for msg in msgs:
            await msg.ack()

    async def caught_up(self) -> int:
        async with self.engine.connect() as conn:
            return await position(conn, projections.POSITION)
