"""The SQL projections: the same contract on every database (SQLite always, PostgreSQL when given)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import table_pb2
from services.eventlog.sql import engine, metadata
from services.readmodels.main import reset
from services.readmodels.schema import alembic_config, migrate
from services.readmodels.tables.projection import directory, invitation_hash, invitations, results
from services.readmodels.tables.projector import Projector
from services.rules.wire import option_to_pb
from tests.service_task import project_to_end
from tests.table.harness import Platform, platform

DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("MAUMAU_TEST_DATABASE_URL") else [])


@pytest.fixture(params=DATABASES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[str, AsyncEngine]]:
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/projections.db"
    else:
        url = os.environ["MAUMAU_TEST_DATABASE_URL"]
    db = engine(url)
    await migrate(url)
    async with db.begin() as conn:  # a shared PostgreSQL may hold an earlier run's rows
        for table in reversed(metadata.sorted_tables):
            await conn.execute(table.delete())
    try:
        yield url, db
    finally:
        await db.dispose()


async def _dump(db: AsyncEngine) -> dict[str, list[Any]]:
    async with db.connect() as conn:
        return {t.name: sorted((tuple(r) for r in (await conn.execute(select(t))).all()), key=repr)
                for t in metadata.sorted_tables}


async def _project_all(p: Platform, db: AsyncEngine) -> None:
    await project_to_end(Projector(p.client.jetstream(), db), p.client.jetstream(), "TABLES")


async def _finished_match(p: Platform) -> str:
    tid = "done" + uuid.uuid4().hex[:6]
    create = table_pb2.CreateTable(ruleset="classic52", seats=3)
    create.options["scoring"].CopyFrom(option_to_pb("none"))
    await p.send(tid, "alice", create=create, name="Alice")
    await p.send(tid, "alice", fill_bots=table_pb2.FillBots())
    await p.send(tid, "alice", start=table_pb2.StartMatch())
    while (await p.table(tid)).status == "playing":
        await p.play_one(tid)
    return tid


async def test_the_directory_results_and_invitations_follow_the_stream(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:
    _, db = database
    async with platform(nats_url) as p:
        finished = await _finished_match(p)
        playing = await p.new_table(ruleset="colors108", seats=4)
        await p.play_one(playing)
        await _project_all(p, db)
        t = await p.table(playing)
        done = await p.table(finished)
    async with db.connect() as conn:
        rows = {r.table_id: r for r in (await conn.execute(select(directory))).all()}
        result = (await conn.execute(select(results))).one()
        tokens = {r.token_sha256: r.table_id for r in (await conn.execute(select(invitations))).all()}
    assert rows[playing].status == "playing" and rows[playing].on_turn == t.match.turn  # type: ignore[union-attr]
    assert rows[playing].players[0] == {"name": "Alice", "bot": False} and rows[playing].ruleset == "colors108"
    assert rows[finished].status == "over" and rows[finished].on_turn is None
    assert (result.table_id, result.winners, result.ended_by) == (finished, done.winners, "played")
    assert tokens == {invitation_hash(t.invitation): playing, invitation_hash(done.invitation): finished}


async def test_a_finished_match_keeps_its_result_when_its_table_expires(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:
    _, db = database
    async with platform(nats_url) as p:
        finished = await _finished_match(p)
        winners = (await p.table(finished)).winners
        p.clock.now += 7 * 24 * 3600
        await p.send(finished, "clock", expire=table_pb2.ExpireTable())
        await _project_all(p, db)
    async with db.connect() as conn:
        row = (await conn.execute(select(directory).where(directory.c.table_id == finished))).one()
        kept = (await conn.execute(select(results.c.winners, results.c.ended_by))).all()
    assert row.status == "ended" and [tuple(r) for r in kept] == [(winners, "played")]


async def test_an_invitation_is_stored_as_its_hash_only(nats_url: str, database: tuple[str, AsyncEngine]) -> None:
    _, db = database
    async with platform(nats_url) as p:
        tid = await p.new_table()
        await _project_all(p, db)
        token = (await p.table(tid)).invitation
    dump = repr(await _dump(db))
    async with db.connect() as conn:
        hashed = invitations.c.token_sha256 == invitation_hash(token)
        row = (await conn.execute(select(invitations).where(hashed))).one()
    assert token not in dump and row.table_id == tid


async def test_the_migration_hashes_the_invitations_already_stored(database: tuple[str, AsyncEngine]) -> None:
    url, db = database
    await asyncio.to_thread(command.downgrade, alembic_config(url), "0002")
    async with db.begin() as conn:
        await conn.execute(text("INSERT INTO invitations (token, table_id, created_at) "
                                "VALUES ('plain-token', 't1', CURRENT_TIMESTAMP)"))
    await migrate(url)
    async with db.connect() as conn:
        rows = (await conn.execute(select(invitations.c.token_sha256, invitations.c.table_id))).all()
    assert [tuple(r) for r in rows] == [(invitation_hash("plain-token"), "t1")]


async def test_dropping_the_projections_and_replaying_rebuilds_them_identically(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:
    url, db = database
    async with platform(nats_url) as p:
        await _finished_match(p)
        for _ in range(2):
            tid = await p.new_table(ruleset="candeias", seats=3)
            for i in range(5):
                await p.play_one(tid, pick=i)
        await _project_all(p, db)
        first = await _dump(db)
        await reset(db, url, p.client.jetstream())
        assert all(not rows for rows in (await _dump(db)).values())
        await _project_all(p, db)
        second = await _dump(db)
    assert first == second and len(first["table_directory"]) == 3


async def test_an_event_projected_twice_counts_once(nats_url: str, database: tuple[str, AsyncEngine]) -> None:
    _, db = database
    async with platform(nats_url) as p:
        tid = await p.new_table()
        stored = await p.store.read(tid)
        projector = Projector(p.client.jetstream(), db)
        first = [await projector.apply(s.seq, tid, s.batch) for s in stored]
        again = [await projector.apply(s.seq, tid, s.batch) for s in stored]
        fresh = Projector(p.client.jetstream(), db)  # a restarted projector, with nothing cached
        redelivered = await fresh.apply(stored[-1].seq, tid, stored[-1].batch)
    assert all(first) and not any(again) and not redelivered


async def test_the_migrations_make_the_schema_the_code_reads(database: tuple[str, AsyncEngine]) -> None:
    _, db = database
    async with db.connect() as conn:
        differences = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), metadata))
    assert differences == []


async def test_the_embedded_database_is_written_ahead_so_readers_never_wait_for_the_projector(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'p.db'}"
    db = engine(url)
    try:
        async with db.connect() as conn:
            mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar()
            synchronous = (await conn.execute(text("PRAGMA synchronous"))).scalar()
    finally:
        await db.dispose()
    assert (mode, synchronous) == ("wal", 1)  # 1: NORMAL
