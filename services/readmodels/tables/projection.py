"""The tables' read model (SQLAlchemy 2, async): directory, results, invitations, seats.

Every write happens in the transaction that moves the projection's position to the
event's stream sequence, and an event at or below the position is skipped: replaying or
redelivering the stream changes nothing. The schema is made by the Alembic migrations beside
this file (``migrations/``, in the chain of ``services.readmodels.schema``); the tables here
mirror their head.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    String,
    Table,
    bindparam,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from maumau.v1 import events_pb2
from services.eventlog.sql import metadata, set_position
from services.table import domain

POSITION = "tables"

directory = Table(
    "table_directory", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("ruleset", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("capacity", Integer, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("players", JSON, nullable=False),
    Column("on_turn", Integer),
    Column("match_no", Integer, nullable=False),
    Column("rounds_played", Integer, nullable=False),
    Column("scores", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_move_at", DateTime(timezone=True), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("open", Boolean, nullable=False),
    Index("ix_table_directory_open", "open", "status"),
)

results = Table(
    "match_results", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("ruleset", String(16), nullable=False),
    Column("players", JSON, nullable=False),
    Column("scores", JSON, nullable=False),
    Column("winners", JSON, nullable=False),
    Column("ended_by", String(16), nullable=False),
    Column("ended_at", DateTime(timezone=True), nullable=False),
    Column("annulled", Boolean, nullable=False, default=False),  # by staff, upholding a dispute (docs/disputes.md)
)

invitations = Table(
    "invitations", metadata,
    Column("token_sha256", String(64), primary_key=True),  # whoever reads the database cannot join with it
    Column("table_id", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

seats = Table(
    "player_seats", metadata,
    Column("identity", String(64), primary_key=True),
    Column("table_id", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
)

def invitation_hash(token: str) -> str:
    """What the projection keeps of an invitation: enough to recognise it, not to use it.

    >>> invitation_hash("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(token.encode()).hexdigest()


def _when(ev: events_pb2.Event) -> datetime:
    return datetime.fromtimestamp(ev.time.ToNanoseconds() / 1e9, UTC)


def _row(t: domain.Table, created_at: datetime, last: datetime) -> dict[str, Any]:
    m = t.match
    return {
        "table_id": t.table_id, "ruleset": t.ruleset, "options": t.options, "capacity": t.capacity,
        "status": t.status, "players": [{"name": p.name, "bot": p.bot} for p in t.players],
        "on_turn": m.turn if m is not None and t.status == "playing" and not m.round_over else None,
        "match_no": t.match_no, "rounds_played": m.rounds_played if m is not None else 0,
        "scores": list(m.scores) if m is not None else [], "created_at": created_at, "last_move_at": last,
        "seq": t.seq, "open": t.open,
    }


async def project(conn: AsyncConnection, t: domain.Table, batch: events_pb2.EventBatch, was_over: bool) -> datetime:
    """Write the rows one stored batch creates (``t`` is the table after it; ``was_over``: before it).

    The table's directory row and the projection's position are written once per
    transaction by ``finish``: a busy table's many batches make one update.
    """
    when = _when(batch.events[-1])
    writes = (_ON_EVENT.get(ev.WhichOneof("body") or "") for ev in batch.events)
    for write in dict.fromkeys(w for w in writes if w is not None):  # each once per batch, in order
        await write(conn, t, when)
    if domain.finished(t, was_over):
        await conn.execute(results.insert().values(
            table_id=t.table_id, match_no=t.match_no, ruleset=t.ruleset,
            players=[p.name for p in t.players], scores=list(t.match.scores) if t.match is not None else [],
            winners=t.winners, ended_by=t.end_reason or "played", ended_at=when))
    return when


async def _created(conn: AsyncConnection, t: domain.Table, when: datetime) -> None:
    await conn.execute(invitations.insert().values(token_sha256=invitation_hash(t.invitation),
                                                   table_id=t.table_id, created_at=when))
    await conn.execute(directory.insert().values(_row(t, when, when)))


async def _seated(conn: AsyncConnection, t: domain.Table, when: datetime) -> None:
    await conn.execute(seats.delete().where(seats.c.table_id == t.table_id))
    people = [{"identity": p.identity, "table_id": t.table_id, "seat": i} for i, p in enumerate(t.players) if not p.bot]
    if people:
        await conn.execute(seats.insert(), people)


async def _annulled(conn: AsyncConnection, t: domain.Table, when: datetime) -> None:
    """Staff annulled a match (docs/disputes.md): its result stays, marked (the rankings take it out)."""
    await conn.execute(results.update().where(results.c.table_id == t.table_id, results.c.match_no.in_(t.annulled))
                       .values(annulled=True))


_ON_EVENT: dict[str, Callable[[AsyncConnection, domain.Table, datetime], Awaitable[None]]] = {
    "table_created": _created, "player_joined": _seated, "player_left": _seated,
    "seat_moved": _seated,  # teams: the creator moved players before the start
    "match_annulled": _annulled,
}
"""The rows each kind of event writes (beyond the directory row every batch updates)."""


_UPDATE_ROW = directory.update().where(directory.c.table_id == bindparam("tid"))


def partition_position(partition: int) -> str:
    """The position's name of one partition's stream (partition 0's is the one position there was before).

    >>> partition_position(0), partition_position(2)
    ('tables', 'tables-2')
    """
    return f"{POSITION}-{partition}" if partition else POSITION


async def finish(conn: AsyncConnection, touched: dict[str, tuple[domain.Table, datetime]], seq: int,
                 known: int, name: str = POSITION) -> None:
    """Write the directory rows of the tables a transaction touched (one statement), and its position."""
    rows = []
    for t, when in touched.values():
        row = _row(t, when, when)
        del row["created_at"]
        row["tid"] = row.pop("table_id")
        rows.append(row)
    await conn.execute(_UPDATE_ROW, rows)
    await set_position(conn, seq, known, name)
