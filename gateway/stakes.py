"""What the gateway vouches for when someone takes a seat: an account or not, the address, the chips.

The table service decides who may sit (``services/table/domain.py``); it cannot see sessions,
addresses or the chips' projection, so the gateway puts them in the command: whether the
actor signed in to an account, their address hashed with the table's salt (the table keeps no
address: two seats at one address play for nothing), and, at a competitive table, their chips
as the projection has them and how many of those their seats in other lobbies hold
(``services/readmodels/rankings/reservations.py``): the table refuses a seat the rest cannot cover. The
same is vouched when a rematch is accepted, as it takes the stakes again.

The chips are read once the projection has caught up with everything the tables' streams held
when the seat was asked for: a seat taken a moment before, anywhere, is counted. Only two
seats asked for at the same instant (the second sent before the first was stored) may still
stake the same chips (docs/rankings.md).
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from nats.js import JetStreamContext
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.identity import address_hash
from maumau.v1 import table_pb2
from services.eventlog.sql import position
from services.readmodels.rankings import reservations
from services.readmodels.rankings.queries import chips
from services.readmodels.tables.projection import partition_position
from services.table.store import partition_of_stream

CATCH_UP_SECONDS = 3.0  # the projector's lag a seat waits out at most (it lingers 0.25 s)
POLL_SECONDS = 0.02


async def vouch(cmd: table_pb2.TableCommand, account: bool, address: str, salt: str, stake: int, db: AsyncEngine,
                tz: ZoneInfo, js: JetStreamContext) -> None:
    """Fill in what the table service needs to seat ``cmd.actor`` at a table with this salt and stake.

    Raises ``SQLAlchemyError`` or ``OSError`` (``TimeoutError``: the projection is behind) when the
    chips cannot be read.
    """
    cmd.actor_account = account
    if salt:
        cmd.actor_address = address_hash(salt, address)
    if stake and account:
        await caught_up(js, db)
        async with db.connect() as conn:
            cmd.actor_chips = await chips(conn, cmd.actor, datetime.now(UTC), tz)
            cmd.actor_reserved = await reservations.elsewhere(conn, cmd.actor, cmd.table_id)


async def caught_up(js: JetStreamContext, db: AsyncEngine, seconds: float = CATCH_UP_SECONDS) -> None:
    """Wait until the projection has reached what every partition's stream holds now (``TimeoutError``
    after ``seconds``)."""
    wanted = {partition_position(k): info.state.last_seq for info in await js.streams_info()
              if (k := partition_of_stream(info.config.name or "")) is not None}
    deadline = time.monotonic() + seconds
    while True:
        async with db.connect() as conn:
            behind = [name for name, seq in wanted.items() if await position(conn, name) < seq]
        if not behind:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("the chips' projection is behind the tables")
        await asyncio.sleep(POLL_SECONDS)
