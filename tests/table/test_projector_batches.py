"""The projector reads the tables' stream in batches of its own pulls (services/eventlog/consuming.py):
every stored batch is projected and acknowledged once, whether it was there before (a backlog many
batches long) or came while the projector waited for it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from nats.js import JetStreamContext
from nats.js.errors import NotFoundError
from sqlalchemy import select

from services.eventlog.sql import engine
from services.readmodels.schema import migrate
from services.readmodels.tables.projection import directory
from services.readmodels.tables.projector import DURABLE, Projector
from services.table.store import STREAM
from tests.table.harness import Platform, platform


async def _settled(js: JetStreamContext, projector: Projector, last: int) -> None:
    """Until the projection reached ``last`` and the consumer holds nothing unacknowledged."""
    for _ in range(400):
        try:
            info = await js.consumer_info(STREAM, DURABLE)
        except NotFoundError:  # not made yet
            await asyncio.sleep(0.05)
            continue
        if await projector.caught_up() >= last and info.num_ack_pending == 0 and info.ack_floor.stream_seq >= last:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the projector did not catch up")


async def _moves(p: Platform, table_id: str, n: int) -> None:
    for k in range(n):
        await p.play_one(table_id, k)


async def test_a_backlog_and_what_comes_later_are_each_projected_and_acknowledged_once(nats_url: str,
                                                                                       tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/proj.db"
    await migrate(url)
    db = engine(url)
    async with platform(nats_url) as p:
        js = p.client.jetstream()
        tables = [await p.new_table(bots=False, humans=("bob",), seats=2) for _ in range(3)]
        for table_id in tables:
            await _moves(p, table_id, 4)  # a backlog of many batches of 5 (the projector's size here)
        projector = Projector(js, db)
        task = asyncio.create_task(projector.run(batch=5, linger=0))
        try:
            await _settled(js, projector, (await js.stream_info(STREAM)).state.last_seq)
            for table_id in tables:  # while it waits for more
                await _moves(p, table_id, 3)
            last = (await js.stream_info(STREAM)).state.last_seq
            await _settled(js, projector, last)
            info = await js.consumer_info(STREAM, DURABLE)
            seqs = {table_id: (await p.table(table_id)).seq for table_id in tables}
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    async with db.connect() as conn:
        rows = {r.table_id: r.seq for r in (await conn.execute(select(directory))).all()}
    await db.dispose()
    assert info.delivered.stream_seq == last and info.num_redelivered == 0 and info.num_pending == 0
    assert rows == seqs
