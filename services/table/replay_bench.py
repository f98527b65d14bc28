"""``maumau bench replay``: how fast stored tables are read back, re-folded and verified.

It starts NATS, the rules and the table service on the embedded defaults (as ``maumau
bench table`` does), opens T bot-only tables of four seats (the bench creates each as a
watcher and seats bots) and plays the bots' seats with random legal actions through the
table service until the tables hold ``--events`` events together. Then the measured phase:
every table is read from JetStream (batched direct gets) and verified
(``services/table/verify.py``: the chain, every decision and deal asked of the engine
again), the tables shared among one process per core, each reading and verifying its own.
One JSON line: the verify phase's tables, events, seconds and events/s, whether every table
verified, and for comparison the raw engine's actions/s (``maumau bench rules``: one state
stepped in place) measured in the same run.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import tempfile
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nats
from nats.aio.client import Client as NATS

from maumau.v1 import table_pb2
from services.rules import bench as engine_bench
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from services.runtime.lifecycle import run as run_service
from services.table.client import send
from services.table.domain import Status, Table
from services.table.repository import Repository, tables
from services.table.store import EventStore
from services.table.verify import verify
from services.up import running_platform

PLAYERS = 4
WATCHER = "bench"  # creates the tables and watches them: every seat is a bot's


@dataclass
class Counter:
    events: int = 0


async def _command(nc: NATS, tid: str, actor: str, **command: object) -> table_pb2.CommandReply:
    cmd = table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id=tid, actor=actor, **command)
    reply = await send(nc, cmd, timeout=30)
    if reply.WhichOneof("result") != "done":
        raise RuntimeError(f"the bench's command was refused: {reply.refusal.code} {reply.refusal.message}")
    return reply


async def _play(nc: NATS, repo: Repository[Table], tid: str, rng: random.Random, played: Counter,
                target: int) -> None:
    """One bot-only table, played until the tables hold ``target`` events."""
    await _command(nc, tid, WATCHER, create=table_pb2.CreateTable(ruleset="classic52", seats=PLAYERS, watch=True))
    await _command(nc, tid, WATCHER, fill_bots=table_pb2.FillBots())
    await _command(nc, tid, WATCHER, start=table_pb2.StartMatch())
    t = Table(tid)
    while True:
        async for stored in repo.catch_up(t):
            played.events += len(stored.batch.events)
        if played.events >= target:
            return
        match, bots = t.match, [p.identity for p in t.players]
        assert match is not None
        if t.status == Status.OVER:
            await _command(nc, tid, bots[0], rematch=table_pb2.VoteRematch(accept=True))
        elif match.round_over:
            await _command(nc, tid, bots[0], next_round=table_pb2.NextRound())
        else:
            options = list(legal_actions(match, match.turn))
            action = options[int(rng.random() * len(options))]
            await _command(nc, tid, bots[match.turn], act=action_to_pb(action, match.rs.family))


def _started(everyone: threading.Barrier) -> None:
    """A worker's start: none takes a task before all have imported their modules (a second or so each)."""
    everyone.wait()


def _verify_tables(nats_url: str, ids: list[str]) -> tuple[bool, int]:
    """In a worker process: read each table from JetStream and verify it; whether all verify, and their events."""
    return run_service(_read_and_verify(nats_url, ids))  # as the services run: uvloop, the collector tuned


async def _read_and_verify(nats_url: str, ids: list[str]) -> tuple[bool, int]:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    ok, events = True, 0
    try:
        for tid in ids:
            verdict = verify(tid, await store.read(tid))
            ok, events = ok and verdict.ok, events + verdict.events
    finally:
        await nc.close()
    return ok, events


async def _run_in(pool: ProcessPoolExecutor, workers: int, nats_url: str, ids: list[str]) -> list[tuple[bool, int]]:
    shares = [ids[w::workers] for w in range(workers)]
    return await asyncio.gather(*(asyncio.wrap_future(pool.submit(_verify_tables, nats_url, share))
                                  for share in shares))


async def drive(nats_url: str, tables_count: int, events: int, seed: int) -> dict[str, object]:
    nc = await nats.connect(nats_url)
    rng = random.Random(seed)
    ids = [f"replay{seed}x{uuid.uuid4().hex[:8]}x{i}" for i in range(tables_count)]
    workers = os.cpu_count() or 1
    # spawned, not forked: a fork would copy this process's running loop and NATS connection
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_started,
                             initargs=(context.Barrier(workers),)) as pool:
        try:
            played = Counter()
            repo = tables(EventStore(nc.jetstream()), cache_size=0)
            await asyncio.gather(*(_play(nc, repo, tid, rng, played, events) for tid in ids))
        finally:
            await nc.close()
        await _run_in(pool, workers, nats_url, [])  # every worker started (``_started``)
        started = time.perf_counter()
        results = await _run_in(pool, workers, nats_url, ids)  # the reads and the checks on every core
        elapsed = time.perf_counter() - started
    verified, count = all(ok for ok, _ in results), sum(n for _, n in results)
    engine = json.loads(engine_bench.run("classic52", PLAYERS, 3.0, seed))
    return {"tables": tables_count, "events": count, "seconds": round(elapsed, 3),
            "events_per_s": round(count / elapsed, 1), "verified": verified, "workers": workers,
            "engine_actions_per_s": engine["actions_per_s"]}


async def run(tables_count: int, events: int, seed: int) -> str:
    with tempfile.TemporaryDirectory(prefix="maumau-bench-") as data:
        async with running_platform(Path(data), quiet=True, projector=False) as (addresses, _):
            return json.dumps(await drive(addresses["nats_url"], tables_count, events, seed))
