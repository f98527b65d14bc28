"""Fair play (docs/rankings.md): a give-up before a few moves settles a competitive match for nothing, a
pair of accounts earns from each other a bounded amount a day, and such matches are marked for the staff.
Through the real table service and the projector, on every database (SQLite always, PostgreSQL when given)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import table_pb2
from services.readmodels.main import reset
from services.readmodels.rankings import fairplay, queries
from services.readmodels.rankings.outcome import OPENING_CHIPS
from tests.rankings.test_competitive import TZ, _competitive, _project
from tests.table.harness import Platform, platform
from tests.table.test_projections import (
    _dump,
    database,  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)
)

STAKE = 100


def _accounts() -> tuple[str, str]:
    return f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"


async def _given_up(p: Platform, winner: str, loser: str, times: int, moves: int = fairplay.MIN_MOVES) -> None:
    """``loser`` gives ``winner`` a match ``times`` times, each after ``moves`` moves."""
    for _ in range(times):
        tid = await _competitive(p, winner, loser, moves=moves, stake=STAKE)
        await p.send(tid, loser, give_up=table_pb2.GiveUp())


async def _chips_and_xp(p: Platform, db: AsyncEngine, *who: str) -> list[tuple[int, int]]:
    when = datetime.fromtimestamp(p.clock.now, UTC)
    async with db.connect() as conn:
        return [(await queries.chips(conn, w, when, TZ), sum(s["xp"] for s in await queries.statistics(conn, w)))
                for w in who]


async def test_a_match_given_up_before_a_few_moves_settles_for_nothing(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = _accounts()
    async with platform(nats_url) as p:
        await _given_up(p, ana, bia, times=3, moves=fairplay.MIN_MOVES - 1)
        await _project(p, db)
        balances = await _chips_and_xp(p, db, ana, bia)
    assert balances == [(OPENING_CHIPS, 0), (OPENING_CHIPS, 0)]


async def _wins(db: AsyncEngine, who: str) -> tuple[int, int]:
    """Matches played and won, as the profile's statistics and the wins ranking count them."""
    async with db.connect() as conn:
        stats = await queries.statistics(conn, who)
    return sum(s["played"] for s in stats), sum(s["wins"] for s in stats)


async def test_a_match_settled_for_nothing_is_played_but_not_won_in_the_rankings(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = _accounts()
    async with platform(nats_url) as p:
        await _given_up(p, ana, bia, times=2, moves=fairplay.MIN_MOVES - 1)  # no contest: not won
        await _given_up(p, ana, bia, times=5)  # the last two past the pair's bound: not won either
        await _project(p, db)
        counted = await _wins(db, ana), await _wins(db, bia)
    assert counted == ((7, 3), (7, 0))


async def test_a_pair_earns_from_each_other_a_bounded_amount_a_day(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = _accounts()
    async with platform(nats_url) as p:
        await _given_up(p, ana, bia, times=5)  # 20 XP a match: the third reaches the day's bound
        await _project(p, db)
        balances = await _chips_and_xp(p, db, ana, bia)
    assert balances == [(OPENING_CHIPS + 3 * STAKE, fairplay.PAIR_XP_PER_DAY), (OPENING_CHIPS - 3 * STAKE, -30)]


async def test_the_other_way_round_a_pair_still_plays_for_the_stake(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = _accounts()
    async with platform(nats_url) as p:
        await _given_up(p, ana, bia, times=4)  # Ana has earned from Bia all she may today
        await _given_up(p, bia, ana, times=1)
        await _project(p, db)
        balances = await _chips_and_xp(p, db, ana, bia)
    assert balances == [(OPENING_CHIPS + 2 * STAKE, 50), (OPENING_CHIPS - 2 * STAKE, -10)]


async def _farmed(p: Platform, db: AsyncEngine) -> None:
    """Bia gives Ana a match at once, then four after a few moves each, and the projector writes it all."""
    ana, bia = _accounts()
    await _given_up(p, ana, bia, times=1, moves=0)
    await _given_up(p, ana, bia, times=4)
    await _project(p, db)


async def test_the_matches_settled_for_nothing_are_marked_for_the_staff(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with platform(nats_url) as p:
        await _farmed(p, db)
    async with db.connect() as conn:
        marks = await fairplay.latest(conn)
    assert sorted((m["reason"], m["players"]) for m in marks) == [
        ("pair_bound", ["Ana", "Bia"]), ("short_give_up", ["Ana", "Bia"])]


async def test_fair_play_is_rebuilt_identically_from_the_stream(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    url, db = database
    async with platform(nats_url) as p:
        await _farmed(p, db)
        first = await _dump(db)
        await reset(db, url, p.client.jetstream())
        await _project(p, db)
        second = await _dump(db)
    assert first == second and len(first["fair_play_marks"]) == 2
