"""The SQL projection of the DISPUTES stream: one row per dispute, for the staff's list and the reporter's.

Like the other projections, every write happens in the transaction that moves the
projection's position (``disputes`` in ``projection_positions``), and an event at or below it
is skipped. The row says what the stream says; the gateway decides from the stream itself
(``services.disputes.store``), never from here.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, Column, DateTime, Index, Integer, String, Table, Text, select
from sqlalchemy.ext.asyncio import AsyncConnection

from maumau.v1 import disputes_pb2
from services.disputes.domain import Dispute, Status, evolve, looked_dispute
from services.eventlog.sql import metadata, position, set_position
from services.readmodels.rankings.periods import utc

POSITION = "disputes"
DURABLE = "disputes-projector"  # the consumer writing it (services.readmodels.disputes.projector)
LISTED = 100  # disputes a list shows

disputes = Table(
    "disputes", metadata,
    Column("dispute_id", String(32), primary_key=True),
    Column("table_id", String(64), nullable=False),
    Column("table_seq", BigInteger, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("reporter", String(64), nullable=False),
    Column("reporter_name", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("verdict", String(16), nullable=False),
    Column("note", Text, nullable=False),
    Column("closed_by", String(64), nullable=False),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    Column("annulled", Boolean, nullable=False),
    Column("looks", Integer, nullable=False),
    Column("seq", BigInteger, nullable=False),
    Index("ix_disputes_status", "status", "opened_at"),
    Index("ix_disputes_reporter", "reporter", "opened_at"),
)

looks = Table(  # every staff look, at a dispute or at a table (the replay of a table over): the desk lists them
    "staff_looks", metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=False),  # the look's DISPUTES stream sequence
    Column("account_id", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("table_id", String(64), nullable=False),
    Column("dispute_id", String(32), nullable=False),  # "" when opened from no dispute
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_staff_looks_at", "at"),
)

Stored = tuple[int, str, disputes_pb2.DisputeEvent]  # stream sequence, dispute id, event


def _at(seconds: float) -> datetime | None:
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


def _row(d: Dispute) -> dict[str, Any]:
    return {"table_id": d.table_id, "table_seq": d.table_seq, "match_no": d.match_no, "reporter": d.reporter,
            "reporter_name": d.reporter_name, "seat": d.seat, "text": d.text, "opened_at": _at(d.opened_at),
            "status": d.status, "verdict": d.verdict, "note": d.note, "closed_by": d.closed_by,
            "closed_at": _at(d.closed_at), "annulled": d.annulled, "looks": d.looks, "seq": d.seq}


def _look(seq: int, subject_id: str, ev: disputes_pb2.DisputeEvent) -> dict[str, Any]:
    return {"seq": seq, "account_id": ev.looked.account_id, "name": ev.looked.name, "table_id": ev.looked.table_id,
            "dispute_id": looked_dispute(subject_id), "at": _at(ev.time.ToNanoseconds() / 1e9)}


def _dispute(dispute_id: str, row: Any) -> Dispute:
    if row is None:
        return Dispute(dispute_id)
    values = dict(row._mapping)
    for when in ("opened_at", "closed_at"):
        values[when] = utc(values[when]).timestamp() if values[when] is not None else 0.0
    values["status"] = Status(values["status"])
    return Dispute(**values)


async def apply_many(conn: AsyncConnection, stored: list[Stored]) -> int:
    """Project stored events (in stream order) in one transaction; how many were new."""
    known = last = await position(conn, POSITION)
    applied = 0
    for seq, dispute_id, ev in stored:
        if seq <= last:
            continue
        row = (await conn.execute(disputes.select().where(disputes.c.dispute_id == dispute_id))).first()
        d = _dispute(dispute_id, row)
        evolve(d, seq, ev)
        if ev.WhichOneof("body") == "looked":
            await conn.execute(looks.insert().values(_look(seq, dispute_id, ev)))
        if d.status != Status.NONE:  # an event of no dispute changes nothing
            if row is None:
                await conn.execute(disputes.insert().values(dispute_id=dispute_id, **_row(d)))
            else:
                await conn.execute(disputes.update().where(disputes.c.dispute_id == dispute_id).values(_row(d)))
        last, applied = seq, applied + 1
    if applied:
        await set_position(conn, last, known, POSITION)
    return applied


def listed(row: Any) -> dict[str, Any]:
    """A dispute as the lists show it (``GET /api/staff/disputes``, ``GET /api/disputes/mine``)."""
    return {"dispute_id": row.dispute_id, "table_id": row.table_id, "table_seq": row.table_seq,
            "match_no": row.match_no, "reporter_name": row.reporter_name, "seat": row.seat, "text": row.text,
            "opened_at": utc(row.opened_at).isoformat(), "status": row.status,
            "verdict": row.verdict, "note": row.note, "closed_by": row.closed_by, "annulled": row.annulled,
            "closed_at": utc(row.closed_at).isoformat() if row.closed_at is not None else None,
            "looks": row.looks}


async def open_disputes(conn: AsyncConnection, limit: int = LISTED,
                        status: Status = Status.OPEN) -> list[dict[str, Any]]:
    """The open disputes (or the closed ones), newest first."""
    rows = (await conn.execute(select(disputes).where(disputes.c.status == status)
                               .order_by(disputes.c.opened_at.desc(), disputes.c.dispute_id).limit(limit))).all()
    return [listed(r) for r in rows]


async def reported_by(conn: AsyncConnection, reporter: str, limit: int = LISTED) -> list[dict[str, Any]]:
    """What ``reporter`` reported, newest first, with the staff's answers."""
    rows = (await conn.execute(select(disputes).where(disputes.c.reporter == reporter)
                               .order_by(disputes.c.opened_at.desc(), disputes.c.dispute_id).limit(limit))).all()
    return [listed(r) for r in rows]


async def recent_looks(conn: AsyncConnection, limit: int = LISTED) -> list[dict[str, Any]]:
    """The staff's looks, newest first: who, when, which table, from which dispute (None: from none)."""
    rows = (await conn.execute(select(looks).order_by(looks.c.at.desc(), looks.c.seq.desc()).limit(limit))).all()
    return [{"name": r.name, "at": utc(r.at).isoformat(), "table_id": r.table_id, "dispute_id": r.dispute_id or None}
            for r in rows]
