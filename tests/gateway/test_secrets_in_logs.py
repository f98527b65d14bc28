"""Device tokens travel in headers over HTTP, and never reach a log line."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import aiohttp
import pytest

from gateway.identity import identity_of
from tests.gateway.harness import gateways


async def test_the_http_api_refuses_a_token_in_the_url(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        async with g.http.get(g.urls[0] + f"/api/my-tables?token={ana.token}") as r:
            status, body = r.status, await r.json()
    assert status == 401 and body["error"]["code"] == "token_in_url"


async def test_a_socket_url_too_long_to_parse_leaves_its_token_out_of_the_logs(
        nats_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await g.http.ws_connect(g.urls[0] + f"/ws?token={ana.token}&name=Ana&pad={'x' * 16_000}")
        bia = await g.client("Bia")
        await bia.connect()
        await bia.send({"type": "ping"})
        await bia.wait(lambda f: f.get("type") == "pong")
        await bia.close()
        await asyncio.sleep(0.2)  # the access log line is written after the socket closed
    leaked = [r for r in caplog.records if ana.token in r.getMessage() or bia.token in r.getMessage()]
    assert refused.value.status == 400 and not leaked
    assert ana.token not in caplog.text and bia.token not in caplog.text


async def test_a_guest_socket_takes_its_token_from_a_cookie_never_the_url(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        ws_url = g.urls[0].replace("http", "ws", 1) + "/ws"
        with pytest.raises(aiohttp.WSServerHandshakeError) as in_url:
            await g.http.ws_connect(ws_url + f"?token={ana.token}")
        async with g.http.post(g.urls[0] + "/api/session/cookie", headers=ana.headers) as r:
            cookie = r.cookies["mm_guest"]
        ws = await g.http.ws_connect(ws_url + "?name=Ana", headers={"Cookie": f"mm_guest={cookie.value}"})
        await ws.send_json({"type": "hello", "v": 1})
        welcome = await ws.receive_json(timeout=5)
        await ws.close()
    assert in_url.value.status == 401 and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert welcome["type"] == "welcome" and welcome["identity"] == identity_of(ana.token) and welcome["name"] == "Ana"
