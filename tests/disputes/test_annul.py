"""An annulled match leaves the rankings, the XP and the chips (docs/disputes.md), on every database
(SQLite always, PostgreSQL when given): through the real table service and the projector, and the same
when the stream is projected again from nothing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import table_pb2
from services.readmodels.main import reset
from services.readmodels.rankings import queries
from services.readmodels.rankings.outcome import OPENING_CHIPS
from services.readmodels.rankings.projection import chip_moves, seats_played
from services.readmodels.tables.projection import results
from tests.rankings.test_competitive import STAKE, TZ, _competitive, _project
from tests.table.harness import Platform, platform
from tests.table.test_projections import (
    _dump,
    database,  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)
)


async def _annul(p: Platform, tid: str, match_no: int = 1) -> str:
    reply = await p.send(tid, "a-staff", annul=table_pb2.AnnulMatch(match_no=match_no, dispute_id="d1"),
                         actor_staff=True)
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


async def test_an_annulled_match_gives_back_its_wins_xp_and_chips(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    url, db = database
    ana, bia = f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"
    async with platform(nats_url) as p:
        tid = await _competitive(p, ana, bia)
        in_play = await _annul(p, tid)
        await p.send(tid, bia, give_up=table_pb2.GiveUp())
        await _project(p, db)
        kept = await _competitive(p, ana, bia)  # another match, not annulled: Ana wins it too
        await p.send(kept, bia, give_up=table_pb2.GiveUp())
        await _project(p, db)  # the match's end first, its annulment later
        annulled = await _annul(p, tid)
        penalty = await p.send(tid, ana, penalise=table_pb2.PenaliseLeaver(penalise=True))
        await _project(p, db)
        when = datetime.fromtimestamp(p.clock.now, UTC)
        async with db.connect() as conn:
            chips = [await queries.chips(conn, who, when, TZ) for who in (ana, bia)]
            stats = [(await queries.statistics(conn, who))[0] for who in (ana, bia)]
            history = {h["table_id"]: h["annulled"] for h in await queries.history(conn, ana)}
            moves = sorted((r.identity == ana, r.amount) for r in (await conn.execute(
                select(chip_moves).where(chip_moves.c.table_id == tid, chip_moves.c.kind == "annul"))).all())
            result = (await conn.execute(select(results.c.annulled).where(results.c.table_id == tid))).scalar_one()
        live = await _dump(db)
        await reset(db, url, p.client.jetstream())  # projected again from nothing: the same rows
        await _project(p, db)
        rebuilt = await _dump(db)
    assert (in_play, annulled, penalty.refusal.code) == ("match_in_play", "done", "no_penalty")
    assert chips == [OPENING_CHIPS + STAKE, OPENING_CHIPS - STAKE]  # the kept match's only
    assert (stats[0]["played"], stats[0]["wins"], stats[0]["xp"]) == (1, 1, 20)
    assert (stats[1]["played"], stats[1]["wins"], stats[1]["xp"]) == (1, 0, -10)
    assert history == {tid: True, kept: False} and result is True
    assert moves == [(False, STAKE), (True, -STAKE)]
    assert live == rebuilt


async def test_annulled_seats_stay_in_the_history_marked(nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    ana, bia = f"a-{uuid.uuid4().hex[:8]}", f"a-{uuid.uuid4().hex[:8]}"
    async with platform(nats_url) as p:
        tid = await _competitive(p, ana, bia)
        await p.send(tid, bia, give_up=table_pb2.GiveUp())
        await _annul(p, tid)
        await _project(p, db)  # the end and the annulment in one transaction
        async with db.connect() as conn:
            seats = (await conn.execute(select(seats_played.c.annulled, seats_played.c.xp)
                                        .where(seats_played.c.table_id == tid))).all()
            stats = await queries.statistics(conn, ana)
            chips = await queries.chips(conn, bia, datetime.fromtimestamp(p.clock.now, UTC), TZ)
    assert sorted(seats) == [(True, -10), (True, 20)]
    assert (stats[0]["played"], stats[0]["wins"], stats[0]["xp"], chips) == (0, 0, 0, OPENING_CHIPS)
