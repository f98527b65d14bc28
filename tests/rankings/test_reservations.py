"""The same chips are not staked twice (docs/rankings.md): a seat in a competitive lobby holds its stake
until the match starts, the seat is left or the table ends, and the gateway's vouch counts what the
account's other seats hold, once the projection has caught up. Through the real table service, the
projector running and ``gateway/stakes.py``; and, over random joins, leaves, starts, moves, give-ups
and expiries, no balance is ever below zero."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.stakes import caught_up, vouch
from maumau.v1 import table_pb2
from services.eventlog.sql import engine
from services.readmodels.rankings import queries
from services.readmodels.rankings.projection import chip_balances
from services.readmodels.schema import migrate
from services.readmodels.tables.projector import Projector
from services.rules.wire import option_to_pb
from services.runtime.settings import EXPIRY_SECONDS
from services.runtime.timeouts import stop
from tests.rankings.test_competitive import TZ
from tests.table.harness import Platform, platform
from tests.table.test_projections import database  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)

HOUSE = "g-house"  # creates the tables and watches them: every seat is taken by a join
DEPLOYED_LINGER = 0.25  # the projector's wait for a fuller batch, as deployed (Projector.run)
SHORT_LINGER = 0.01  # in the property, which waits for the projection at every step


@dataclass
class Tables:
    """Competitive tables of two seats, created by the house, while the projector runs."""

    p: Platform
    db: AsyncEngine
    ids: list[str] = field(default_factory=list)
    stakes: dict[str, int] = field(default_factory=dict)

    async def new(self, stake: int, one_round: bool = False) -> str:
        tid = uuid.uuid4().hex[:12]
        create = table_pb2.CreateTable(ruleset="classic52", seats=2, stake=stake, watch=True, salt="salt")
        if one_round:
            create.options["scoring"].CopyFrom(option_to_pb("none"))
        await self.p.send(tid, HOUSE, create=create)
        self.ids.append(tid)
        self.stakes[tid] = stake
        return tid

    async def seat(self, tid: str, who: str, **command: Any) -> str:
        """``who`` (an account) sends a seating command, vouched for by the gateway's code."""
        cmd = table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id=tid, actor=who, actor_name=who, **command)
        await vouch(cmd, True, f"addr-{who}", "salt", self.stakes[tid], self.db, TZ, self.p.client.jetstream())
        return _code(await self.p.send(tid, who, **_fields(cmd)))

    async def join(self, tid: str, who: str) -> str:
        return await self.seat(tid, who, join=table_pb2.JoinTable(invitation=(await self.p.table(tid)).invitation))

    async def chips(self, who: str) -> int:
        await caught_up(self.p.client.jetstream(), self.db)
        async with self.db.connect() as conn:
            return await queries.chips(conn, who, datetime.fromtimestamp(self.p.clock.now, UTC), TZ)

    async def lowest_balance(self) -> int:
        """The lowest balance the projection holds, once it has caught up."""
        await caught_up(self.p.client.jetstream(), self.db)
        async with self.db.connect() as conn:
            return int((await conn.execute(select(func.min(chip_balances.c.balance)))).scalar() or 0)


@contextlib.asynccontextmanager
async def _tables(nats_url: str, db: AsyncEngine, linger: float = DEPLOYED_LINGER) -> AsyncIterator[Tables]:
    async with platform(nats_url) as p:
        task = asyncio.create_task(Projector(p.client.jetstream(), db).run(linger=linger))
        try:
            yield Tables(p, db)
        finally:
            await stop(task)


def _fields(cmd: table_pb2.TableCommand) -> dict[str, Any]:
    kind = cmd.WhichOneof("command")
    assert kind is not None
    return {"name": cmd.actor_name, "actor_account": cmd.actor_account, "actor_address": cmd.actor_address,
            "actor_chips": cmd.actor_chips, "actor_reserved": cmd.actor_reserved, kind: getattr(cmd, kind)}


def _code(reply: table_pb2.CommandReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


def _account() -> str:
    return f"a-{uuid.uuid4().hex[:8]}"


async def _join_two_lobbies(nats_url: str, db: AsyncEngine, projected_between: bool) -> tuple[str, str]:
    """Ana joins two lobbies of 1,000 chips one after the other (the second, once the first is projected,
    or at once): how each join went."""
    ana = _account()
    async with _tables(nats_url, db) as tables:
        first, second = await tables.new(1000), await tables.new(1000)
        joined = await tables.join(first, ana)
        if projected_between:
            await caught_up(tables.p.client.jetstream(), db)
        return joined, await tables.join(second, ana)


async def test_a_seat_in_a_competitive_lobby_holds_its_stake(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    assert await _join_two_lobbies(nats_url, db, projected_between=True) == ("done", "chips_reserved")


async def test_a_seat_taken_a_moment_before_is_counted(nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    assert await _join_two_lobbies(nats_url, db, projected_between=False) == ("done", "chips_reserved")


async def test_leaving_the_lobby_gives_its_chips_back_to_sit_elsewhere(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana = _account()
    async with _tables(nats_url, db) as tables:
        first, second = await tables.new(1000), await tables.new(1000)
        await tables.join(first, ana)
        await tables.p.send(first, ana, leave=table_pb2.LeaveTable())
        elsewhere = await tables.join(second, ana)
    assert elsewhere == "done"


async def test_a_rematch_is_refused_when_the_stake_is_held_elsewhere(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = _account(), _account()
    async with _tables(nats_url, db) as tables:
        played = await tables.new(500, one_round=True)
        for who in (ana, bia):
            await tables.join(played, who)
        await tables.p.send(played, HOUSE, start=table_pb2.StartMatch())
        while (await tables.p.table(played)).status == "playing":
            await tables.p.play_one(played)
        other = await tables.new(await tables.chips(ana))
        await tables.join(other, ana)  # all of Ana's chips are held there now
        rematch = await tables.seat(played, ana, rematch=table_pb2.VoteRematch(accept=True))
    assert rematch == "chips_reserved"


STEPS = st.lists(st.one_of(
    st.tuples(st.just("join"), st.integers(0, 2), st.integers(0, 2)),
    st.tuples(st.just("leave"), st.integers(0, 2), st.integers(0, 2)),
    st.tuples(st.just("start"), st.just(0), st.integers(0, 2)),
    st.tuples(st.just("move"), st.just(0), st.integers(0, 2)),
    st.tuples(st.just("give_up"), st.integers(0, 2), st.integers(0, 2)),
    st.tuples(st.just("expire"), st.just(0), st.integers(0, 2)),
), min_size=1, max_size=16)
TWO_LOBBIES = [("join", 0, 0), ("join", 1, 0), ("join", 0, 1), ("join", 2, 1), ("start", 0, 0), ("start", 0, 1)]


async def _step(tables: Tables, people: list[str], kind: str, who: int, table: int) -> None:
    tid, actor = tables.ids[table], people[who]
    if kind == "join":
        await tables.join(tid, actor)
    elif kind == "start":
        await tables.p.send(tid, HOUSE, start=table_pb2.StartMatch())
    elif kind == "expire":
        tables.p.clock.now += EXPIRY_SECONDS  # a week later: the next stakes are topped up first
        await tables.p.send(tid, HOUSE, expire=table_pb2.ExpireTable())
    elif kind == "move" and (await tables.p.table(tid)).status == "playing":
        await tables.p.play_one(tid)
    else:
        commands = {"leave": {"leave": table_pb2.LeaveTable()}, "give_up": {"give_up": table_pb2.GiveUp()}}
        await tables.p.send(tid, actor, **commands.get(kind, {}))


async def _lowest_balances(nats_url: str, url: str, stakes: list[int], steps: list[tuple[str, int, int]]) -> list[int]:
    await migrate(url)
    db = engine(url)
    try:
        async with _tables(nats_url, db, linger=SHORT_LINGER) as tables:
            for stake in stakes:
                await tables.new(stake)
            people = [_account() for _ in range(3)]
            lowest = []
            for step in steps:
                await _step(tables, people, *step)
                lowest.append(await tables.lowest_balance())
            return lowest
    finally:
        await db.dispose()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stakes=st.lists(st.sampled_from([300, 500, 1000]), min_size=3, max_size=3), steps=STEPS)
@example(stakes=[1000, 1000, 1000], steps=TWO_LOBBIES)  # issue 25's probe: two lobbies, then both start
def test_no_balance_is_ever_below_zero(nats_url: str, tmp_path: Path, stakes: list[int],
                                       steps: list[tuple[str, int, int]]) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/{uuid.uuid4().hex}.db"
    lowest = asyncio.run(_lowest_balances(nats_url, url, stakes, steps))
    assert min(lowest) >= 0
