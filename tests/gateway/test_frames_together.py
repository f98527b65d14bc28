"""Frames queued together leave together (one write), each whole and in order, compressed or not."""

from __future__ import annotations

import aiohttp
from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestServer

from gateway.ws import SMALL_COMPRESSED, _send_together

TEXTS = ["a", "é" * 40, "x" * 125, "y" * 126, "z" * 65_535, "w" * 65_536, '{"type":"ack"}',
         "v" * (SMALL_COMPRESSED + 1), "ü" * 3_000]


async def _received(compress: int, batches: list[list[str]]) -> list[str]:
    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        for texts in batches:
            await _send_together(ws, texts)
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/", handler)
    async with (TestServer(app) as server, aiohttp.ClientSession() as http,
                http.ws_connect(server.make_url("/"), compress=compress) as ws):
        return [msg.data async for msg in ws if msg.type == WSMsgType.TEXT]


async def test_frames_sent_together_arrive_whole_and_in_order() -> None:
    small = [t for t in TEXTS if len(t) <= SMALL_COMPRESSED]
    batches = [TEXTS, small, ["alone"], small[::-1]]
    sent = [t for texts in batches for t in texts]
    assert await _received(0, batches) == sent
    assert await _received(15, batches) == sent  # permessage-deflate, as browsers ask for it
