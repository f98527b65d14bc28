"""Competitive tables (seed 002): accounts with chips only, XP and chips change hands, a leaver may be
penalised, and nothing changes hands between two seats at one address. Through the real table service
and the projector, on every database (SQLite always, PostgreSQL when given)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import table_pb2
from services.readmodels.rankings import queries
from services.readmodels.rankings.fairplay import MIN_MOVES
from services.readmodels.rankings.outcome import OPENING_CHIPS
from services.readmodels.rankings.periods import Period, zone
from services.readmodels.rankings.projection import seats_played
from services.readmodels.tables.projector import Projector
from tests.service_task import project_to_end
from tests.table.harness import Platform, platform
from tests.table.test_projections import database  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)

STAKE = 50
TZ = zone()


def _seat(address: str, chips: int = OPENING_CHIPS, account: bool = True) -> dict[str, Any]:
    return {"actor_account": account, "actor_address": address, "actor_chips": chips}


async def _code(p: Platform, tid: str, who: str, **command: Any) -> str:
    reply = await p.send(tid, who, **command)
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


async def _competitive(p: Platform, ana: str, bia: str, same_address: bool = False, moves: int = MIN_MOVES,
                       stake: int = STAKE) -> str:
    """Ana and Bia at a competitive classic52 table, the match started and ``moves`` made (enough, by
    default, for a give-up to settle it: docs/rankings.md)."""
    tid = uuid.uuid4().hex[:12]
    created = await p.send(tid, ana, create=table_pb2.CreateTable(ruleset="classic52", seats=2, stake=stake),
                           name="Ana", **_seat("addr-1"))
    await p.send(tid, bia, join=table_pb2.JoinTable(invitation=created.done.invitation), name="Bia",
                 **_seat("addr-1" if same_address else "addr-2"))
    await p.send(tid, ana, start=table_pb2.StartMatch())
    for _ in range(moves):
        await p.play_one(tid)
    return tid


async def _project(p: Platform, db: AsyncEngine) -> None:
    await project_to_end(Projector(p.client.jetstream(), db), p.client.jetstream(), "TABLES")


async def test_a_competitive_table_seats_accounts_with_chips_only(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = uuid.uuid4().hex[:12]
        guest = await _code(p, tid, "g", create=table_pb2.CreateTable(ruleset="classic52", seats=3, stake=STAKE))
        created = await p.send(tid, "ana", create=table_pb2.CreateTable(ruleset="classic52", seats=3, stake=STAKE),
                               **_seat("a1"))
        join = table_pb2.JoinTable(invitation=created.done.invitation)
        guest_joins = await _code(p, tid, "gil", join=join, **_seat("a2", account=False))
        poor_joins = await _code(p, tid, "bia", join=join, **_seat("a2", chips=STAKE - 1))
        bots = await _code(p, tid, "ana", fill_bots=table_pb2.FillBots())
        rich_joins = await _code(p, tid, "caio", join=join, **_seat("a3"))
    assert (guest, guest_joins, poor_joins, bots, rich_joins) == (
        "account_needed", "account_needed", "not_enough_chips", "no_bots", "done")


async def test_the_winner_takes_the_pot_and_the_xp(nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"
    async with platform(nats_url) as p:
        tid = await _competitive(p, ana, bia)
        started = (await p.table(tid)).match_stake
        await p.send(tid, bia, give_up=table_pb2.GiveUp())
        await _project(p, db)
        when = datetime.fromtimestamp(p.clock.now, UTC)
    async with db.connect() as conn:
        chips = [await queries.chips(conn, who, when, TZ) for who in (ana, bia)]
        xp = [(s["xp"], s["chips"]) for s in await queries.history(conn, ana)]
        bia_xp = (await queries.statistics(conn, bia))[0]["xp"]
    assert started == STAKE and chips == [OPENING_CHIPS + STAKE, OPENING_CHIPS - STAKE]
    assert xp == [(20, STAKE)] and bia_xp == -10


async def test_two_seats_at_one_address_play_for_nothing(nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"
    async with platform(nats_url) as p:
        tid = await _competitive(p, ana, bia, same_address=True)
        stake = (await p.table(tid)).match_stake
        await p.send(tid, bia, give_up=table_pb2.GiveUp())
        await _project(p, db)
        when = datetime.fromtimestamp(p.clock.now, UTC)
    async with db.connect() as conn:
        chips = [await queries.chips(conn, who, when, TZ) for who in (ana, bia)]
        stats = await queries.statistics(conn, ana)
    assert stake == 0 and chips == [OPENING_CHIPS, OPENING_CHIPS] and stats[0]["xp"] == 0 and stats[0]["wins"] == 1


async def test_the_others_may_penalise_who_gave_up(nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"
    async with platform(nats_url) as p:
        tid = await _competitive(p, ana, bia)
        await p.send(tid, bia, give_up=table_pb2.GiveUp())
        await _project(p, db)  # the match's end first, the vote later: the penalty finds the seat
        leaver_votes = await _code(p, tid, bia, penalise=table_pb2.PenaliseLeaver(penalise=True))
        vote = await _code(p, tid, ana, penalise=table_pb2.PenaliseLeaver(penalise=True))
        again = await _code(p, tid, ana, penalise=table_pb2.PenaliseLeaver(penalise=True))
        penalised = (await p.table(tid)).penalised
        await _project(p, db)
    async with db.connect() as conn:
        xp = (await conn.execute(select(seats_played.c.xp).where(seats_played.c.identity == bia))).scalar_one()
        week = (await queries.ranking(conn, "classic52", "official", Period.ALL, datetime.now(UTC), TZ,
                                      by=queries.Score.XP))[0]
    assert (leaver_votes, vote, again, penalised) == ("no_penalty", "done", "no_penalty", True)
    assert xp == -20 and week == []  # neither is an account in the projection: nobody ranks


async def test_a_poorer_account_is_topped_up_on_its_first_stake_of_a_new_day(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"
    async with platform(nats_url) as p:
        for _ in range(2):  # Bia loses twice today: 900 chips
            tid = await _competitive(p, ana, bia)
            await p.send(tid, bia, give_up=table_pb2.GiveUp())
        await _project(p, db)
        today = datetime.fromtimestamp(p.clock.now, UTC)
        async with db.connect() as conn:
            tonight = await queries.chips(conn, bia, today, TZ)
            tomorrow = await queries.chips(conn, bia, today + timedelta(days=1), TZ)
        p.clock.now += 86400
        await _competitive(p, ana, bia)  # tomorrow: back to the opening balance, then the stake
        await _project(p, db)
    async with db.connect() as conn:
        staked = await queries.chips(conn, bia, today + timedelta(days=1), TZ)
    assert (tonight, tomorrow, staked) == (OPENING_CHIPS - 2 * STAKE, OPENING_CHIPS, OPENING_CHIPS - STAKE)


async def test_a_match_played_for_a_stake_takes_no_late_joiner(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = uuid.uuid4().hex[:12]
        create = table_pb2.CreateTable(ruleset="candeias", seats=3, stake=STAKE)  # candeias seats newcomers late
        inv = (await p.send(tid, "a-ana", create=create, **_seat("a1"))).done.invitation
        await p.send(tid, "a-bia", join=table_pb2.JoinTable(invitation=inv), **_seat("a2"))
        await p.send(tid, "a-ana", start=table_pb2.StartMatch())
        while not (await p.table(tid)).match.round_over:  # type: ignore[union-attr]
            await p.play_one(tid)
        late = await p.send(tid, "a-caio", join=table_pb2.JoinTable(invitation=inv), **_seat("a3"))
    assert late.done.seat == -1  # watching: they staked nothing, so they share no pot
