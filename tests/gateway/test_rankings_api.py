"""Rankings and profiles through the gateway: two accounts finish an official match at a real table
service, the projector writes it, and the ranking and both profiles show it."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

from maumau.v1 import table_pb2
from services.accounts.store import STREAM as ACCOUNTS
from services.eventlog.sql import engine
from services.readmodels.accounts.projector import AccountsProjector
from services.readmodels.tables.projector import Projector
from services.table.store import STREAM as TABLES
from tests.gateway.harness import Gateways
from tests.gateway.test_accounts import call, platform, register
from tests.service_task import project_to_end


async def _project(g: Gateways, tmp_path: Path) -> None:
    db = engine(f"sqlite+aiosqlite:///{tmp_path}/gw.db")
    js = g.platform.client.jetstream()
    try:
        await project_to_end(Projector(js, db), js, TABLES)
        await project_to_end(AccountsProjector(js, db), js, ACCOUNTS)
    finally:
        await db.dispose()


@contextlib.asynccontextmanager
async def _finished(nats_url: str, tmp_path: Path) -> AsyncIterator[Gateways]:
    """Ana and Bia finish an official match of classic52: Bia gives up, Ana wins."""
    async with platform(nats_url, tmp_path) as g:
        ana = (await call(g, "GET", "/api/me", session=await register(g, "Ana")))[1]["identity"]
        bia = (await call(g, "GET", "/api/me", session=await register(g, "Bia")))[1]["identity"]
        p = g.platform
        p.clock.now = time.time()  # the match ends today, as the gateway's clock has it
        created = await p.send("rk1", ana, create=table_pb2.CreateTable(ruleset="classic52", seats=2), name="Ana")
        await p.send("rk1", bia, join=table_pb2.JoinTable(invitation=created.done.invitation), name="Bia")
        await p.send("rk1", ana, start=table_pb2.StartMatch())
        await p.send("rk1", bia, give_up=table_pb2.GiveUp())
        await _project(g, tmp_path)
        yield g


async def test_the_winner_of_an_official_match_ranks_today(nats_url: str, tmp_path: Path) -> None:
    async with _finished(nats_url, tmp_path) as g:
        status, body, _ = await call(g, "GET", "/api/rankings?ruleset=classic52&category=official&period=today")
        _, training, _ = await call(g, "GET", "/api/rankings?ruleset=classic52&category=training&period=today")
    assert status == 200 and body["rows"] == [{"position": 1, "name": "Ana", "avatar": "", "wins": 1}]
    assert body["more"] is False and training["rows"] == []


async def test_a_profile_shows_statistics_and_the_last_match(nats_url: str, tmp_path: Path) -> None:
    async with _finished(nats_url, tmp_path) as g:
        status, bia, _ = await call(g, "GET", "/api/players/BIA")
    assert status == 200 and bia["name"] == "Bia"
    assert bia["statistics"] == [{"ruleset": "classic52", "category": "official", "played": 1, "wins": 0, "xp": 0,
                                  "win_rate": 0.0}]
    (match,) = bia["history"]
    assert (match["table_id"], match["won"], match["left"], match["end_reason"]) == ("rk1", False, True, "gave_up")
    assert [(s["name"], s["won"]) for s in match["players"]] == [("Ana", True), ("Bia", False)]


async def test_an_unknown_player_is_not_found(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        status, body, _ = await call(g, "GET", "/api/players/Ninguém")
    assert status == 404 and body["error"]["code"] == "unknown_player"


async def test_one_finds_ones_own_profile_before_the_projection_has_the_account(nats_url: str,
                                                                                tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:  # no projector runs: the new account is in its stream only
        session = await register(g, "Cauã")
        own = await call(g, "GET", "/api/players/caua", session=session)
        others = await call(g, "GET", "/api/players/caua", session=await register(g, "Dora"))
        anonymous = await call(g, "GET", "/api/players/caua")
    assert own[0] == 200 and own[1]["name"] == "Cauã" and own[1]["statistics"] == [] and own[1]["history"] == []
    assert own[1]["chips"] == 1000 and own[1]["since"].startswith("20")
    assert (others[0], anonymous[0]) == (404, 404)  # for anyone else it exists once projected


async def test_a_bad_filter_is_refused_clearly(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        period = await call(g, "GET", "/api/rankings?period=decade")
        ruleset = await call(g, "GET", "/api/rankings?ruleset=poker")
        page = await call(g, "GET", "/api/rankings?page=-1")
    assert [a[0] for a in (period, ruleset, page)] == [400, 400, 400]
    assert "today" in period[1]["error"]["message"] and "classic52" in ruleset[1]["error"]["message"]
