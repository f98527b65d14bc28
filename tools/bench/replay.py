"""``maumau bench replay``: how fast stored tables are read back, re-folded and verified.

It starts NATS, the rules and the table service on the embedded defaults (as ``maumau
bench table`` does), opens T bot-only tables of four seats (the bench creates each as a
watcher and seats bots) and plays the bots' seats with random legal actions through the
table service until the tables hold ``--events`` events together. Then the measured phase,
``maumau verify --all``'s (``services/record/verify_all.py``): the stream pushed once by an
ordered consumer and each batch sent, as it comes, to the process (one per core) that holds
its table, which checks it at once (``services/record/verify.py``: the chain, every decision
and deal asked of the engine again).
One JSON line: the verify phase's tables, events, seconds and events/s, whether every table
verified, the reading process's CPU seconds in the phase, and for comparison the raw
engine's actions/s (``maumau bench rules``: one state stepped in place) measured in the same
run, and the verified events/s as a share of it.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import nats
from nats.aio.client import Client as NATS

from maumau.v1 import table_pb2
from services.record.verify_all import Verifiers
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from services.runtime import subjects
from services.runtime.lifecycle import servers
from services.runtime.supervisor import running_platform
from services.table.client import send
from services.table.domain import Status, Table
from services.table.repository import Tables, tables
from services.table.store import STREAM, EventStore
from tools.bench import rules as engine_bench

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


async def drive(nats_url: str, tables_count: int, events: int, seed: int) -> dict[str, object]:
    nc = await nats.connect(servers(nats_url))
    rng = random.Random(seed)
    ids = [f"replay{seed}x{uuid.uuid4().hex[:8]}x{i}" for i in range(tables_count)]
    with Verifiers() as verifiers:  # started before the clock: a process's imports take a second or so
        try:
            played = Counter()
            repo = tables(EventStore(nc.jetstream()), cache_size=0)
            await asyncio.gather(*(play_bots(nc, repo, tid, rng, played, events) for tid in ids))
            started, cpu = time.perf_counter(), time.process_time()
            verdicts = await verifiers.verify(nc, STREAM, subjects.TABLE_EVENTS, only=set(ids))
            elapsed, reading = time.perf_counter() - started, time.process_time() - cpu
        finally:
            await nc.close()
    verified = all(v.ok for v in verdicts.values()) and len(verdicts) == len(ids)  # and no table missing
    count = sum(v.events for v in verdicts.values())
    engine = json.loads(engine_bench.run("classic52", PLAYERS, 3.0, seed))
    return {"tables": tables_count, "events": count, "seconds": round(elapsed, 3),
            "events_per_s": round(count / elapsed, 1), "verified": verified, "workers": verifiers.workers,
            "reader_cpu_seconds": round(reading, 3), "engine_actions_per_s": engine["actions_per_s"],
            "share_of_engine": round(count / elapsed / engine["actions_per_s"], 3)}


async def run(tables_count: int, events: int, seed: int) -> str:
    with tempfile.TemporaryDirectory(prefix="maumau-bench-") as data:
        async with running_platform(Path(data), quiet=True, projector=False) as (addresses, _):
            return json.dumps(await drive(addresses["nats_url"], tables_count, events, seed))
