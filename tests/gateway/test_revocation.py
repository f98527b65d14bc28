"""A session that ends ends its open sockets too, on every replica (real NATS, the real accounts service,
two gateways): signing out, signing out everywhere, a new password and an operator's sign-out; and a socket
whose replica missed the news still acts for nobody."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import aiohttp

from gateway.revocation import CLOSE_CODE
from gateway.server import REVOCATIONS_KEY
from gateway.sessions import COOKIE
from gateway.signout import sign_out_command
from tests.gateway.harness import Gateways
from tests.gateway.test_accounts import PASSWORD, call, cookie, platform, register
from tools.bench import revocation as revocationbench

CLOSE_WAIT = 5.0  # seconds a test waits for a close it expects (the watch takes milliseconds)


async def socket(g: Gateways, session: str, replica: int) -> aiohttp.ClientWebSocketResponse:
    ws = await g.http.ws_connect(g.urls[replica].replace("http", "ws", 1) + "/ws",
                                 headers={"Cookie": f"{COOKIE}={session}"})
    await ws.send_json({"type": "hello", "v": 1})
    assert (await ws.receive_json(timeout=CLOSE_WAIT))["type"] == "welcome"
    return ws


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """The close code the server ended ``ws`` with (frames before it skipped), None if it stays open."""
    try:
        async with asyncio.timeout(CLOSE_WAIT):
            while (msg := await ws.receive()).type != aiohttp.WSMsgType.CLOSE:
                assert msg.type != aiohttp.WSMsgType.CLOSED, "dropped without a close frame"
    except TimeoutError:
        return None
    return int(msg.data)  # the code of the server's close frame (close_code is the client's own answer)


async def still_open(ws: aiohttp.ClientWebSocketResponse) -> bool:
    await ws.send_json({"type": "ping"})
    return (await ws.receive_json(timeout=CLOSE_WAIT))["type"] == "pong"


async def sign_in(g: Gateways, name: str, replica: int = 0) -> str:
    answer = await call(g, "POST", "/api/login", {"name": name, "password": PASSWORD}, replica=replica)
    assert answer[0] == 200, answer[1]
    return cookie(answer)


async def test_a_new_password_closes_the_other_sessions_socket_on_another_replica(
        nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2) as g:
        owner = await register(g, "Ana")
        thief = await sign_in(g, "Ana", replica=1)
        ws = await socket(g, thief, replica=1)
        changed = await call(g, "PATCH", "/api/me", {"old_password": PASSWORD, "password": PASSWORD + " novo"},
                             session=owner)
        code = await closed_with(ws)
    assert changed[0] == 200
    assert code == CLOSE_CODE


async def test_signing_out_closes_that_sessions_sockets_and_no_other(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2) as g:
        phone = await register(g, "Bia")
        laptop = await sign_in(g, "Bia")
        phone_ws, laptop_ws = await socket(g, phone, replica=1), await socket(g, laptop, replica=0)
        await call(g, "POST", "/api/logout", session=phone, replica=0)
        phone_code = await closed_with(phone_ws)
        laptop_open = await still_open(laptop_ws)
        await laptop_ws.close()
    assert phone_code == CLOSE_CODE
    assert laptop_open


async def test_signing_out_everywhere_closes_every_socket_of_the_account_only(
        nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2) as g:
        first = await register(g, "Caio")
        second = await sign_in(g, "Caio", replica=1)
        other = await register(g, "Duda")
        sockets = [await socket(g, first, 0), await socket(g, first, 1), await socket(g, second, 1)]
        other_ws = await socket(g, other, 0)
        await call(g, "POST", "/api/logout?everywhere=1", session=second, replica=1)
        codes = [await closed_with(ws) for ws in sockets]
        other_open = await still_open(other_ws)
        await other_ws.close()
    assert codes == [CLOSE_CODE] * 3
    assert other_open


async def test_a_replica_that_missed_the_news_still_acts_for_nobody(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2) as g:
        owner = await register(g, "Eva")
        thief = await sign_in(g, "Eva")
        created = await call(g, "POST", "/api/tables", {"ruleset": "classic32", "seats": 3}, session=owner)
        table = created[1]["table_id"]
        ws = await socket(g, thief, replica=0)
        await g.apps[0][REVOCATIONS_KEY].unsubscribe()  # this replica hears of no ended session any more
        await call(g, "PATCH", "/api/me", {"old_password": PASSWORD, "password": PASSWORD + " novo"},
                   session=owner, replica=1)
        await ws.send_json({"type": "command", "table": table, "id": "c1", "command": {"fill_bots": {}}})
        ack = await ws.receive_json(timeout=CLOSE_WAIT)
        code = await closed_with(ws)
        after = await call(g, "GET", f"/api/tables/{table}")
    assert (ack["type"], ack["ok"], ack["code"]) == ("ack", False, "session_ended")
    assert code == CLOSE_CODE
    assert [p["bot"] for p in after[1]["players"]] == [False]  # no bot was seated for the thief


async def test_an_operator_signs_an_account_out_everywhere_by_name(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2) as g:
        session = await register(g, "Fábio")
        ws = await socket(g, session, replica=1)
        out = io.StringIO()
        ended = await sign_out_command(nats_url, "FABIO", out)
        code = await closed_with(ws)
        me = await call(g, "GET", "/api/me", session=session)
        unknown = await sign_out_command(nats_url, "Ninguém", io.StringIO())
    assert (ended, out.getvalue()) == (0, "1 session of FABIO ended\n")
    assert code == CLOSE_CODE and me[0] == 401
    assert unknown == 1


async def test_the_revocation_bench_sees_every_socket_close(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2) as g:
        result = await revocationbench.drive(g.urls, 10)
    assert (result["closed"], result["not_closed"], result["replicas"]) == (10, 0, 2)
    assert result["from_request_p50_ms"] <= result["from_request_max_ms"]
