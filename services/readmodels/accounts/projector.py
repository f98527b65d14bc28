"""The accounts projector: a durable consumer of the ACCOUNTS stream writing its read model
(``projection``).

It runs in the ``maumau projector`` process beside the tables' projector: one process owns
the SQL projections, their migrations and their rebuild.
"""

from __future__ import annotations

import logging

from sqlalchemy.ext.asyncio import AsyncConnection

from maumau.v1 import accounts_pb2
from services.accounts.store import STREAM, SUBJECTS
from services.eventlog.projector import StreamProjector
from services.readmodels.accounts import projection as projections


class AccountsProjector(StreamProjector[accounts_pb2.AccountEventBatch]):
    stream, subjects, durable, position_name = STREAM, SUBJECTS, projections.DURABLE, projections.POSITION
    log = logging.getLogger("maumau.projector.accounts")

    def parse(self, data: bytes) -> accounts_pb2.AccountEventBatch:
        return accounts_pb2.AccountEventBatch.FromString(data)

    async def write(self, conn: AsyncConnection, stored: list[projections.Stored]) -> int:
        return await projections.apply_many(conn, stored)
