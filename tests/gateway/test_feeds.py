"""What a gateway spends following tables: nothing for unknown ones, bounded per socket and per player,
and a failure of one table's feed stays that table's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from gateway.server import FEEDS_KEY
from services.runtime.settings import SocketLimits
from tests.gateway.harness import Client, Gateways, gateways
from tests.natsserver import JetStreamServer


async def _created(creator: Client) -> dict[str, str]:
    status, created = await creator.post("/api/tables", {"ruleset": "classic32", "seats": 2})
    assert status == 201, created
    return created


async def _table(g: Gateways, creator: Client) -> str:
    return (await _created(creator))["table_id"]


def _errors(c: Client) -> dict[str, str]:
    return {f["table"]: f["code"] for f in c.frames if f.get("type") == "error"}


async def test_unknown_tables_are_refused_without_following_anything(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        eve = await g.client("Eva")
        await eve.connect()
        nc = g.apps[0][FEEDS_KEY].nc
        before = len(nc._subs)
        for n in range(20):
            await eve.send({"type": "subscribe", "table": f"nothing{n}"})
        await eve.wait(lambda f: f.get("table") == "nothing19")
        held = len(nc._subs), dict(g.apps[0][FEEDS_KEY].feeds), len(g.apps[0][FEEDS_KEY].opening)
        await eve.close()
    assert _errors(eve) == {f"nothing{n}": "unknown_table" for n in range(20)}
    assert held == (before, {}, 0)


async def test_a_gateway_forgets_the_tables_nobody_follows_any_more(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        tables = [await _table(g, ana) for _ in range(5)]
        await ana.connect()
        for tid in tables:
            await ana.send({"type": "subscribe", "table": tid})
            await ana.wait(lambda f, t=tid: f.get("type") == "state" and f["table_info"]["table_id"] == t)
        feeds = g.apps[0][FEEDS_KEY]
        following = len(feeds.feeds)
        await ana.close()
        for _ in range(100):
            if not feeds.feeds:
                break
            await asyncio.sleep(0.02)
        left = len(feeds.feeds), len(feeds.opening)
    assert following == 5 and left == (0, 0)


async def test_a_socket_follows_at_most_its_limit_of_tables_and_keeps_the_others(nats_url: str,
                                                                                 tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, socket_limits=SocketLimits(tables=2)) as g:
        ana = await g.client("Ana")
        first, second, third = [await _table(g, ana) for _ in range(3)]
        await ana.connect()
        for tid in (first, second, third):
            await ana.send({"type": "subscribe", "table": tid})
        refused = await ana.wait(lambda f: f.get("type") == "error")
        await ana.send({"type": "unsubscribe", "table": first})
        await ana.send({"type": "subscribe", "table": third})
        state = await ana.wait(lambda f: f.get("type") == "state" and f["table_info"]["table_id"] == third)
        await ana.close()
    assert (refused["table"], refused["code"]) == (third, "too_many_tables")
    assert state["table_info"]["my_seat"] == 0


async def test_a_player_opens_at_most_its_limit_of_sockets(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, socket_limits=SocketLimits(per_identity=2)) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        tabs = [Client(ana.base, ana.token, "Ana", ana.http) for _ in range(2)]
        for tab in tabs:
            await tab.connect()
        with pytest.raises(aiohttp.WSServerHandshakeError) as third:
            await Client(ana.base, ana.token, "Ana", ana.http).connect()
        await bia.connect()  # another player is not counted against Ana
        await tabs[0].close()
        again = Client(ana.base, ana.token, "Ana", ana.http)
        await again.connect()  # a closed tab frees its place
        for c in (tabs[1], bia, again):
            await c.close()
    assert third.value.status == 429


async def test_one_address_opens_at_most_its_limit_of_sockets(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, socket_limits=SocketLimits(per_address=3)) as g:
        players = [await g.client(f"P{n}") for n in range(4)]
        for p in players[:3]:
            await p.connect()
        with pytest.raises(aiohttp.WSServerHandshakeError) as fourth:
            await players[3].connect()
        for p in players[:3]:
            await p.close()
    assert fourth.value.status == 429


async def test_a_table_that_cannot_be_followed_is_an_error_for_it_alone_and_nats_coming_back_heals_all(
        nats_server: JetStreamServer, tmp_path: Path) -> None:
    async with gateways(nats_server.url, tmp_path) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        created = await _created(ana)
        followed, other = created["table_id"], await _table(g, bia)
        await ana.connect()
        await ana.send({"type": "subscribe", "table": followed})
        await ana.wait(lambda f: f.get("type") == "state")
        await asyncio.to_thread(nats_server.stop)
        await ana.send({"type": "subscribe", "table": other})
        failed = await ana.wait(lambda f: f.get("type") == "error", seconds=20)
        await asyncio.to_thread(nats_server.start)
        for _ in range(200):
            reply = await bia.post(f"/api/tables/{followed}/join", {"invitation": created["invitation"]})
            if reply[0] != 503:
                break
            await asyncio.sleep(0.1)
        # a move made while the gateway may not have resubscribed yet reaches Ana all the same
        joined = await ana.wait(lambda f: f.get("type") == "events" and f["table"] == followed, seconds=20)
        await ana.send({"type": "subscribe", "table": other})
        state = await ana.wait(lambda f: f.get("type") == "state" and f["table_info"]["table_id"] == other)
        assert ana.ws is not None and not ana.ws.closed
        await ana.close()
    assert (failed["table"], failed["code"]) == (other, "unavailable")
    assert reply[0] == 200 and joined["table_info"]["players"][1]["name"] == "Bia"
    assert state["table_info"]["table_id"] == other
