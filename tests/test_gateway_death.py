"""A gateway replica's death: its tabs resume on another replica (issue 28, item 5).

Two gateway replicas run as processes under the supervisor (``maumau up``'s, which starts a
dead one again), in front of one NATS server, the rules, table and chat services. A tab
follows a table through one replica; that replica is killed -9 (a crash, a lost node) or
stopped (SIGTERM: a rolling restart, which closes its sockets saying "going away"). The tab
does what the web client does (gateway/static/api.js, ``_retry``): it notices the close, waits
its first reconnect delay (250-500 ms, jittered) and opens a socket again, here to the other
replica (as a load balancer sends it to a replica still there), subscribes with the last
sequence it holds, and is served: the table's frames and a command answered "done". How long
each took, from the death to the table followed again, is printed (``pytest -s``;
docs/operations.md, "A clustered JetStream"); never asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from services.runtime.machine import loop_seconds
from services.runtime.supervisor import Child, http_ready, running_platform

DEATHS = (signal.SIGKILL, signal.SIGTERM, signal.SIGKILL, signal.SIGTERM)
NEEDED = ("nats", "rules", "table", "chat", "gateway", "gw2")
SETTLE_SECONDS = 30.0


def _reconnect_delay(attempt: int) -> float:
    """The web client's wait before its ``attempt``-th reconnect (api.js ``_retry``), in seconds."""
    base = min(15.0, 0.5 * 2 ** min(attempt - 1, 5))
    return base / 2 + random.random() * base / 2


class Tab:
    """A browser tab's socket: the frames it got, reconnecting as the web client does."""

    def __init__(self, http: aiohttp.ClientSession, token: str) -> None:
        self.http, self.token = http, token
        self.frames: list[dict[str, Any]] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self, base: str) -> None:
        """Open a socket to ``base``, trying again on the client's schedule while it refuses."""
        for attempt in range(1, 20):
            try:
                self.ws = await self.http.ws_connect(base.replace("http", "ws", 1) + "/ws",
                                                     headers={"Authorization": f"Bearer {self.token}"})
                break
            except (aiohttp.ClientError, OSError):
                await asyncio.sleep(_reconnect_delay(attempt + 1))
        else:
            raise AssertionError(f"no socket to {base}")
        self.reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))

    async def closed(self) -> None:
        assert self.reader is not None
        await asyncio.wait_for(asyncio.shield(self.reader), SETTLE_SECONDS)

    async def send(self, frame: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(frame))

    async def wait(self, match: Callable[[dict[str, Any]], bool], after: int = 0) -> dict[str, Any]:
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            found = next((f for f in self.frames[after:] if match(f)), None)
            if found is not None:
                return found
            await asyncio.sleep(0.005)
        raise AssertionError(f"no such frame among {[f.get('type') for f in self.frames[after:]]}")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


async def _post(http: aiohttp.ClientSession, url: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    async with http.post(url, json=body, headers={"Authorization": f"Bearer {token}"}) as r:
        answer: dict[str, Any] = await r.json()
        assert r.status < 300, answer
        return answer


async def _guest(http: aiohttp.ClientSession, base: str, name: str) -> str:
    async with http.post(base + "/api/session", json={"name": name}) as r:
        return str((await r.json())["token"])


def _seq(tab: Tab, table: str) -> int:
    return max((int(f["seq"]) for f in tab.frames if f.get("table") == table and "seq" in f), default=0)


async def test_a_tab_whose_gateway_replica_dies_resumes_on_the_other(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NATS_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    resumed: dict[str, list[float]] = {"SIGKILL": [], "SIGTERM": []}
    acks: list[dict[str, Any]] = []
    before = loop_seconds()
    async with (running_platform(tmp_path, quiet=True, only=NEEDED, gateways=2) as (addresses, children),
                aiohttp.ClientSession() as http):
        urls = [addresses["gateway_url"], addresses["gateway2_url"]]
        replicas: list[Child] = [next(c for c in children if c.name == n) for n in ("gateway", "gw2")]
        alice, bob = await _guest(http, urls[0], "Ana"), await _guest(http, urls[1], "Bia")
        created = await _post(http, urls[0] + "/api/tables", alice, {"ruleset": "classic32", "seats": 2})
        table = created["table_id"]
        await _post(http, f"{urls[1]}/api/tables/{table}/join", bob, {"invitation": created["invitation"]})
        await _post(http, f"{urls[0]}/api/tables/{table}/start", alice, {})
        tab = Tab(http, alice)
        await tab.open(urls[0])
        await tab.send({"type": "subscribe", "table": table})
        await tab.wait(lambda f: f.get("type") == "state")
        on = 0
        for n, sig in enumerate(DEATHS):
            victim = replicas[on]
            assert victim.pid is not None
            died = time.perf_counter()
            os.kill(victim.pid, sig)
            await tab.closed()  # the socket's end: what the browser's onclose hears
            await asyncio.sleep(_reconnect_delay(1))
            on = 1 - on
            after = len(tab.frames)
            await tab.open(urls[on])  # the load balancer's choice: a replica still there
            await tab.send({"type": "subscribe", "table": table, "since": _seq(tab, table)})
            await tab.wait(lambda f: f.get("type") == "chat" and f.get("table") == table, after)  # followed again
            resumed[sig.name].append(round(time.perf_counter() - died, 2))
            await tab.send({"type": "command", "table": table, "id": f"c{n}", "command": {"chat": {"text": f"oi {n}"}}})
            acks.append(await tab.wait(lambda f, n=n: f.get("type") == "ack" and f.get("id") == f"c{n}", after))
            port = int(urls[1 - on].rsplit(":", 1)[1])
            deadline = time.monotonic() + SETTLE_SECONDS
            while not await http_ready(port):  # the supervisor starts the dead one again
                assert time.monotonic() < deadline, "the dead replica was not started again"
                await asyncio.sleep(0.1)
        await tab.close()
    print(json.dumps({"resumed_s": resumed, "loop_10m_s_before": before, "loop_10m_s_after": loop_seconds(),
                      "load_average": os.getloadavg()[0]}))
    assert [a["ok"] for a in acks] == [True] * len(DEATHS), acks
    assert [f for f in tab.frames if f.get("code") == "unavailable"] == []
    assert all(len(times) == DEATHS.count(signal.Signals[kind]) for kind, times in resumed.items())
