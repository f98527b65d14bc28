"""``maumau bench table``: random legal games through the whole table path, measured.

It starts NATS, the rules service and the table service on the embedded defaults (unless
``--nats-url`` names a running platform), opens T tables of four seats and plays every
seat of every table with uniformly random legal actions, each table pausing between moves
so that together they offer ``--rate`` commands per second (Poisson arrivals; 0: no
pauses, as fast as the replies come). Each command goes NATS request → table service →
rules gRPC → JetStream append → reply; its latency is from sending to the reply. The same
run then measures JetStream's own pipelined, acknowledged publish rate on this machine:
the physical limit the service is held against.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js.api import StorageType, StreamConfig

from maumau.v1 import events_pb2, table_pb2
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from services.runtime import subjects
from services.runtime.cputime import CpuMeter, pids
from services.runtime.lifecycle import servers
from services.runtime.supervisor import running_platform
from services.table import repository
from services.table.client import send
from services.table.domain import Table
from services.table.store import EventStore, Stored

PLAYERS = 4


@dataclass
class Mirror:
    """The bench's own copy of a table, folded from the batches JetStream pushes to core subscribers."""

    table: Table
    moved: asyncio.Event = field(default_factory=asyncio.Event)
    count: int = 0


# command ids are unique within a table, and every run's tables are new: a count will do (uuid4 cost the
# bench 3 % of its CPU: a system call for random bytes per command)
_COMMAND_IDS = itertools.count(1)


async def _send(nc: NATS, tid: str, actor: str, latencies: list[float] | None = None,
                **command: object) -> table_pb2.CommandReply:
    cmd = table_pb2.TableCommand(command_id=f"c{next(_COMMAND_IDS)}", table_id=tid, actor=actor, **command)
    sent = time.perf_counter()
    reply = await send(nc, cmd, timeout=30)
    if latencies is not None:
        latencies.append(time.perf_counter() - sent)
    return reply


async def _until(mirror: Mirror, command_count: int) -> Table:
    while mirror.count < command_count:
        mirror.moved.clear()
        await mirror.moved.wait()
    return mirror.table


async def _play(nc: NATS, tid: str, mirror: Mirror, deadline: float, latencies: list[float],
                rng: random.Random, think: float) -> None:
    players = [f"{tid}-p{i}" for i in range(PLAYERS)]
    created = await _send(nc, tid, players[0], create=table_pb2.CreateTable(ruleset="classic52", seats=PLAYERS))
    for p in players[1:]:
        await _send(nc, tid, p, join=table_pb2.JoinTable(invitation=created.done.invitation))
    await _send(nc, tid, players[0], start=table_pb2.StartMatch())
    stored = 1 + (PLAYERS - 1) + 1
    due = time.perf_counter()
    while time.perf_counter() < deadline:
        t = await _until(mirror, stored)
        match = t.match
        assert match is not None
        if t.status == "over":
            for p in players:
                await _send(nc, tid, p, latencies, rematch=table_pb2.VoteRematch(accept=True))
            stored += PLAYERS
            continue
        if match.round_over:
            await _send(nc, tid, players[0], latencies, next_round=table_pb2.NextRound())
            stored += 1
            continue
        if think:  # players take their time: Poisson arrivals per table, on a schedule kept whatever the replies do
            due += rng.expovariate(1 / think)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        options = list(legal_actions(match, match.turn))
        action = action_to_pb(options[int(rng.random() * len(options))], match.rs.family)
        reply = await _send(nc, tid, players[match.turn], latencies, act=action)
        if reply.WhichOneof("result") != "done":
            raise RuntimeError(f"a legal action was refused: {reply.refusal.code} {reply.refusal.message}")
        stored += 1


# JetStream's own rate is measured with this many publishes in flight. A table has one command in flight
# at a time: the table path is held against it with as many tables (with fewer it waits on its own
# latency, cores idle: 100 tables reached 2,870-3,250 commands/s where 256 reached 4,780).
IN_FLIGHT = 256


async def jetstream_publish_rate(nc: NATS, seconds: float = 2.0, window: int = IN_FLIGHT) -> float:
    """Acknowledged publishes per second with ``window`` in flight, each with an expected subject sequence."""
    js = nc.jetstream()
    name = "BENCH_" + uuid.uuid4().hex[:8]
    await js.add_stream(StreamConfig(name=name, subjects=[f"{name}.>"], storage=StorageType.FILE))
    subjects = [f"{name}.{i}" for i in range(window)]
    last = [0] * window
    done = 0

    async def one(i: int) -> None:
        ack = await js.publish(subjects[i], b"x" * 200,
                               headers={"Nats-Expected-Last-Subject-Sequence": str(last[i])})
        last[i] = ack.seq

    started = time.perf_counter()
    try:
        while time.perf_counter() - started < seconds:
            await asyncio.gather(*(one(i) for i in range(window)))
            done += window
        return done / (time.perf_counter() - started)
    finally:
        await js.delete_stream(name)


def _percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] if sorted_values else 0.0


async def drive(nats_url: str, tables: int, seconds: float, seed: int, rate: float,
                processes: dict[str, int] | None = None) -> dict[str, Any]:
    """Play ``tables`` random games through the table service; with ``processes`` (name: pid, when the
    platform runs here) also the CPU milliseconds each spent per command (the bench itself as ``client``)."""
    nc = await nats.connect(servers(nats_url))
    mirrors: dict[str, Mirror] = {}
    folding = repository.tables(EventStore(nc.jetstream()), cache_size=0)

    async def on_batch(msg: Msg) -> None:
        mirror = mirrors.get(msg.subject.rsplit(".", 1)[-1])
        if mirror is None:
            return
        mirror.count += 1
        folding.apply(mirror.table, Stored(mirror.count, events_pb2.EventBatch.FromString(msg.data)))
        mirror.moved.set()

    sub = await nc.subscribe(subjects.TABLE_EVENTS, cb=on_batch)
    latencies: list[float] = []
    rng = random.Random(seed)
    try:
        ids = [f"bench{seed}x{uuid.uuid4().hex[:8]}x{i}" for i in range(tables)]
        for tid in ids:
            mirrors[tid] = Mirror(Table(tid))
        started = time.perf_counter()
        deadline = started + seconds
        think = tables / rate if rate else 0.0
        meter = CpuMeter.begin({**(processes or {}), "client": os.getpid()})
        await asyncio.gather(*(_play(nc, tid, mirrors[tid], deadline, latencies, rng, think) for tid in ids))
        elapsed = time.perf_counter() - started
        cpu = meter.per(len(latencies))
        await sub.unsubscribe()
        publish_rate = await jetstream_publish_rate(nc)
    finally:
        await nc.close()
    lat = sorted(latencies)
    return {"tables": tables, "offered_per_s": rate, "commands": len(lat), "seconds": round(elapsed, 3),
            "commands_per_s": round(len(lat) / elapsed, 1), "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
            "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
            "jetstream_publish_per_s": round(publish_rate, 1), **({"cpu_ms_per_command": cpu} if processes else {})}


async def run(tables: int, seconds: float, seed: int, nats_url: str | None, rate: float) -> str:
    if nats_url:
        return json.dumps(await drive(nats_url, tables, seconds, seed, rate))
    with tempfile.TemporaryDirectory(prefix="maumau-bench-") as data:
        async with running_platform(Path(data), quiet=True, projector=False) as (addresses, children):
            return json.dumps(await drive(addresses["nats_url"], tables, seconds, seed, rate, pids(children)))
