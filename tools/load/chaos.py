"""``maumau chaos --seconds S``: the platform under the load test while its processes are killed.

The platform runs here under its supervisor (``services.runtime.supervisor``), the load test plays through
it, and every few seconds a fault is injected: a kind of process killed with SIGKILL (NATS
included), or NATS stopped (SIGSTOP) for a few seconds and continued. When the time is up
the faults stop, the platform is given time to come back, and the record is checked:

* lost: a move acknowledged to a player that its table's stream does not hold;
* doubled: a command stored twice on a table's stream;
* half-done: a table whose stream does not fold (its projection behind its stream after
  the projector had time to catch up counts here too);
* recovered: every table still takes a move through the gateway, and nothing above.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import nats
from sqlalchemy import select

from services.eventlog.sql import engine
from services.readmodels.tables.projection import directory
from services.runtime.lifecycle import servers
from services.runtime.supervisor import Child, running_platform
from services.table import repository
from services.table.store import EventStore
from tools.load.loadclient import Tab, Tally
from tools.load.loadtest import Measure, Plan, Progress, Table, play, play_table, unlimited

KILLED = ("nats", "rules", "table", "chat", "accts", "proj", "clock", "bots", "gateway")
FREEZE = "nats-stop"
RECOVERY_SECONDS = 60.0
EVERY = (3.0, 8.0)


@dataclass
class Faults:
    """The faults injected, by kind."""

    rng: random.Random
    every: tuple[float, float] = EVERY  # seconds between two faults, drawn uniformly
    stop_for: tuple[float, float] = (1.0, 4.0)
    done: Counter[str] = field(default_factory=Counter)

    async def inject(self, children: list[Child], until: float) -> None:
        by_name = {c.name: c for c in children}
        kinds = [k for k in KILLED if k in by_name] + ([FREEZE] if "nats" in by_name else [])
        while True:
            pause = self.rng.uniform(*self.every)
            if time.perf_counter() + pause >= until:
                return
            await asyncio.sleep(pause)
            kind = self.rng.choice(kinds)
            child = by_name["nats" if kind == FREEZE else kind]
            pid = child.pid
            if pid is None:  # still coming back from the last fault
                continue
            if kind == FREEZE:
                os.kill(pid, signal.SIGSTOP)
                try:
                    await asyncio.sleep(self.rng.uniform(*self.stop_for))
                finally:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGCONT)
            else:
                os.kill(pid, signal.SIGKILL)
            self.done[kind] += 1


async def _all_ready(children: list[Child], seconds: float) -> bool:
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if all([await c.ready() for c in children]):
            return True
        await asyncio.sleep(0.5)
    return False


@dataclass
class Record:
    """What the streams and the projections say of the tables played."""

    lost: int = 0
    doubled: int = 0
    half_done: int = 0
    last: dict[str, int] = field(default_factory=dict)  # table: its stream's last sequence


async def check_streams(nats_url: str, tables: list[Table], tally: Tally) -> Record:
    """The tables' streams against what their players were told was stored (``tally.acked``)."""
    record = Record()
    nc = await nats.connect(servers(nats_url))  # one server, or a cluster's
    try:
        store = EventStore(nc.jetstream())
        folding = repository.tables(store, cache_size=0)
        for t in tables:
            stored = await store.read(t.table)
            seqs = {s.seq for s in stored}
            record.lost += len(tally.acked.get(t.table, set()) - seqs)
            commands = Counter(s.batch.events[0].command_id for s in stored if s.batch.events)
            record.doubled += sum(n - 1 for n in commands.values() if n > 1)
            try:
                await folding.get(t.table)
            except Exception:
                record.half_done += 1
            record.last[t.table] = stored[-1].seq if stored else 0
    finally:
        await nc.close()
    return record


async def projections_behind(database_url: str, last: dict[str, int], seconds: float) -> int:
    """Tables whose projected sequence has not reached their stream's, once the projector had ``seconds``."""
    db = engine(database_url)
    try:
        deadline = time.perf_counter() + seconds
        while True:
            async with db.connect() as conn:
                rows = dict((await conn.execute(select(directory.c.table_id, directory.c.seq)
                                                .where(directory.c.table_id.in_(list(last))))).all())
            behind = sum(1 for t, seq in last.items() if rows.get(t, 0) < seq)
            if not behind or time.perf_counter() >= deadline:
                return behind
            await asyncio.sleep(0.5)
    finally:
        await db.dispose()


async def _still_playable(http: aiohttp.ClientSession, url: str, tables: list[Table], tally: Tally) -> int:
    """How many of the tables take one more move through the gateway."""
    moved = 0
    for t in tables:
        again = Table(t.table, views=[None] * len(t.tabs))
        again.tabs = [Tab(http, url, tab.token, [t.table], again.on_frame(seat), tally)
                      for seat, tab in enumerate(t.tabs)]
        running = [asyncio.create_task(tab.run()) for tab in again.tabs]
        start = time.perf_counter()
        measure = Measure(start, start + 30)
        await play_table(again, measure, random.Random(0), Progress(start, 30), 0.0, moves=1)
        moved += bool(measure.latencies)
        for tab in again.tabs:
            await tab.stop()
        await asyncio.gather(*running, return_exceptions=True)
    return moved


async def chaos(seconds: float, seed: int, tables: int, rate: float,
                every: tuple[float, float] = EVERY) -> dict[str, Any]:
    """Run the platform under load and faults for ``seconds``; what the record says afterwards."""
    faults = Faults(random.Random(seed), every)
    tally = Tally()
    plan = Plan(clients=4 * tables, tables=tables, seconds=seconds, warmup=2.0, rate=rate, idle_sockets=0, seed=seed)
    with tempfile.TemporaryDirectory(prefix="maumau-chaos-") as data:
        async with running_platform(Path(data), quiet=True, settings=unlimited()) as (addresses, children), \
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            url = addresses["gateway_url"]
            playing = asyncio.create_task(play(http, url, plan, None, tally))
            await asyncio.sleep(plan.warmup)
            await faults.inject(children, time.perf_counter() + seconds)
            result, played = await playing
            ready = await _all_ready(children, RECOVERY_SECONDS)
            record = await check_streams(addresses["nats_url"], played, tally)
            behind = await projections_behind(addresses["database_url"], record.last, RECOVERY_SECONDS)
            playable = await _still_playable(http, url, played, tally)
            restarts = {c.name: c.restarts for c in children if c.restarts}
    errors = sum(result["refusals"].values()) + sum(result["errors"].values()) + result["timeouts"]
    recovered = ready and playable == len(played) and not (record.lost or record.doubled or record.half_done or behind)
    return {"faults": sum(faults.done.values()), "moves": result["moves"], "errors": errors,
            "longest_stall_ms": result["longest_stall_ms"], "lost": record.lost, "doubled": record.doubled,
            "half_done": record.half_done, "projections_behind": behind, "recovered": recovered,
            "tables_still_playing": f"{playable}/{len(played)}", "faults_by_kind": dict(faults.done),
            "restarts": restarts, "reconnects": result["reconnects"], "refusals": result["refusals"],
            "timeouts": result["timeouts"], "p50_ms": result["p50_ms"], "p99_ms": result["p99_ms"]}


def main(seconds: float, seed: int, tables: int, rate: float) -> str:
    return json.dumps(asyncio.run(chaos(seconds, seed, tables, rate)))
