"""The whole platform with ``MAUMAU_STREAM_PARTITIONS=3``: bot tables in every partition play to their end,
and every reader (bots, clock, projector, gateway) follows all three streams."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import nats
from sqlalchemy import select

from services.eventlog.sql import engine, position
from services.readmodels.tables.projection import directory, partition_position
from services.runtime import subjects
from services.runtime.supervisor import running_platform
from services.table.store import stream_of
from tests.bot_tables import bot_table
from tools.load.loadclient import new_session
from tools.load.loadtest import unlimited

TABLES = 9  # nine random addresses leave a partition empty once in 3 × (2/3)⁹ ≈ 8 %: retried below


async def _status(http: aiohttp.ClientSession, url: str, table_id: str) -> dict[str, Any]:
    async with http.get(f"{url}/api/tables/{table_id}") as r:
        return dict(await r.json())


async def test_bot_tables_in_three_partitions_play_to_their_end_and_are_projected(tmp_path: Path) -> None:
    settings = {**unlimited(), "MAUMAU_STREAM_PARTITIONS": "3", "MAUMAU_BOT_THINK_SECONDS": "0.05",
                "MAUMAU_BOT_BUDGET_MS": "5"}
    async with running_platform(tmp_path / "data", quiet=True, settings=settings) as (addresses, _), \
            aiohttp.ClientSession() as http:
        url = addresses["gateway_url"]
        auth = {"Authorization": f"Bearer {await new_session(http, url, 'Vera')}"}
        ids: list[str] = []
        while len({subjects.table_partition(t) for t in ids}) < 3 or len(ids) < TABLES:
            ids.append(await bot_table(http, url, auth))
        for _ in range(1200):
            statuses = [(await _status(http, url, t))["status"] for t in ids]
            if all(s == "over" for s in statuses):
                break
            await asyncio.sleep(0.1)
        assert statuses == ["over"] * len(ids)

        nc = await nats.connect(addresses["nats_url"])
        try:
            js = nc.jetstream()
            last = {k: (await js.stream_info(stream_of(k))).state.last_seq for k in range(3)}
            clock = await js.key_value("CLOCK")
            clocked = set(await clock.keys())
        finally:
            await nc.close()
        db = engine(addresses["database_url"])
        try:
            for _ in range(200):
                async with db.connect() as conn:
                    reached = {k: await position(conn, partition_position(k)) for k in range(3)}
                    over = set((await conn.execute(select(directory.c.table_id)
                                                   .where(directory.c.status == "over"))).scalars())
                if reached == last and over >= set(ids):
                    break
                await asyncio.sleep(0.1)
        finally:
            await db.dispose()
    assert all(last[k] > 0 for k in range(3))  # every partition's stream holds tables
    assert reached == last  # the projector read each partition to its end
    assert over >= set(ids)
    assert set(ids) <= clocked  # the clock followed the tables of every partition
