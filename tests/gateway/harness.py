"""Gateways on real ports in front of a real platform (NATS, rules, table, chat), and browser-like clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import nats
from aiohttp import web

from gateway.server import allowed_origins, make_app
from services.chat.service import ChatService
from services.chat.store import ensure_stream as ensure_chat_stream
from services.readmodels.schema import migrate
from services.runtime.settings import Settings
from services.table.store import EventStore
from tests.natsserver import free_port
from tests.table.harness import Platform, platform


@dataclass
class Client:
    """A browser tab: a session token, one WebSocket, the frames it received."""

    base: str
    token: str
    name: str
    http: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None
    counter: int = 0

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "X-Player-Name": self.name}

    async def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.base + path, json=body or {}, headers=self.headers) as r:
            return r.status, await r.json()

    async def get(self, path: str) -> tuple[int, dict[str, Any]]:
        async with self.http.get(self.base + path, headers=self.headers) as r:
            return r.status, await r.json()

    async def connect(self, base: str | None = None) -> None:
        url = (base or self.base).replace("http", "ws", 1) + "/ws"
        self.ws = await self.http.ws_connect(url, headers=self.headers)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))

    async def send(self, frame: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send_str(frame if isinstance(frame, str) else json.dumps(frame))

    async def command(self, table: str, command: dict[str, Any]) -> dict[str, Any]:
        self.counter += 1
        cid = f"c{self.counter}"
        await self.send({"type": "command", "table": table, "id": cid, "command": command})
        return await self.wait(lambda f: f.get("type") == "ack" and f.get("id") == cid)

    async def wait(self, match: Any, seconds: float = 10) -> dict[str, Any]:
        for _ in range(int(seconds * 100)):
            for frame in self.frames:
                if match(frame):
                    return frame
            await asyncio.sleep(0.01)
        seen = [(f.get("type"), f.get("table"), f.get("seq")) for f in self.frames]
        raise AssertionError(f"no such frame among {seen}")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


@dataclass
class Gateways:
    platform: Platform
    urls: list[str]
    http: aiohttp.ClientSession
    cfg: Settings
    runners: list[web.AppRunner]

    @property
    def apps(self) -> list[web.Application]:
        return [r.app for r in self.runners]

    async def restart(self, replica: int = 0) -> None:
        """Stop a gateway replica (closing its sockets) and start a new one on the same port."""
        port = int(self.urls[replica].rsplit(":", 1)[1])
        await self.runners[replica].cleanup()
        self.runners[replica] = await _serve(self.cfg, port)

    async def client(self, name: str, replica: int = 0) -> Client:
        async with self.http.post(self.urls[replica] + "/api/session", json={"name": name}) as r:
            token = (await r.json())["token"]
        return Client(self.urls[replica], token, name, self.http)


async def one_window() -> None:
    """Wait, if need be, for a rate limits' minute with room for a few requests (they count per minute)."""
    into = time.time() % 60
    if into > 45:
        await asyncio.sleep(60.5 - into)


async def _serve(cfg: Settings, port: int) -> web.AppRunner:
    runner = web.AppRunner(make_app(cfg, allowed_origins(cfg.public_urls, port)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


@contextlib.asynccontextmanager
async def gateways(nats_url: str, tmp_path: Path, replicas: int = 1, table_replicas: int = 1,
                   **settings: Any) -> AsyncIterator[Gateways]:
    """``replicas`` gateways on their ports, before ``table_replicas`` table services; ``settings``
    overrides the gateways' settings."""
    db_url = f"sqlite+aiosqlite:///{tmp_path}/gw.db"
    await migrate(db_url)
    cfg = Settings(nats_url=nats_url, rules_addr="", database_url=db_url, stream_replicas=1, absence_seconds=1e9,
                   expiry_seconds=1e9, health_port=0, **settings)
    runners: list[web.AppRunner] = []
    async with platform(nats_url, replicas=table_replicas) as p:
        chat_nc = await nats.connect(nats_url)
        await ensure_chat_stream(chat_nc.jetstream())
        chat = ChatService(chat_nc.jetstream(), EventStore(chat_nc.jetstream()))
        chat_task = asyncio.create_task(chat.serve(chat_nc))
        urls = []
        try:
            for _ in range(replicas):
                port = free_port()
                runners.append(await _serve(cfg, port))
                urls.append(f"http://127.0.0.1:{port}")
            async with aiohttp.ClientSession() as http:
                yield Gateways(p, urls, http, cfg, runners)
        finally:
            for runner in runners:
                await runner.cleanup()
            chat_task.cancel()
            await asyncio.gather(chat_task, return_exceptions=True)
            await chat_nc.close()
