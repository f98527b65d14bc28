"""What the gateway vouches for when someone takes a seat: an account or not, the address, the chips.

The table service decides who may sit (``services/table/domain.py``); it cannot see sessions,
addresses or the chips' projection, so the gateway puts them in the command: whether the
actor signed in to an account, their address hashed with the table's salt (the table keeps no
address: two seats at one address play for nothing), and, at a competitive table, their chips
as the projection has them. The chips are read, not held: a player who joins two competitive
tables at once may stake chips twice; the next day's top-up covers a balance gone below zero.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.identity import address_hash
from maumau.v1 import table_pb2
from services.rankings import reservations
from services.rankings.queries import chips


async def vouch(cmd: table_pb2.TableCommand, account: bool, address: str, salt: str, stake: int, db: AsyncEngine,
                tz: ZoneInfo) -> None:
    """Fill in what the table service needs to seat ``cmd.actor`` at a table with this salt and stake.

    Raises ``SQLAlchemyError`` or ``OSError`` when the chips cannot be read.
    """
    cmd.actor_account = account
    if salt:
        cmd.actor_address = address_hash(salt, address)
    if stake and account:
        async with db.connect() as conn:
            cmd.actor_chips = await chips(conn, cmd.actor, datetime.now(UTC), tz)
            cmd.actor_reserved = await reservations.elsewhere(conn, cmd.actor, cmd.table_id)
