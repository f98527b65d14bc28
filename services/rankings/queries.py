"""What the rankings, profiles and histories read: pages of one period's totals, a player's rows.

Only accounts rank: a total is shown when its identity is an account's (a guest who creates
an account keeps their identity, and with it the matches they played as a guest). Equal win
counts share a position (1, 1, 3): a row's position is one more than the number of accounts
with more wins in the same period, counted by the index the page is read in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from services.accounts.projections import accounts
from services.rankings.periods import Period, key
from services.rankings.projection import seats_played, totals

PAGE = 50
HISTORY = 20


@dataclass(frozen=True)
class Row:
    position: int
    name: str
    avatar: str
    wins: int


async def ranking(conn: AsyncConnection, ruleset: str, category: str, period: Period, now: datetime, tz: ZoneInfo,
                  page: int = 0, size: int = PAGE) -> tuple[list[Row], bool]:
    """One page of the wins ranking of ``period`` (the one holding ``now``), and whether more follow."""
    partition = and_(totals.c.ruleset == ruleset, totals.c.category == category, totals.c.period == period,
                     totals.c.period_key == key(period, now, tz), totals.c.wins > 0)
    ranked = totals.join(accounts, accounts.c.identity == totals.c.identity)
    rows = (await conn.execute(
        select(accounts.c.name, accounts.c.avatar, totals.c.wins).select_from(ranked).where(partition)
        .order_by(totals.c.wins.desc(), totals.c.identity).limit(size + 1).offset(page * size))).all()
    more, rows = len(rows) > size, rows[:size]
    if not rows:
        return [], False
    ahead = (await conn.execute(select(func.count()).select_from(ranked)
                                .where(partition, totals.c.wins > rows[0].wins))).scalar_one()
    page_rows, position = [], ahead + 1
    for i, r in enumerate(rows):
        if i and r.wins < rows[i - 1].wins:
            position = page * size + i + 1
        page_rows.append(Row(position, r.name, r.avatar, r.wins))
    return page_rows, more


async def statistics(conn: AsyncConnection, identity: str) -> list[dict[str, Any]]:
    """Matches played and won, per ruleset and category, over all time."""
    rows = (await conn.execute(
        select(totals.c.ruleset, totals.c.category, totals.c.played, totals.c.wins)
        .where(totals.c.identity == identity, totals.c.period == Period.ALL)
        .order_by(totals.c.ruleset, totals.c.category))).all()
    return [{"ruleset": r.ruleset, "category": r.category, "played": r.played, "wins": r.wins,
             "win_rate": round(r.wins / r.played, 3) if r.played else 0.0} for r in rows]


async def history(conn: AsyncConnection, identity: str, size: int = HISTORY) -> list[dict[str, Any]]:
    """The last matches of ``identity``: who played, how it went, how it ended, where."""
    mine = (await conn.execute(
        select(seats_played).where(seats_played.c.identity == identity)
        .order_by(seats_played.c.ended_at.desc(), seats_played.c.table_id.desc()).limit(size))).all()
    if not mine:
        return []
    others = seats_played.alias("others")
    matches = {(m.table_id, m.match_no) for m in mine}
    people: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for o in (await conn.execute(
            select(others.c.table_id, others.c.match_no, others.c.seat, others.c.name, others.c.bot, others.c.won)
            .where(others.c.table_id.in_({t for t, _ in matches})).order_by(others.c.seat))).all():
        if (o.table_id, o.match_no) in matches:
            people.setdefault((o.table_id, o.match_no), []).append(
                {"seat": o.seat, "name": o.name, "bot": o.bot, "won": o.won})
    return [{"table_id": m.table_id, "match_no": m.match_no, "ruleset": m.ruleset, "category": m.category,
             "seat": m.seat, "won": m.won, "left": m.left, "end_reason": m.end_reason,
             "ended_at": utc(m.ended_at).isoformat(), "players": people.get((m.table_id, m.match_no), [])}
            for m in mine]


def utc(moment: datetime) -> datetime:
    """SQLite gives back the UTC times it was given without their zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def account_by_name(conn: AsyncConnection, normalised: str) -> Any:
    """The projected account with this normalised name, or None."""
    return (await conn.execute(select(accounts).where(accounts.c.name_normalised == normalised))).first()
