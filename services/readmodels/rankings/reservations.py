"""The chips held by seats in competitive lobbies: projected from the tables' streams, read by the gateway.

A seat taken at a competitive table holds its stake from the join until the match starts (the
stake then leaves the balance: a ``stake`` move) or the seat is left, or the table ends. The
gateway vouches ``actor_reserved``, the chips the actor's other lobbies hold, when they take a
seat (``gateway/stakes.py``), and the table refuses ``chips_reserved`` a seat the rest cannot
cover: the same chips are not staked at two tables. The rows follow the table as it is after each
batch, so a rebuild writes them again as they were.
"""

from __future__ import annotations

from sqlalchemy import Column, Index, Integer, String, Table, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from services.eventlog.sql import metadata
from services.table import domain

reservations = Table(
    "chip_reservations", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("amount", Integer, nullable=False),
    Index("ix_chip_reservations_identity", "identity"),
)

SEATING = frozenset({"table_created", "player_joined", "player_left", "match_started", "match_ended"})
"""The events that may take, leave or end a seat in a lobby: a table's reservations are written again after them."""


def held(t: domain.Table) -> list[dict[str, object]]:
    """The reservations of table ``t`` as it is now: its stake for every person seated in its lobby.

    >>> from services.table.domain import Player, Status, Table
    >>> t = Table("t1", stake=50, status=Status.LOBBY, players=[Player("a-1", "Ana")])
    >>> held(t)
    [{'table_id': 't1', 'identity': 'a-1', 'amount': 50}]
    >>> t.status = Status.PLAYING  # the stake is in the pot now: the balance holds it no more
    >>> held(t)
    []
    """
    if not t.stake or t.status != domain.Status.LOBBY:
        return []
    return [{"table_id": t.table_id, "identity": p.identity, "amount": t.stake} for p in t.players if not p.bot]


async def write(conn: AsyncConnection, tables: dict[str, list[dict[str, object]]]) -> None:
    """Replace the reservations of these tables (table id: its rows now)."""
    if not tables:
        return
    await conn.execute(reservations.delete().where(reservations.c.table_id.in_(tables)))
    rows = [row for held_now in tables.values() for row in held_now]
    if rows:
        await conn.execute(reservations.insert(), rows)


async def elsewhere(conn: AsyncConnection, identity: str, table_id: str) -> int:
    """The chips ``identity``'s seats hold in competitive lobbies other than ``table_id``."""
    total = (await conn.execute(select(func.sum(reservations.c.amount)).where(
        reservations.c.identity == identity, reservations.c.table_id != table_id))).scalar()
    return int(total or 0)
