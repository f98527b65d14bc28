"""Seats at competitive tables through the gateway (real NATS, the accounts and table services, the
projector running): the chips a lobby's seat holds are not staked at a second table (docs/rankings.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from services.eventlog.sql import engine
from services.readmodels.tables.projector import Projector
from services.runtime.timeouts import stop
from tests.gateway.test_accounts import call, platform, register

COMPETITIVE = {"ruleset": "classic52", "seats": 2, "stake": 1000}


async def test_a_second_competitive_table_is_refused_while_the_first_lobby_holds_the_chips(
        nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        db = engine(f"sqlite+aiosqlite:///{tmp_path}/gw.db")
        projecting = asyncio.create_task(Projector(g.platform.client.jetstream(), db).run())
        try:
            ana = await register(g, "Ana")
            first, _, _ = await call(g, "POST", "/api/tables", COMPETITIVE, session=ana)
            second, refused, _ = await call(g, "POST", "/api/tables", COMPETITIVE, session=ana)
        finally:
            await stop(projecting)
            await db.dispose()
    assert (first, second, refused["error"]["code"]) == (201, 409, "chips_reserved")
