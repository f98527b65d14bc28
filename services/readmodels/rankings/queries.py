"""What the rankings, profiles and histories read: pages of one period's totals, a player's rows.

Only accounts rank: a total is shown when its identity is an account's (a guest who creates
an account keeps their identity, and with it the matches they played as a guest). Equal win
counts share a position (1, 1, 3): a row's position is one more than the number of accounts
with more wins in the same period, counted by the index the page is read in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from services.readmodels.accounts.projection import accounts
from services.readmodels.rankings.outcome import OPENING_CHIPS, balance_on
from services.readmodels.rankings.periods import Period, key, utc
from services.readmodels.rankings.projection import chip_balances, seats_played, totals

PAGE = 50
HISTORY = 20


class Score(StrEnum):
    """What a ranking orders by: wins (seed 004), or the XP of competitive matches (seed 002)."""

    WINS = "wins"
    XP = "xp"


@dataclass(frozen=True)
class Row:
    position: int
    name: str
    avatar: str
    score: int


async def ranking(conn: AsyncConnection, ruleset: str, category: str, period: Period, now: datetime, tz: ZoneInfo,
                  page: int = 0, size: int = PAGE, by: Score = Score.WINS) -> tuple[list[Row], bool]:
    """One page of the ranking of ``period`` (the one holding ``now``) by ``by``, and whether more follow.

    Who has no win (or no XP won or lost) in the period is not in its ranking.
    """
    score = totals.c[by]
    partition = and_(totals.c.ruleset == ruleset, totals.c.category == category, totals.c.period == period,
                     totals.c.period_key == key(period, now, tz), score > 0 if by == Score.WINS else score != 0)
    ranked = totals.join(accounts, accounts.c.identity == totals.c.identity)
    rows = (await conn.execute(
        select(accounts.c.name, accounts.c.avatar, score.label("score")).select_from(ranked).where(partition)
        .order_by(score.desc(), totals.c.identity).limit(size + 1).offset(page * size))).all()
    more, rows = len(rows) > size, rows[:size]
    if not rows:
        return [], False
    ahead = (await conn.execute(select(func.count()).select_from(ranked)
                                .where(partition, score > rows[0].score))).scalar_one()
    page_rows, position = [], ahead + 1
    for i, r in enumerate(rows):
        if i and r.score < rows[i - 1].score:
            position = page * size + i + 1
        page_rows.append(Row(position, r.name, r.avatar, r.score))
    return page_rows, more


async def statistics(conn: AsyncConnection, identity: str) -> list[dict[str, Any]]:
    """Matches played and won, and XP, per ruleset and category, over all time."""
    rows = (await conn.execute(
        select(totals.c.ruleset, totals.c.category, totals.c.played, totals.c.wins, totals.c.xp)
        .where(totals.c.identity == identity, totals.c.period == Period.ALL)
        .order_by(totals.c.ruleset, totals.c.category))).all()
    return [{"ruleset": r.ruleset, "category": r.category, "played": r.played, "wins": r.wins, "xp": r.xp,
             "win_rate": round(r.wins / r.played, 3) if r.played else 0.0} for r in rows]


async def chips(conn: AsyncConnection, identity: str, now: datetime, tz: ZoneInfo) -> int:
    """The chips ``identity`` has now: the opening balance before its first stake, topped up on a new day."""
    row = (await conn.execute(select(chip_balances).where(chip_balances.c.identity == identity))).first()
    return OPENING_CHIPS if row is None else balance_on(row.balance, row.changed_on, key(Period.TODAY, now, tz))


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
             "seat": m.seat, "won": m.won, "left": m.left, "end_reason": m.end_reason, "xp": m.xp, "chips": m.chips,
             "annulled": m.annulled,  # by staff (docs/disputes.md): in no total
             "ended_at": utc(m.ended_at).isoformat(), "players": people.get((m.table_id, m.match_no), [])}
            for m in mine]


async def account_by_name(conn: AsyncConnection, normalised: str) -> Any:
    """The projected account with this normalised name, or None."""
    return (await conn.execute(select(accounts).where(accounts.c.name_normalised == normalised))).first()
