"""The projector while its database cannot be written: it waits, acknowledges nothing, and catches up."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import select

from services.eventlog.sql import engine
from services.readmodels.schema import migrate
from services.readmodels.tables.projection import directory
from services.readmodels.tables.projector import DURABLE, Projector
from services.table.store import STREAM
from tests.table.harness import Platform, platform


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another process's exclusive transaction: the projector can neither read nor write the file."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        con.close()


@asynccontextmanager
async def projecting(p: Platform, url: str) -> AsyncIterator[tuple[Projector, asyncio.Task[None]]]:
    db = engine(url)
    projector = Projector(p.client.jetstream(), db)
    task = asyncio.create_task(projector.run(linger=0))
    try:
        yield projector, task
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await db.dispose()


async def _until_refused(caplog: pytest.LogCaptureFixture, task: asyncio.Task[None]) -> None:
    for _ in range(300):
        if task.done() or "projections not written" in caplog.text:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the projector never tried to write")


async def test_the_projector_waits_for_its_database_and_then_catches_up(nats_url: str, tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "proj.db"
    url = f"sqlite+aiosqlite:///{path}?timeout=0.1"
    await migrate(url)
    async with platform(nats_url) as p:
        tid = await p.new_table()
        last = await p.last_seq(tid)
        async with projecting(p, url) as (projector, task):
            with locked(path):
                await _until_refused(caplog, task)
                alive_while_locked = not task.done()
            for _ in range(300):
                if task.done() or await projector.caught_up() >= last:
                    break
                await asyncio.sleep(0.1)
            async with projector.engine.connect() as conn:
                row = (await conn.execute(select(directory.c.seq).where(directory.c.table_id == tid))).one_or_none()
    assert alive_while_locked and row is not None and row.seq == last


async def test_the_projector_acknowledges_nothing_it_could_not_write(nats_url: str, tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "proj.db"
    url = f"sqlite+aiosqlite:///{path}?timeout=0.1"
    await migrate(url)
    async with platform(nats_url) as p:
        last = await p.last_seq(await p.new_table())  # the stream holds this table only
        async with projecting(p, url) as (_, task):
            with locked(path):
                await _until_refused(caplog, task)
                info = await p.client.jetstream().consumer_info(STREAM, DURABLE)
    assert info.ack_floor.stream_seq == 0 and info.num_ack_pending == last
