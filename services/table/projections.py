"""SQL projections of the tables' streams (SQLAlchemy 2, async): directory, results, invitations.

Every write happens in the transaction that moves the projection's position to the
event's stream sequence, and an event at or below the position is skipped: replaying or
redelivering the stream changes nothing. The schema is made by the Alembic migrations in
``services/table/migrations``; ``metadata`` here mirrors their head.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    event,
    select,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from maumau.v1 import events_pb2
from services.table import domain
from services.table.domain import Status

POSITION = "tables"
metadata = MetaData()

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

positions = Table(
    "projection_positions", metadata,
    Column("name", String(32), primary_key=True),
    Column("seq", BigInteger, nullable=False),
)


def invitation_hash(token: str) -> str:
    """What the projection keeps of an invitation: enough to recognise it, not to use it.

    >>> invitation_hash("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(token.encode()).hexdigest()


def engine(url: str) -> AsyncEngine:
    made = create_async_engine(url, pool_pre_ping=True)
    if made.dialect.name == "sqlite":
        event.listen(made.sync_engine, "connect", _sqlite_wal)
    return made


def _sqlite_wal(connection: Any, _record: object) -> None:
    """The embedded database in write-ahead mode: readers (the gateways) never wait for the projector.

    With ``synchronous=NORMAL`` a commit is no longer flushed to disk on its own (only at
    checkpoints): a power cut may lose the last commits, never consistency, and each
    projection's position is committed with its rows, so the projector replays what was lost
    from the stream. A commit cost the projector 2.7–4.3 ms of CPU before, 2.0–2.2 after.
    """
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


async def migrate(url: str) -> None:
    """Bring the schema to the newest migration (Alembic runs its own loop, so in a thread)."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")


async def position(conn: AsyncConnection, name: str = POSITION) -> int:
    """The stream sequence a projection (``tables``, ``accounts``) has reached."""
    seq = (await conn.execute(select(positions.c.seq).where(positions.c.name == name))).scalar()
    return int(seq or 0)


async def set_position(conn: AsyncConnection, seq: int, known: int, name: str = POSITION) -> None:
    if known:
        await conn.execute(positions.update().where(positions.c.name == name).values(seq=seq))
    else:
        await conn.execute(positions.insert().values(name=name, seq=seq))


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
    if finished(t, was_over):
        await conn.execute(results.insert().values(
            table_id=t.table_id, match_no=t.match_no, ruleset=t.ruleset,
            players=[p.name for p in t.players], scores=list(t.match.scores) if t.match is not None else [],
            winners=t.winners, ended_by=t.end_reason or "played", ended_at=when))
    return when


def finished(t: domain.Table, was_over: bool) -> bool:
    """Whether the batch just folded into ``t`` ended its match (a later expiry of a played-out one does not)."""
    return t.status in (Status.OVER, Status.ENDED) and not was_over and t.match_no > 0


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
