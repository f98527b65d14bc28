"""``maumau loadtest``: real WebSocket clients playing real tables through the whole platform.

Each client is a browser tab with its own session: it opens a WebSocket, subscribes to its
table and plays its own seat with random legal moves (from the view the gateway sends it).
A move's latency runs from the command sent to its event received by every client at the
table. The tables play ``warmup`` seconds before the measured ``seconds`` begin: the moves
of the warm-up are played at the same rate but not counted, for they measure the platform
settling after the set-up (every service still folding the tables just created and
joined). Then ``idle_sockets`` more sockets are opened on the gateway and its memory is
read before and after (when the gateway runs here: without ``--url``).
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from services.up import running_platform


@dataclass(frozen=True)
class Plan:
    """What to run (the defaults are the command's: ``maumau loadtest --help``)."""

    clients: int
    tables: int
    seconds: float
    warmup: float
    rate: float  # moves/s the tables offer together; 0: each table moves as soon as it can
    idle_sockets: int
    seed: int


@dataclass
class Seat:
    token: str
    table: str
    ws: aiohttp.ClientWebSocketResponse | None = None
    view: dict[str, Any] | None = None
    status: str = ""
    arrivals: dict[int, float] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _raise_file_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Progress:
    def __init__(self, started: float, seconds: float):
        self.seconds = seconds
        self.started = started
        self.moves = 0

    def show(self) -> None:
        done = max(0.0, min(1.0, (time.perf_counter() - self.started) / self.seconds))
        bar = "#" * int(done * 30)
        sys.stderr.write(f"\r[{bar:<30}] {done * 100:3.0f}%  {self.moves} moves")
        sys.stderr.flush()


async def _session(http: aiohttp.ClientSession, url: str, name: str) -> str:
    async with http.post(f"{url}/api/session", json={"name": name}) as r:
        return str((await r.json())["token"])


async def _table(http: aiohttp.ClientSession, url: str, players: int, k: int) -> list[Seat]:
    host = await _session(http, url, f"Host{k}")
    headers = {"Authorization": f"Bearer {host}", "X-Player-Name": f"Host{k}"}
    async with http.post(f"{url}/api/tables", json={"ruleset": "classic52", "seats": players}, headers=headers) as r:
        created = await r.json()
    changed = asyncio.Event()
    seats = [Seat(host, created["table_id"], changed=changed)]
    for i in range(1, players):
        token = await _session(http, url, f"P{k}x{i}")
        async with http.post(f"{url}/api/tables/{created['table_id']}/join", json={"invitation": created["invitation"]},
                             headers={"Authorization": f"Bearer {token}"}):
            pass
        seats.append(Seat(token, created["table_id"], changed=changed))
    async with http.post(f"{url}/api/tables/{created['table_id']}/start", headers=headers):
        pass
    return seats


async def _until(seats: list[Seat], ready: Callable[[], bool], deadline: float) -> bool:
    """Wait until ``ready()`` holds, woken by any frame for the table (checked after each wake-up)."""
    changed = seats[0].changed  # one event for the whole table
    while not ready():
        changed.clear()
        if ready():
            return True
        try:
            await asyncio.wait_for(changed.wait(), max(0.01, deadline - time.perf_counter()))
        except TimeoutError:
            return ready()
    return True


def _mover(seats: list[Seat]) -> Seat | None:
    return next((s for s in seats if s.view and s.view.get("turn") is not None
                 and any(a["do"] != "challenge" for a in s.view.get("legal_actions", []))), None)


async def _play(seats: list[Seat], measured_from: float, deadline: float, latencies: list[float],
                rng: random.Random, progress: Progress, think: float) -> None:
    counter = 0
    due = time.perf_counter()
    while time.perf_counter() < deadline:
        if not await _until(seats, lambda: _mover(seats) is not None or bool(seats[0].view and
                                                                             seats[0].view.get("round_over")),
                            deadline):
            return
        mover = _mover(seats)
        if mover is None or mover.view is None:  # between rounds, or a match played out: everyone goes on
            if seats[0].status == "over":
                for s in seats:
                    await _send(s, {"rematch": {"accept": True}}, counter)
                    counter += 1
            else:
                await _send(seats[0], {"next_round": {}}, counter)
                counter += 1
            await asyncio.sleep(0.01)
            continue
        if think:  # players take their time: Poisson arrivals per table, on a schedule kept whatever the replies do
            due += rng.expovariate(1 / think)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        options = [a for a in mover.view["legal_actions"] if a["do"] != "challenge"]
        sent = time.perf_counter()
        ack = await _send(mover, rng.choice(options), counter)
        counter += 1
        if not ack.get("ok"):
            await asyncio.sleep(0.01)
            continue
        seq: int = ack["seqs"][0]
        if not await _until(seats, lambda seq=seq: all(seq in s.arrivals for s in seats), deadline + 10):  # type: ignore[misc]
            return
        if sent >= measured_from:
            latencies.append(max(s.arrivals[seq] for s in seats) - sent)
            progress.moves += 1


async def _send(seat: Seat, command: dict[str, Any], counter: int) -> dict[str, Any]:
    assert seat.ws is not None
    cid = f"m{counter}x{random.random():.9f}"
    waiter = asyncio.get_running_loop().create_future()
    _pending[cid] = waiter
    frame = {"type": "command", "table": seat.table, "id": cid, "command": command}
    await seat.ws.send_str(orjson.dumps(frame).decode())
    try:
        return await asyncio.wait_for(waiter, 10)
    except TimeoutError:
        return {"ok": False, "code": "timeout"}
    finally:
        _pending.pop(cid, None)


_pending: dict[str, asyncio.Future[dict[str, Any]]] = {}


async def _read_acks(seat: Seat) -> None:
    assert seat.ws is not None
    async for msg in seat.ws:
        if msg.type != aiohttp.WSMsgType.TEXT:
            continue
        frame = orjson.loads(msg.data)
        if frame.get("type") == "ack":
            waiter = _pending.get(frame.get("id", ""))
            if waiter is not None and not waiter.done():
                waiter.set_result(frame)
        elif frame.get("type") in ("state", "events") and frame.get("table") == seat.table:
            seat.view = frame.get("view")
            seat.status = frame["table_info"]["status"]
            seat.arrivals[frame["seq"]] = time.perf_counter()
            seat.changed.set()


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def drive(url: str, plan: Plan, gateway_pid: int | None) -> dict[str, Any]:
    _raise_file_limit()
    rng = random.Random(plan.seed)
    players = max(2, min(4, plan.clients // max(1, plan.tables)))
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        groups = [await _table(http, url, players, k) for k in range(plan.tables)]
        readers = []
        for group in groups:
            for seat in group:
                seat.ws = await http.ws_connect(f"{url.replace('http', 'ws', 1)}/ws?token={seat.token}")
                readers.append(asyncio.create_task(_read_acks(seat)))
                await seat.ws.send_str(orjson.dumps({"type": "subscribe", "table": seat.table}).decode())
        latencies: list[float] = []
        measured_from = time.perf_counter() + plan.warmup
        progress = Progress(measured_from, plan.seconds)
        ticker = asyncio.create_task(_tick(progress))
        think = plan.tables / plan.rate if plan.rate else 0.0
        await asyncio.gather(*(_play(g, measured_from, measured_from + plan.seconds, latencies, rng, progress, think)
                               for g in groups))
        elapsed = time.perf_counter() - measured_from
        ticker.cancel()
        sys.stderr.write("\n")
        before = _rss_kib(gateway_pid) if gateway_pid else 0
        idle_sockets = []
        for i in range(plan.idle_sockets):
            idle_sockets.append(await http.ws_connect(f"{url.replace('http', 'ws', 1)}/ws?token=idle{i}x{plan.seed}"))
        await asyncio.sleep(1.0)
        after = _rss_kib(gateway_pid) if gateway_pid else 0
        for ws in idle_sockets:
            await ws.close()
        for group in groups:
            for seat in group:
                if seat.ws is not None:
                    await seat.ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
    idle = plan.idle_sockets
    return {"clients": sum(len(g) for g in groups), "tables": plan.tables, "offered_per_s": plan.rate,
            "warmup_s": plan.warmup, "moves": len(latencies), "seconds": round(elapsed, 3),
            "moves_per_s": round(len(latencies) / elapsed, 1),
            "p50_ms": round(_percentile(latencies, 0.5) * 1000, 2),
            "p99_ms": round(_percentile(latencies, 0.99) * 1000, 2), "idle_sockets": idle,
            "kib_per_socket": round((after - before) / idle, 1) if gateway_pid and idle else None}


async def _tick(progress: Progress) -> None:
    while True:
        progress.show()
        await asyncio.sleep(0.5)


async def run(plan: Plan, url: str | None) -> str:
    if url:
        return json.dumps(await drive(url, plan, None))
    with tempfile.TemporaryDirectory(prefix="maumau-loadtest-") as data:
        async with running_platform(Path(data), quiet=True) as (addresses, children):
            gateway = next(c for c in children if c.name == "gateway")
            pid = gateway.proc.pid if gateway.proc is not None else None
            return json.dumps(await drive(addresses["gateway_url"], plan, pid))
