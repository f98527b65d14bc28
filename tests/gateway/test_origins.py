"""WebSocket origins come from MAUMAU_PUBLIC_URL (else this machine's port), never from the Host header."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from tests.gateway.harness import gateways


async def test_an_origin_naming_the_host_it_sent_is_refused(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        port = urlsplit(g.urls[0]).port
        rebound = {"Origin": f"http://rebound.example:{port}", "Host": f"rebound.example:{port}"}
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await g.http.ws_connect(g.urls[0] + "/ws", headers={**rebound, **ana.headers})
    assert refused.value.status == 403


async def test_the_public_url_is_the_origin_accepted(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, public_urls=("https://maumau.example/",)) as g:
        ana = await g.client("Ana")
        url = g.urls[0] + "/ws"
        ws = await g.http.ws_connect(url, headers={"Origin": "https://maumau.example", **ana.headers})
        await ws.close()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await g.http.ws_connect(url, headers={"Origin": g.urls[0], **ana.headers})
    assert refused.value.status == 403
