"""What a finished match writes: one row per seat (history), and its people's totals per period.

Written by the tables' projector in the transaction that projects the match's last batch
(``services/table/projector.py``), so a replayed or redelivered stream writes nothing twice.
Totals are kept per ruleset, category, period and identity, added to as matches end: a
ranking reads one period's rows in the order of an index, never the matches (docs/rankings.md).
Bots have seats in the history (people play against them) but no totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Boolean, Column, DateTime, Index, Integer, String, Table
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from services.rankings.periods import keys
from services.table import domain
from services.table.projections import metadata

seats_played = Table(
    "match_seats", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("identity", String(64), nullable=False),
    Column("name", String(64), nullable=False),  # as seated: a later rename shows in profiles, not in old matches
    Column("bot", Boolean, nullable=False),
    Column("ruleset", String(16), nullable=False),
    Column("category", String(16), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),  # this seat gave up, or its absence ended the match
    Column("end_reason", String(16), nullable=False),  # played, gave_up, absence, expired
    Column("ended_at", DateTime(timezone=True), nullable=False),
    Index("ix_match_seats_identity", "identity", "ended_at"),
)

totals = Table(
    "ranking_totals", metadata,
    Column("ruleset", String(16), primary_key=True),
    Column("category", String(16), primary_key=True),
    Column("period", String(8), primary_key=True),
    Column("period_key", String(16), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("played", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Index("ix_ranking_totals_wins", "ruleset", "category", "period", "period_key", "wins", "identity"),
    Index("ix_ranking_totals_identity", "identity", "period"),
)

TOTALS_KEY = ("ruleset", "category", "period", "period_key", "identity")


def seat_rows(t: domain.Table, when: datetime) -> list[dict[str, Any]]:
    winners = set(t.winners)
    return [{"table_id": t.table_id, "match_no": t.match_no, "seat": i, "identity": p.identity, "name": p.name,
             "bot": p.bot, "ruleset": t.ruleset, "category": t.category, "won": i in winners,
             "left": i == t.ended_by and t.end_reason in ("gave_up", "absence"),
             "end_reason": t.end_reason or "played", "ended_at": when} for i, p in enumerate(t.players)]


def total_rows(seats: Sequence[dict[str, Any]], tz: ZoneInfo) -> list[dict[str, Any]]:
    """What the people's totals gain from these seats, one row per identity and period."""
    gained: dict[tuple[str, ...], list[int]] = {}
    for s in seats:
        if s["bot"]:
            continue
        for period, key in keys(s["ended_at"], tz).items():
            row = gained.setdefault((s["ruleset"], s["category"], period, key, s["identity"]), [0, 0])
            row[0] += 1
            row[1] += int(s["won"])
    return [dict(zip(TOTALS_KEY, k, strict=True)) | {"played": p, "wins": w} for k, (p, w) in gained.items()]


async def add_to_totals(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """Add played and won matches to the totals (a row made on the first, added to after)."""
    if not rows:
        return
    insert = (sqlite_insert if conn.dialect.name == "sqlite" else postgresql_insert)(totals)
    await conn.execute(insert.on_conflict_do_update(
        index_elements=list(TOTALS_KEY),
        set_={"played": totals.c.played + insert.excluded.played, "wins": totals.c.wins + insert.excluded.wins}),
        rows)


async def record(conn: AsyncConnection, seats: Sequence[dict[str, Any]], tz: ZoneInfo) -> None:
    """Write the seats of matches that just ended (``seat_rows``), and add them to the totals."""
    if seats:
        await conn.execute(seats_played.insert(), seats)
        await add_to_totals(conn, total_rows(seats, tz))
