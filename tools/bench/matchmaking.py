"""``maumau bench matchmaking``: N simulated players press "Jogar agora" at random moments.

It starts the platform on the embedded defaults (the gateway's limits per address lifted: every
player comes from this one address; those per player kept, and paid for), or drives one given
by ``--url``, whose limits it waits out as a page would (``Retry-After``; counted in ``refused``,
by status). Every player opens a session first (its page is open before it asks); then each
asks for a quick match at a random moment within
``--spread`` seconds — in one of a few pools (ruleset, seats, speed), so many matches fill at
once — and long-polls its ticket until it is seated. A player's **wait** is counted from the
moment its table's last player asked (before that it waits for people, not for the
platform) to the moment it hears of its table. One JSON line: players, matched, wait
p50/p99 in ms, players seated at two tables (``seated_twice``), players never matched
although their pool filled (``lost``), and beside them the round trip of
``GET /api/quick-match/{ticket}`` while nothing changes (the floor of any answer here) and
the seconds of a 10-million-step Python loop."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from services.runtime.machine import loop_seconds
from services.runtime.supervisor import running_platform
from tools.load.loadtest import per_address_lifted

NEEDED = {"nats", "rules", "table", "gateway"}  # what a quick match goes through
TRIES = 20  # a request refused this many times in a row ends the bench
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


@dataclass
class Calls:
    """The bench's HTTP client: requests sent again as a page would, and the refusals it waited out."""

    http: aiohttp.ClientSession
    base: str
    refused: Counter[int] = field(default_factory=Counter)  # by status: 429s (a limit) and 5xx (unavailable)

    async def __call__(self, method: str, path: str, token: str = "",
                       body: dict[str, Any] | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for _ in range(TRIES):
            async with self.http.request(method, self.base + path, json=body, headers=headers) as r:
                if r.status != 429 and r.status < 500:
                    answer: dict[str, Any] = await r.json()
                    return answer
                self.refused[r.status] += 1
                # a limit of the platform's: wait as the page is told to; unavailable for a moment: try again
                pause = min(float(r.headers.get("Retry-After", "0")), 60.0) if r.status == 429 else 0.1
            await asyncio.sleep(pause)
        raise RuntimeError(f"{method} {path} kept failing")


async def _play(call: Calls, p: Player, token: str, at: float) -> None:
    await asyncio.sleep(at)
    ruleset, seats, turn = p.pool
    p.asked = time.monotonic()
    answer = await call("POST", "/api/quick-match", token, {"ruleset": ruleset, "seats": seats, "turn_seconds": turn})
    ticket, patience = answer["ticket"], p.asked + PATIENCE
    while answer["status"] == "waiting" and time.monotonic() < patience:
        answer = await call("GET", f"/api/quick-match/{ticket}?wait=10", token)
    p.heard, p.table, p.status = time.monotonic(), answer["table_id"] or "", answer["status"]


async def _session(call: Calls, name: str) -> str:
    return str((await call("POST", "/api/session", body={"name": name}))["token"])


async def _idle_round_trips(call: Calls, count: int) -> list[float]:
    token = await _session(call, "Sonda")
    ticket = (await call("POST", "/api/quick-match", token,
                         {"ruleset": "classic52", "seats": 4, "turn_seconds": 120}))["ticket"]
    spent = []
    for _ in range(count):
        started = time.perf_counter()
        await call("GET", f"/api/quick-match/{ticket}", token)
        spent.append((time.perf_counter() - started) * 1000)
    await call("DELETE", f"/api/quick-match/{ticket}", token)
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
        call = Calls(http, base)
        # every page is open before anyone asks: their sessions are not part of the quick match
        tokens = await asyncio.gather(*(_session(call, p.name) for p in crowd))
        await asyncio.gather(*(_play(call, p, token, rng.uniform(0, spread)) for p, token in zip(crowd, tokens,
                                                                                                strict=True)))
        trips = await _idle_round_trips(call, 200)
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
            "refused": {str(status): n for status, n in sorted(call.refused.items())},
            "idle_get_p50_ms": _ms(trips, 50), "python_10m_loop_s": loop_seconds()}


async def run(players: int, spread: float, seed: int, url: str | None) -> str:
    if url:
        return json.dumps(await drive(url, players, spread, seed))
    with tempfile.TemporaryDirectory(prefix="maumau-matchbench-") as data:
        async with running_platform(Path(data), quiet=True, only=NEEDED, settings=per_address_lifted()) as (
                addresses, _):
            return json.dumps(await drive(addresses["gateway_url"], players, spread, seed))
