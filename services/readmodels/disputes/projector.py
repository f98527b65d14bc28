"""The disputes projector: a durable consumer of the DISPUTES stream writing its read model
(``projection``).

It runs in the ``maumau projector`` process beside the tables' and the accounts' projectors:
one process owns the SQL projections, their migrations and their rebuild.
"""

from __future__ import annotations

import logging

from sqlalchemy.ext.asyncio import AsyncConnection

from maumau.v1 import disputes_pb2
from services.disputes.store import STREAM, SUBJECTS
from services.eventlog.projector import StreamProjector
from services.readmodels.disputes import projection as projections


class DisputesProjector(StreamProjector[disputes_pb2.DisputeEvent]):
    stream, subjects, durable, position_name = STREAM, SUBJECTS, projections.DURABLE, projections.POSITION
    log = logging.getLogger("maumau.projector.disputes")

    def parse(self, data: bytes) -> disputes_pb2.DisputeEvent:
        return disputes_pb2.DisputeEvent.FromString(data)

    async def write(self, conn: AsyncConnection, stored: list[projections.Stored]) -> int:
        return await projections.apply_many(conn, stored)
