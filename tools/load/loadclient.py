"""A load test's browser tab: one WebSocket that comes back the way the web client does.

When its socket closes (a gateway restarted, a network blip) the tab opens a new one after
a short backoff, subscribes again to its tables from the last sequence it saw, and sends
again, with the same ids, the commands still waiting for their acknowledgement: the table
service stores a command id once, so a re-sent move is never played twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from services.runtime.timeouts import within

ACK_SECONDS = 10.0
BACKOFF = (0.1, 0.2, 0.5, 1.0, 2.0)
BURST = 20  # frames sent at once when a socket opens; then one every 1/RATE s (the gateway allows 30/s)
RATE = 25.0


@dataclass
class Tally:
    """What went wrong, counted over every tab of a run."""

    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # error frames, by code
    acked: dict[str, set[int]] = field(default_factory=dict)  # table: the sequences acknowledged to it
    timeouts: int = 0
    reconnects: int = 0
    failed_connects: int = 0


@dataclass
class Tab:
    http: aiohttp.ClientSession
    url: str
    token: str
    tables: list[str]
    on_frame: Callable[[dict[str, Any]], None]
    tally: Tally
    # the other gateway replicas, in the order a load balancer would try them: a socket that cannot be
    # opened where the tab was (its replica stopping) is opened at the next
    spares: list[str] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)  # the last sequence of each table
    waiting: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = field(default_factory=dict)
    ws: aiohttp.ClientWebSocketResponse | None = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    stopping: bool = False

    async def run(self) -> None:
        """Keep a socket open (and read it) until ``stop``."""
        failures = 0
        while not self.stopping:
            try:
                self.ws = await self.http.ws_connect(f"{self.url.replace('http', 'ws', 1)}/ws",
                                                     headers={"Authorization": f"Bearer {self.token}"})
            except (aiohttp.ClientError, OSError, TimeoutError):
                self.tally.failed_connects += 1
                if self.spares:
                    self.spares.append(self.url)
                    self.url = self.spares.pop(0)
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1
                continue
            failures = 0
            try:
                await self._resume()
                await self._read()
            except (aiohttp.ClientError, OSError, ConnectionError):
                pass  # the socket is gone: the loop opens another
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await self.ws.close()
            if not self.stopping:
                self.tally.reconnects += 1
                await asyncio.sleep(BACKOFF[0])

    async def _resume(self) -> None:
        assert self.ws is not None
        frames = []
        for table in self.tables:
            frame: dict[str, Any] = {"type": "subscribe", "table": table}
            if table in self.seen:
                frame["since"] = self.seen[table]
            frames.append(orjson.dumps(frame).decode())
        frames += [raw for raw, _ in list(self.waiting.values())]
        for i, raw in enumerate(frames):
            if i >= BURST:
                await asyncio.sleep(1 / RATE)
            await self.ws.send_str(raw)
        self.connected.set()

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            frame = orjson.loads(msg.data)
            kind = frame.get("type")
            if kind == "ack":
                pending = self.waiting.pop(frame.get("id", ""), None)
                if pending is not None and not pending[1].done():
                    pending[1].set_result(frame)
            elif kind in ("state", "events"):
                self.seen[frame["table"]] = max(self.seen.get(frame["table"], 0), frame["seq"])
            elif kind == "error":
                self.tally.errors[str(frame.get("code", ""))] += 1
                if frame.get("code") == "too_fast":  # a command dropped unread: those waiting go again (same ids)
                    for _, waiter in list(self.waiting.values()):
                        if not waiter.done():
                            waiter.set_result({"ok": False, "code": "too_fast"})
            self.on_frame(frame)

    async def command(self, table: str, cid: str, command: dict[str, Any], deadline: float) -> dict[str, Any]:
        """The acknowledgement of one command, sent again with the same id until it comes or ``deadline`` passes."""
        raw = orjson.dumps({"type": "command", "table": table, "id": cid, "command": command}).decode()
        while True:
            waiter = asyncio.get_running_loop().create_future()
            self.waiting[cid] = (raw, waiter)
            if self.connected.is_set() and self.ws is not None:
                with contextlib.suppress(aiohttp.ClientError, OSError, ConnectionError):
                    await self.ws.send_str(raw)
            try:
                wait = max(0.01, min(ACK_SECONDS, deadline - time.perf_counter()))
                ack: dict[str, Any] = await within(asyncio.shield(waiter), wait)
            except TimeoutError:
                if wait == ACK_SECONDS:  # not merely the end of the run
                    self.tally.timeouts += 1
                if time.perf_counter() >= deadline:
                    self.waiting.pop(cid, None)
                    return {"ok": False, "code": "timeout"}
                continue
            if ack.get("ok"):
                self.tally.acked.setdefault(table, set()).update(ack.get("seqs", []))
                return ack
            code = str(ack.get("code", ""))
            if code == "too_fast" and time.perf_counter() < deadline:  # counted as an error frame; no 10 s wait
                await asyncio.sleep(1 / RATE)
                continue
            self.tally.refusals[code] += 1
            if code != "unavailable" or time.perf_counter() >= deadline:
                return ack
            await asyncio.sleep(BACKOFF[1])  # the platform said "send it again"

    async def stop(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()


async def new_session(http: aiohttp.ClientSession, url: str, name: str) -> str:
    """A guest's device token, as the web client gets one."""
    async with http.post(f"{url}/api/session", json={"name": name}) as r:
        return str((await r.json())["token"])


def rss_kib(pid: int) -> int:
    """A process's resident memory."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def until(changed: asyncio.Event, ready: Callable[[], bool], deadline: float) -> bool:
    """Wait until ``ready()`` holds or ``deadline`` passes, woken by ``changed`` (checked after each wake-up)."""
    while not ready():
        changed.clear()
        if ready():
            return True
        try:
            await within(changed.wait(), max(0.01, deadline - time.perf_counter()))
        except TimeoutError:
            return ready()
    return True
