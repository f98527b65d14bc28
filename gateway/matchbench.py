"""``maumau bench matchmaking``: N simulated players press "Jogar agora" at random moments.

It starts the platform on the embedded defaults (as ``maumau loadtest`` does, the gateway's
rate limits lifted: every player comes from this one address), or drives one given by
``--url``. Each player opens a session, asks for a quick match at a random moment within
``--spread`` seconds — in one of a few pools (ruleset, seats, speed), so many matches fill at
once — and long-polls its ticket until it is seated. A player's **wait** is counted from the
moment its table's last player asked (before that it waits for people, not for the
platform) to the moment it hears of its table. One JSON line: players, matched, wait
p50/p99 in ms, players seated at two tables (``seated_twice``), players never matched
although their pool filled (``lost``), and beside them the round trip of
``GET /api/quick-match/{ticket}`` while nothing changes (the floor of any answer here) and
the seconds of a 10-million-step Python loop.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from gateway.loadtest import unlimited
from services.runtime.machine import loop_seconds
from services.up import running_platform

NEEDED = {"nats", "rules", "table", "gateway"}  # what a quick match goes through
PATIENCE = 90.0  # seconds a simulated player waits before it counts as lost
POOLS = (("classic52", 2, 0), ("classic52", 4, 30), ("candeias", 3, 15), ("colors108", 4, 0))


@dataclass
class Player:
    name: str
    pool: tuple[str, int, int]
    asked: float = 0.0
    heard: float = 0.0
    table: str = ""
    status: str = ""


async def _call(http: aiohttp.ClientSession, method: str, url: str, token: str = "",
                body: dict[str, Any] | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for _ in range(20):
        async with http.request(method, url, json=body, headers=headers) as r:
            if r.status < 500:
                answer: dict[str, Any] = await r.json()
                return answer
        await asyncio.sleep(0.1)  # unavailable for a moment: as a page would, try again
    raise RuntimeError(f"{method} {url} kept failing")


async def _play(http: aiohttp.ClientSession, base: str, p: Player, at: float) -> None:
    token = (await _call(http, "POST", f"{base}/api/session", body={"name": p.name}))["token"]
    await asyncio.sleep(at)
    ruleset, seats, turn = p.pool
    p.asked = time.monotonic()
    answer = await _call(http, "POST", f"{base}/api/quick-match", token,
                         {"ruleset": ruleset, "seats": seats, "turn_seconds": turn})
    ticket, patience = answer["ticket"], p.asked + PATIENCE
    while answer["status"] == "waiting" and time.monotonic() < patience:
        answer = await _call(http, "GET", f"{base}/api/quick-match/{ticket}?wait=10", token)
    p.heard, p.table, p.status = time.monotonic(), answer["table_id"] or "", answer["status"]


async def _idle_round_trips(http: aiohttp.ClientSession, base: str, count: int) -> list[float]:
    token = (await _call(http, "POST", f"{base}/api/session", body={"name": "Sonda"}))["token"]
    ticket = (await _call(http, "POST", f"{base}/api/quick-match", token,
                          {"ruleset": "classic52", "seats": 4, "turn_seconds": 120}))["ticket"]
    spent = []
    for _ in range(count):
        started = time.perf_counter()
        await _call(http, "GET", f"{base}/api/quick-match/{ticket}", token)
        spent.append((time.perf_counter() - started) * 1000)
    await _call(http, "DELETE", f"{base}/api/quick-match/{ticket}", token)
    return spent


def _ms(values: list[float], q: int) -> float:
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1) if len(values) > 1 else 0.0


async def drive(base: str, players: int, spread: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    per_pool = players // len(POOLS)
    crowd = [Player(f"P{i}", pool) for pool in POOLS for i in range(per_pool - per_pool % pool[1])]
    for i, p in enumerate(crowd):
        p.name = f"P{i}"
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as http:
        await asyncio.gather(*(_play(http, base, p, rng.uniform(0, spread)) for p in crowd))
        trips = await _idle_round_trips(http, base, 200)
    by_table: dict[str, list[Player]] = defaultdict(list)
    for p in crowd:
        if p.table:
            by_table[p.table].append(p)
    waits = [(p.heard - max(q.asked for q in seated)) * 1000 for seated in by_table.values() for p in seated]
    names = Counter(p.name for seated in by_table.values() for p in seated)
    return {"players": len(crowd), "matched": sum(1 for p in crowd if p.table), "tables": len(by_table),
            "wait_p50_ms": _ms(waits, 50), "wait_p99_ms": _ms(waits, 99),
            "seated_twice": sum(1 for n in names.values() if n > 1), "lost": sum(1 for p in crowd if not p.table),
            "unseated": dict(Counter(p.status for p in crowd if not p.table)),
            "idle_get_p50_ms": _ms(trips, 50), "python_10m_loop_s": loop_seconds()}


async def run(players: int, spread: float, seed: int, url: str | None) -> str:
    if url:
        return json.dumps(await drive(url, players, spread, seed))
    with tempfile.TemporaryDirectory(prefix="maumau-matchbench-") as data:
        async with running_platform(Path(data), quiet=True, only=NEEDED, settings=unlimited()) as (addresses, _):
            return json.dumps(await drive(addresses["gateway_url"], players, spread, seed))
