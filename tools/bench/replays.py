"""``maumau bench replays``: what a table's replay costs the gateway, and what a flood of them does to live moves.

The platform starts here without the clock and the bots (``STARTED``: the bench plays the
bots' seats itself, as ``maumau bench replay`` does), with the load test's limits lifted except the
replays' (``RateLimits.replays_per_address`` and ``replays_per_identity``, as deployed) and
one trusted proxy, so that the bench can say where each ask comes from (``X-Forwarded-For``).

1. ``long_tables`` bot-only tables of four seats are played through the table service to
   about ``batches`` stored batches each (``tools.bench.replay.play_bots``).
2. **Cost**: each long table's replay is asked once (made: ``uncached``), then
   ``cached_asks`` times more (kept: ``cached``), each ask by a new guest from an address of
   its own (no limit binds), gzipped as a browser asks; the CPU time (``/proc``) of the gateway
   and of its replay worker (started before, by a short table's replay) over each phase, per
   batch of the tables asked and per ask.
3. **Live**: the load test's tables (``tables`` of two seats, ``rate`` moves/s together, as
   ``maumau loadtest``) for ``warmup`` + ``seconds``, twice: without a flood, then with one:
   ``flood_rate`` replays a second from one address, a new guest token each (tokens are free,
   so only the limit per address binds), asking for the long tables' replays while each long
   table moves once a second (in both runs), so that a replay asked after a move is made again:
   the worst case, the longest tables being played. ``rounds`` pairs of runs, alternating
   (without, with, without, ...): the p50 and p99 of the moves, each run's, and the ratio of
   the median p99 with the flood to the median p99 without.

One JSON line, with the seconds of a 10-million-step Python loop before and after (how fast
the machine was meanwhile: the figures are CPU time and latencies on a shared machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import nats

from services.runtime.cputime import CpuMeter, pids
from services.runtime.lifecycle import servers
from services.runtime.machine import loop_seconds
from services.runtime.settings import RateLimits
from services.runtime.supervisor import running_platform
from services.table.repository import tables
from services.table.store import EventStore
from tools.bench.replay import Counter, bots_move, play_bots
from tools.load import loadtest
from tools.load.loadclient import Tally

FLOOD_ADDRESS = "203.0.113.7"  # the flood's one address
# the platform's processes but the clock and the bots (which would play the bench's bot seats too)
STARTED = ("nats", "rules", "table", "chat", "accts", "proj", "gateway")
MOVE_EVERY = 1.0  # seconds between two moves of a long table (a person's pace)
WARM_EVENTS = 20  # a short table's, whose replay starts the gateway's replay worker before the cost is read


@dataclass(frozen=True)
class Plan:
    """What to run (the defaults are the command's: ``maumau bench replays --help``)."""

    long_tables: int
    batches: int  # about this many each
    cached_asks: int
    tables: int  # the load test's, two seats each
    rate: float  # moves/s the load test's tables offer together
    seconds: float  # each load test run's measured time
    warmup: float
    flood_rate: float  # replays asked a second from one address
    rounds: int  # pairs of load test runs, without a flood and with one, alternating
    seed: int


def _address(k: int) -> str:
    """The ``k``-th ask's own address, for the asks no limit should bind.

    >>> _address(0), _address(300)
    ('10.0.0.0', '10.0.1.44')
    """
    return f"10.0.{k // 256}.{k % 256}"


async def _ask(http: aiohttp.ClientSession, url: str, table_id: str, token: str, address: str,
               steps: bool = False) -> tuple[int, int]:
    """One replay asked as a browser asks it (gzip): its status, and its steps when ``steps`` (else 0)."""
    headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": address, "Accept-Encoding": "gzip"}
    async with http.get(f"{url}/api/tables/{table_id}/replay", headers=headers) as r:
        if steps and r.status == 200:
            return r.status, len((await r.json())["steps"])
        await r.read()  # the body, unread: the bench's own CPU is the load test's clients'
        return r.status, 0


def _with_children(pid: int) -> dict[str, int]:
    """The gateway's process and its children (the replay worker: ``gateway/replaymaker.py``), by name."""
    found = {"gateway": pid}
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found[f"gateway child {child}"] = int(child)
    return found


async def _cost(http: aiohttp.ClientSession, url: str, ids: list[str], warm: str, asks: int,
                gateway: int) -> dict[str, Any]:
    """The gateway's CPU (its replay worker's included) per batch and per ask: each table's replay made once,
    then kept and asked ``asks`` times. The worker is started first, by the replay of the table ``warm``."""
    await _ask(http, url, warm, "warm", _address(0))
    processes = _with_children(gateway)
    meter = CpuMeter.begin(processes)
    lengths = [(await _ask(http, url, tid, f"cost{k}", _address(k + 1), steps=True))[1] for k, tid in enumerate(ids)]
    made = meter.per(1)["total"]
    meter = CpuMeter.begin(processes)
    for k in range(asks):
        await _ask(http, url, ids[k % len(ids)], f"kept{k}", _address(len(ids) + 1 + k))
    kept = meter.per(1)["total"]
    batches = sum(lengths)
    kept_batches = sum(lengths[k % len(ids)] for k in range(asks))
    return {"batches_per_table": lengths,
            "uncached": {"cpu_ms_per_batch": round(made / max(1, batches), 4),
                         "cpu_ms_per_ask": round(made / max(1, len(ids)), 2)},
            "cached": {"cpu_ms_per_batch": round(kept / max(1, kept_batches), 5),
                       "cpu_ms_per_ask": round(kept / max(1, asks), 3)}}


async def _keep_moving(nats_url: str, ids: list[str], seed: int, stop: asyncio.Event) -> None:
    """Each long table moves once every ``MOVE_EVERY`` seconds until ``stop``."""
    nc = await nats.connect(servers(nats_url))
    repo, rng = tables(EventStore(nc.jetstream()), cache_size=0), random.Random(seed)
    try:
        while not stop.is_set():
            for tid in ids:
                await bots_move(nc, await repo.get(tid), rng)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), MOVE_EVERY)
    finally:
        await nc.close()


async def _flood(http: aiohttp.ClientSession, url: str, ids: list[str], rate: float,
                 counts: dict[int, int], stop: asyncio.Event) -> None:
    """``rate`` replay asks a second from one address, each by a new guest, until ``stop``; statuses counted."""
    async def one(k: int) -> None:
        status, _ = await _ask(http, url, ids[k % len(ids)], f"flood{k}x{time.time_ns()}", FLOOD_ADDRESS)
        counts[status] = counts.get(status, 0) + 1

    asking: set[asyncio.Task[None]] = set()
    due, k = time.perf_counter(), 0
    while not stop.is_set():
        task = asyncio.create_task(one(k))
        asking.add(task)
        task.add_done_callback(asking.discard)
        k += 1
        due += 1 / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
    await asyncio.gather(*asking, return_exceptions=True)


async def _live(http: aiohttp.ClientSession, url: str, plan: Plan, seed: int, processes: dict[str, int],
                flood_ids: list[str] | None) -> dict[str, Any]:
    """One load test run, with a flood of replays of ``flood_ids`` throughout (None: none)."""
    lp = loadtest.Plan(clients=2 * plan.tables, tables=plan.tables, seconds=plan.seconds, warmup=plan.warmup,
                       rate=plan.rate, idle_sockets=0, seed=seed)
    counts: dict[int, int] = {}
    stop = asyncio.Event()
    flooding = asyncio.create_task(_flood(http, url, flood_ids, plan.flood_rate, counts, stop)) if flood_ids else None
    try:
        figures, _ = await loadtest.play(http, url, lp, processes.get("gateway"), Tally(), processes)
    finally:
        stop.set()
        if flooding is not None:
            await flooding
    keys = ("moves", "moves_per_s", "p50_ms", "p99_ms", "max_ms", "refusals", "errors", "cpu_ms_per_move")
    return {**{k: figures[k] for k in keys if k in figures}, **({"flood": counts} if flood_ids else {})}


async def drive(plan: Plan, url: str, nats_url: str, processes: dict[str, int]) -> dict[str, Any]:
    nc = await nats.connect(servers(nats_url))
    rng = random.Random(plan.seed)
    ids = [f"long{plan.seed}x{i}" for i in range(plan.long_tables)]
    warm = f"warm{plan.seed}"
    try:
        repo = tables(EventStore(nc.jetstream()), cache_size=0)
        await asyncio.gather(*(play_bots(nc, repo, tid, rng, Counter(), plan.batches) for tid in ids),
                             play_bots(nc, repo, warm, rng, Counter(), WARM_EVENTS))
    finally:
        await nc.close()
    limits = RateLimits.from_env()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        cost = await _cost(http, url, ids, warm, plan.cached_asks, processes["gateway"])
        stop = asyncio.Event()
        moving = asyncio.create_task(_keep_moving(nats_url, ids, plan.seed, stop))
        quiet, flooded = [], []
        try:
            for k in range(plan.rounds):  # alternating: what the machine does meanwhile falls on both
                quiet.append(await _live(http, url, plan, plan.seed + 2 * k, processes, None))
                flooded.append(await _live(http, url, plan, plan.seed + 2 * k + 1, processes, ids))
        finally:
            stop.set()
            await moving
    p99 = [statistics.median(r["p99_ms"] for r in runs) for runs in (quiet, flooded)]
    return {**cost, "limits": {"replays_per_address": limits.replays_per_address,
                               "replays_per_identity": limits.replays_per_identity},
            "flood_per_s": plan.flood_rate, "live_tables": plan.tables, "offered_moves_per_s": plan.rate,
            "p50_ms": {"without_flood": [r["p50_ms"] for r in quiet], "with_flood": [r["p50_ms"] for r in flooded]},
            "p99_ms": {"without_flood": [r["p99_ms"] for r in quiet], "with_flood": [r["p99_ms"] for r in flooded]},
            "p99_with_over_without": round(p99[1] / max(0.001, p99[0]), 2),
            "without_flood": quiet, "with_flood": flooded}


def _settings() -> dict[str, str]:
    """The load test's lifted limits, but the replays' as deployed; one trusted proxy (the bench's addresses)."""
    kept = {"MAUMAU_RATE_REPLAYS_PER_ADDRESS", "MAUMAU_RATE_REPLAYS_PER_IDENTITY"}
    return {**{k: v for k, v in loadtest.unlimited().items() if k not in kept}, "MAUMAU_TRUSTED_PROXIES": "1"}


async def run(plan: Plan) -> str:
    before = loop_seconds()
    with tempfile.TemporaryDirectory(prefix="maumau-bench-") as data:
        async with running_platform(Path(data), quiet=True, settings=_settings(), only=STARTED) as (
                addresses, children):
            result = await drive(plan, addresses["gateway_url"], addresses["nats_url"], pids(children))
    return json.dumps({**result, "python_10m_loop_s": [before, loop_seconds()]})
