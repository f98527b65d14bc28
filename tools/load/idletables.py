"""``maumau loadtest --idle-tables N``: one gateway following N tables at once.

N tables are created (lobbies: nothing happens at them unless a sample is moved), followed
by tabs of as many tables each as a socket may follow, until every one has sent its table's
state. Then a sample of them is joined by a newcomer, and the time until the follower sees
the join is measured: a gateway following many tables must still deliver each one's moves.
The gateway's memory is read before and after (when it runs here).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from services.runtime.settings import SocketLimits
from tools.load.loadclient import Tab, Tally, new_session, percentile, rss_kib, until

CONCURRENCY = 32
SAMPLE = 100


@dataclass
class Idle:
    tabs: list[Tab]
    running: list[asyncio.Task[None]]
    figures: dict[str, Any]


@dataclass
class Followed:
    states: set[str] = field(default_factory=set)
    events: dict[str, float] = field(default_factory=dict)  # table: when its first event arrived
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def on_frame(self, frame: dict[str, Any]) -> None:
        if frame.get("type") == "state":
            self.states.add(frame["table"])
        elif frame.get("type") == "events":
            self.events.setdefault(frame["table"], time.perf_counter())
        self.changed.set()
async def _create_all(http: aiohttp.ClientSession, url: str, token: str, n: int) -> list[dict[str, Any]]:
    limit = asyncio.Semaphore(CONCURRENCY)

    async def one() -> dict[str, Any]:
        async with limit, http.post(f"{url}/api/tables", json={"ruleset": "classic32", "seats": 4},
                                    headers={"Authorization": f"Bearer {token}"}) as r:
            created: dict[str, Any] = await r.json()
            if r.status != 201:
                raise RuntimeError(f"a table could not be created: {created}")
            return created

    return list(await asyncio.gather(*(one() for _ in range(n))))


async def follow_idle_tables(http: aiohttp.ClientSession, url: str, n: int, seed: int, gateway_pid: int | None,
                             tally: Tally) -> Idle:
    """Create and follow ``n`` tables; the tabs go on following until stopped."""
    per_socket = SocketLimits().tables
    began = time.perf_counter()
    creator = await new_session(http, url, "Anfitriã")
    created = await _create_all(http, url, creator, n)
    made = time.perf_counter()
    before = rss_kib(gateway_pid) if gateway_pid else 0
    followed = Followed()
    ids = [c["table_id"] for c in created]
    tabs = [Tab(http, url, await new_session(http, url, f"Olho{k}"), ids[i:i + per_socket], followed.on_frame, tally)
            for k, i in enumerate(range(0, n, per_socket))]
    running = [asyncio.create_task(tab.run()) for tab in tabs]
    await until(followed.changed, lambda: len(followed.states) >= n, time.perf_counter() + 60 + n / 100)
    following = time.perf_counter()
    after = rss_kib(gateway_pid) if gateway_pid else 0
    sample = random.Random(seed).sample(created, min(SAMPLE, n))
    newcomer = await new_session(http, url, "Visita")
    sent: dict[str, float] = {}
    for c in sample:
        sent[c["table_id"]] = time.perf_counter()
        async with http.post(f"{url}/api/tables/{c['table_id']}/join", json={"invitation": c["invitation"]},
                             headers={"Authorization": f"Bearer {newcomer}"}):
            pass
    await until(followed.changed, lambda: all(t in followed.events for t in sent), time.perf_counter() + 30)
    delays = [followed.events[t] - s for t, s in sent.items() if t in followed.events]
    return Idle(tabs, running, {
        "idle_tables": n, "idle_tables_followed": len(followed.states), "idle_sockets_following": len(tabs),
        "idle_tables_create_s": round(made - began, 1), "idle_tables_follow_s": round(following - made, 1),
        "kib_per_followed_table": round((after - before) / n, 1) if gateway_pid else None,
        "gateway_rss_mib": round(after / 1024, 1) if gateway_pid else None,
        "sample_joins_seen": f"{len(delays)}/{len(sent)}",
        "sample_join_p50_ms": round(percentile(delays, 0.5) * 1000, 1),
        "sample_join_p99_ms": round(percentile(delays, 0.99) * 1000, 1)})
