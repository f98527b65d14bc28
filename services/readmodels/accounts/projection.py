"""The SQL projection of the ACCOUNTS stream: one row per account, for look-ups by name or identity.

Like the tables' projections, every write happens in the transaction that moves the
projection's position (``accounts`` in ``projection_positions``), and a batch at or below
it is skipped: a redelivered or replayed stream changes nothing. No password hash is
projected: a copy of the database holds none. The row says what the stream says; it
decides nothing (names are claimed in the claims bucket: ``services.accounts.store``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Boolean, Column, DateTime, String, Table
from sqlalchemy.ext.asyncio import AsyncConnection

from maumau.v1 import accounts_pb2
from services.accounts.domain import Account, evolve
from services.accounts.names import normalise
from services.eventlog.sql import metadata, position, set_position

POSITION = "accounts"
DURABLE = "accounts-projector"  # the consumer writing it (services.readmodels.accounts.projector)

accounts = Table(
    "accounts", metadata,
    Column("account_id", String(64), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_normalised", String(128), nullable=False, index=True),
    Column("avatar", String(32), nullable=False),
    Column("identity", String(64), nullable=False, index=True),
    Column("registered_at", DateTime(timezone=True), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("staff", Boolean, nullable=False, default=False),  # the staff role (migration 0008: docs/disputes.md)
)

Stored = tuple[int, str, accounts_pb2.AccountEventBatch]  # stream sequence, account id, batch


def _row(a: Account) -> dict[str, object]:
    return {"name": a.name, "name_normalised": normalise(a.name), "avatar": a.avatar, "identity": a.identity,
            "seq": a.seq, "staff": a.staff}


async def _account(conn: AsyncConnection, account_id: str) -> Account:
    """The account as the projection has it (what is folded onto it next needs no more than its row)."""
    row = (await conn.execute(accounts.select().where(accounts.c.account_id == account_id))).first()
    if row is None:
        return Account(account_id)
    guest = row.identity if row.identity != Account(account_id).identity else ""
    return Account(account_id, exists=True, name=row.name, avatar=row.avatar, guest=guest, staff=row.staff,
                   seq=row.seq)


async def apply_many(conn: AsyncConnection, stored: list[Stored]) -> int:
    """Project stored batches (in stream order) in one transaction; how many were new."""
    known = last = await position(conn, POSITION)
    applied = 0
    for seq, account_id, batch in stored:
        if seq <= last:
            continue
        a = await _account(conn, account_id)
        existed = a.exists
        for ev in batch.events:
            evolve(a, seq, ev)
        if existed:
            await conn.execute(accounts.update().where(accounts.c.account_id == account_id).values(_row(a)))
        else:
            when = datetime.fromtimestamp(batch.events[0].time.ToNanoseconds() / 1e9, UTC)
            await conn.execute(accounts.insert().values(account_id=account_id, registered_at=when, **_row(a)))
        last, applied = seq, applied + 1
    if applied:
        await set_position(conn, last, known, POSITION)
    return applied
