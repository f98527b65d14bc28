"""A gateway says it is ready only while NATS answers it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.gateway.harness import gateways
from tests.natsserver import JetStreamServer


async def test_the_gateway_is_not_ready_while_nats_is_frozen(nats_server: JetStreamServer, tmp_path: Path) -> None:
    async with gateways(nats_server.url, tmp_path) as g:

        async def ready() -> int:
            async with g.http.get(g.urls[0] + "/readyz") as r:
                return r.status

        before = await ready()
        await asyncio.to_thread(nats_server.freeze)
        try:
            frozen = await ready()
        finally:
            await asyncio.to_thread(nats_server.thaw)
        for _ in range(50):
            if (after := await ready()) == 200:
                break
            await asyncio.sleep(0.1)
    assert (before, frozen, after) == (200, 503, 200)
