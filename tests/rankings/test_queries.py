"""The rankings, statistics and history as read from the projection, on every database (SQLite always,
PostgreSQL when given): matches are written as the projector writes them (``record``), accounts as rows."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from services.readmodels.accounts.projection import accounts
from services.readmodels.rankings import queries
from services.readmodels.rankings.periods import Period, zone
from services.readmodels.rankings.projection import record, seat_rows
from services.table.domain import Category, Player, Status, Table
from tests.table.test_projections import database  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)

NOW = datetime(2026, 12, 10, 15, 0, tzinfo=UTC)  # a Thursday, at noon in São Paulo
TZ = zone("America/Sao_Paulo")


class World:
    """Accounts and matches under one random prefix: a shared PostgreSQL keeps other runs' rows."""

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn, self.run = conn, uuid.uuid4().hex[:8]
        self.ruleset = "classic52"

    def who(self, name: str) -> str:
        return f"{self.run}-{name}"

    async def account(self, name: str, avatar: str = "") -> None:
        await self.conn.execute(accounts.insert().values(
            account_id=self.who(name), name=self.who(name), name_normalised=self.who(name).lower(), avatar=avatar,
            identity=self.who(name), registered_at=NOW, seq=1))

    async def match(self, *seats: str, winner: str, when: datetime = NOW, category: Category = Category.OFFICIAL,
                    ruleset: str = "", end_reason: str = "", ended_by: int = -1) -> str:
        """A finished match; a seat named ``bot`` is a bot's."""
        players = [Player(f"bot:{i}", "Robô", bot=True) if s == "bot" else Player(self.who(s), s)
                   for i, s in enumerate(seats)]
        t = Table(uuid.uuid4().hex[:12], ruleset=ruleset or self.ruleset, players=players, status=Status.OVER,
                  category=category, match_no=1, winners=[seats.index(winner)], end_reason=end_reason,
                  ended_by=ended_by)
        await record(self.conn, seat_rows(t, when), TZ)
        return t.table_id

    async def ranking(self, period: Period = Period.ALL, category: Category = Category.OFFICIAL, page: int = 0,
                      size: int = 50) -> list[tuple[int, str, int]]:
        rows, _ = await queries.ranking(self.conn, self.ruleset, category, period, NOW, TZ, page, size)
        return [(r.position, r.name.removeprefix(f"{self.run}-"), r.score) for r in rows
                if r.name.startswith(self.run)]


async def test_equal_win_counts_share_a_position(database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        w.ruleset = f"r{w.run[:6]}"  # a ruleset of its own: the positions count only this test's rows
        for name in ("ana", "bia", "caio", "duda"):
            await w.account(name)
        for winner, loser in (("ana", "duda"), ("ana", "duda"), ("bia", "duda"), ("bia", "duda"), ("caio", "duda")):
            await w.match(winner, loser, winner=winner)
        ranked = await w.ranking()
    assert ranked == [(1, "ana", 2), (1, "bia", 2), (3, "caio", 1)]


async def test_a_tie_across_pages_keeps_its_position(database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        w.ruleset = f"r{w.run[:6]}"
        for name in ("ana", "bia", "caio", "duda"):
            await w.account(name)
        for winner in ("ana", "ana", "bia", "caio", "duda"):
            await w.match(winner, "ana" if winner != "ana" else "bia", winner=winner)
        second_page = await w.ranking(page=1, size=2)
    assert second_page == [(2, n, 1) for n in sorted(("bia", "caio", "duda"), key=w.who)][1:]


async def test_only_accounts_rank(database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        await w.account("ana")
        await w.match("guest", "ana", winner="guest")
        await w.match("guest", "ana", winner="ana")
        ranked = await w.ranking()
    assert ranked == [(ranked[0][0], "ana", 1)]


async def test_official_and_training_are_ranked_apart(database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        await w.account("ana")
        await w.account("bia")
        await w.match("ana", "bia", winner="ana")
        await w.match("bia", "bot", winner="bia", category=Category.TRAINING)
        official, training = await w.ranking(), await w.ranking(category=Category.TRAINING)
    assert [n for _, n, _ in official] == ["ana"] and [n for _, n, _ in training] == ["bia"]


async def test_each_period_counts_the_matches_it_holds(database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        await w.account("ana")
        await w.account("bia")
        await w.match("ana", "bia", winner="ana")  # today
        await w.match("ana", "bia", winner="ana", when=NOW - timedelta(days=1))  # Wednesday: this week
        await w.match("ana", "bia", winner="ana", when=NOW - timedelta(days=5))  # last Saturday: this month
        await w.match("ana", "bia", winner="ana", when=NOW - timedelta(days=20))  # November: this season
        await w.match("ana", "bia", winner="ana", when=NOW - timedelta(days=400))  # last year
        wins = {p: (await w.ranking(p))[0][2] for p in Period}
    assert wins == {"today": 1, "week": 2, "month": 3, "season": 4, "all": 5}


async def test_days_are_the_platforms_not_utcs(database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        await w.account("ana")
        late = datetime(2026, 12, 10, 2, 0, tzinfo=UTC)  # 23:00 the day before, in São Paulo
        await w.match("ana", "bia", winner="ana", when=late)
        today = await w.ranking(Period.TODAY)
    assert today == []


async def test_statistics_count_played_and_won_per_ruleset_and_category(
        database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        await w.match("ana", "bia", winner="ana")
        await w.match("ana", "bia", winner="bia")
        await w.match("ana", "bia", winner="bia")
        await w.match("ana", "bot", winner="ana", category=Category.TRAINING, ruleset="candeias")
        stats = await queries.statistics(conn, w.who("ana"))
    assert stats == [
        {"ruleset": "candeias", "category": "training", "played": 1, "wins": 1, "xp": 0, "win_rate": 1.0},
        {"ruleset": "classic52", "category": "official", "played": 3, "wins": 1, "xp": 0, "win_rate": 0.333}]


async def test_the_history_shows_the_last_matches_with_everyone_seated(
        database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with db.begin() as conn:
        w = World(conn)
        first = await w.match("ana", "bot", winner="ana", when=NOW - timedelta(hours=2), category=Category.TRAINING)
        last = await w.match("bia", "ana", winner="bia", end_reason="gave_up", ended_by=1)
        history = await queries.history(conn, w.who("ana"))
    assert [(h["table_id"], h["won"], h["left"], h["end_reason"]) for h in history] == [
        (last, False, True, "gave_up"), (first, True, False, "played")]
    assert history[1]["players"] == [{"seat": 0, "name": "ana", "bot": False, "won": True},
                                     {"seat": 1, "name": "Robô", "bot": True, "won": False}]
    assert history[0]["ended_at"] == NOW.isoformat()
