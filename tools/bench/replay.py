"""``maumau bench replay``: how fast stored tables are read back, re-folded and verified.

It starts NATS, the rules and the table service on the embedded defaults (as ``maumau
bench table`` does), opens T bot-only tables of four seats (the bench creates each as a
watcher and seats bots) and plays the bots' seats with random legal actions through the
table service until the tables hold ``--events`` events together. Then the measured phase:
every table is read from JetStream and verified (``services/record/verify.py``: the chain,
every decision and deal asked of the engine again). The stream is read in one pass over
every table's subject (batched direct gets of 1,024 messages): a read per table costs the
server twice as much per message, as it steps over the other tables' messages between
(docs/record.md, "How fast"). The tables are then shared among one process per core, each
verifying its own.
One JSON line: the verify phase's tables, events, seconds and events/s, whether every table
verified, how many of those seconds the read took, and for comparison the raw engine's
actions/s (``maumau bench rules``: one state stepped in place) measured in the same run.
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
from services.eventlog.direct import read_subjects
from services.record.verify import verify
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from services.runtime import subjects
from services.runtime.lifecycle import servers
from services.runtime.supervisor import running_platform
from services.table.client import send
from services.table.domain import Status, Table
from services.table.repository import Tables, tables
from services.table.store import STREAM, EventStore, Stored
from tools.bench import rules as engine_bench

PLAYERS = 4
WATCHER = "bench"  # creates the tables and watches them: every seat is a bot's
READ_BATCH = 1024  # messages a round trip: the server's cost per message falls a sixth from 256

Record = tuple[int, bytes]  # a stored batch's stream sequence and its exact bytes


@dataclass
class Counter:
    events: int = 0


async def _command(nc: NATS, tid: str, actor: str, **command: object) -> table_pb2.CommandReply:
    cmd = table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id=tid, actor=actor, **command)
    reply = await send(nc, cmd, timeout=30)
    if reply.WhichOneof("result") != "done":
        raise RuntimeError(f"the bench's command was refused: {reply.refusal.code} {reply.refusal.message}")
    return reply


async def play_bots(nc: NATS, repo: Tables, tid: str, rng: random.Random, played: Counter,
                target: int) -> None:
    """One bot-only table, played until the tables hold ``target`` events (``played`` counts theirs together)."""
    await _command(nc, tid, WATCHER, create=table_pb2.CreateTable(ruleset="classic52", seats=PLAYERS, watch=True))
    await _command(nc, tid, WATCHER, fill_bots=table_pb2.FillBots())
    await _command(nc, tid, WATCHER, start=table_pb2.StartMatch())
    t = Table(tid)
    while True:
        async for stored in repo.catch_up(t):
            played.events += len(stored.batch.events)
        if played.events >= target:
            return
        await bots_move(nc, t, rng)


async def bots_move(nc: NATS, t: Table, rng: random.Random) -> None:
    """The next move of a bot-only table ``t`` (caught up): a random legal action, the next round, or a rematch."""
    match, bots = t.match, [p.identity for p in t.players]
    assert match is not None
    if t.status == Status.OVER:
        await _command(nc, t.table_id, bots[0], rematch=table_pb2.VoteRematch(accept=True))
    elif match.round_over:
        await _command(nc, t.table_id, bots[0], next_round=table_pb2.NextRound())
    else:
        options = list(legal_actions(match, match.turn))
        action = options[int(rng.random() * len(options))]
        await _command(nc, t.table_id, bots[match.turn], act=action_to_pb(action, match.rs.family))


def _started(everyone: threading.Barrier) -> None:
    """A worker's start: none takes a task before all have imported their modules (a second or so each)."""
    everyone.wait()


def _verify_tables(share: list[tuple[str, list[Record]]]) -> tuple[bool, int]:
    """In a worker process: verify each table from its stored batches; whether all verify, and their events."""
    ok, events = True, 0
    for tid, records in share:
        verdict = verify(tid, [Stored.decode(seq, data) for seq, data in records])
        ok, events = ok and verdict.ok, events + verdict.events
    return ok, events


async def _read_tables(nats_url: str, ids: list[str]) -> dict[str, list[Record]]:
    """Every stored batch of the tables ``ids``, by table, read in one pass over the stream."""
    nc = await nats.connect(servers(nats_url))
    try:
        stored = await read_subjects(nc.jetstream(), STREAM, subjects.TABLE_EVENTS, batch=READ_BATCH)
    finally:
        await nc.close()
    by_subject: dict[str, list[Record]] = {subjects.table_events(tid): [] for tid in ids}
    for m in stored:
        records = by_subject.get(m.subject)
        if records is not None:
            records.append((m.seq, m.data))
    return {tid: by_subject[subjects.table_events(tid)] for tid in ids}


async def _run_in(pool: ProcessPoolExecutor, workers: int, read: dict[str, list[Record]]) -> list[tuple[bool, int]]:
    ids = list(read)
    shares = [[(tid, read[tid]) for tid in ids[w::workers]] for w in range(workers)]
    return await asyncio.gather(*(asyncio.wrap_future(pool.submit(_verify_tables, share)) for share in shares))


async def drive(nats_url: str, tables_count: int, events: int, seed: int) -> dict[str, object]:
    nc = await nats.connect(servers(nats_url))
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
            await asyncio.gather(*(play_bots(nc, repo, tid, rng, played, events) for tid in ids))
        finally:
            await nc.close()
        await _run_in(pool, workers, {})  # every worker started (``_started``)
        started = time.perf_counter()
        read = await _read_tables(nats_url, ids)
        reading = time.perf_counter() - started
        results = await _run_in(pool, workers, read)  # the checks on every core
        elapsed = time.perf_counter() - started
    verified = all(ok for ok, _ in results) and all(read.values())  # and no table missing
    count = sum(n for _, n in results)
    engine = json.loads(engine_bench.run("classic52", PLAYERS, 3.0, seed))
    return {"tables": tables_count, "events": count, "seconds": round(elapsed, 3),
            "events_per_s": round(count / elapsed, 1), "verified": verified, "workers": workers,
            "read_seconds": round(reading, 3),
            "engine_actions_per_s": engine["actions_per_s"]}


async def run(tables_count: int, events: int, seed: int) -> str:
    with tempfile.TemporaryDirectory(prefix="maumau-bench-") as data:
        async with running_platform(Path(data), quiet=True, projector=False) as (addresses, _):
            return json.dumps(await drive(addresses["nats_url"], tables_count, events, seed))
