"""A small platform for table tests: a real rules server on a port, table service replicas, a client."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import nats
from nats.aio.client import Client as NATS

from maumau.v1 import actions_pb2, table_pb2
from services.rules.engine import legal_actions
from services.rules.server import start as start_rules
from services.rules.wire import action_to_pb
from services.runtime.subjects import table_command
from services.table.domain import Table
from services.table.lobby import announcer
from services.table.repository import tables
from services.table.rules_client import GrpcRules
from services.table.service import Settings, TableService
from services.table.store import EventStore


@dataclass
class Clock:
    """Time that tests move by hand: from a fixed start, or real time (``start=None``) shifted."""

    start: float | None = 1_800_000_000.0
    offset: float = 0.0

    @property
    def now(self) -> float:
        return (time.time() if self.start is None else self.start) + self.offset

    @now.setter
    def now(self, value: float) -> None:
        self.offset += value - self.now

    def __call__(self) -> float:
        return self.now


@dataclass
class Platform:
    nats_url: str
    rules_addr: str
    client: NATS
    store: EventStore
    clock: Clock
    replicas: list[TableService] = field(default_factory=list)

    async def send(self, table_id: str, actor: str, command_id: str | None = None, name: str = "",
                   **command: Any) -> table_pb2.CommandReply:
        cmd = table_pb2.TableCommand(command_id=command_id or uuid.uuid4().hex, table_id=table_id, actor=actor,
                                     actor_name=name, **command)
        reply = await self.client.request(table_command(table_id), cmd.SerializeToString(), timeout=10)
        return table_pb2.CommandReply.FromString(reply.data)

    async def table(self, table_id: str) -> Table:
        """The table folded straight from the stream (the truth, not a replica's cache)."""
        return await tables(self.store, cache_size=0).get(table_id)

    async def last_seq(self, table_id: str) -> int:
        stored = await self.store.read(table_id)
        return stored[-1].seq if stored else 0

    async def new_table(self, ruleset: str = "classic32", seats: int = 3, bots: bool = True,
                        humans: tuple[str, ...] = ()) -> str:
        """A started table: alice created it, ``humans`` joined by the link, bots fill the rest."""
        tid = uuid.uuid4().hex[:16]
        created = await self.send(tid, "alice", create=table_pb2.CreateTable(ruleset=ruleset, seats=seats),
                                  name="Alice")
        for h in humans:
            await self.send(tid, h, join=table_pb2.JoinTable(invitation=created.done.invitation), name=h.title())
        if bots:
            await self.send(tid, "alice", fill_bots=table_pb2.FillBots())
        reply = await self.send(tid, "alice", start=table_pb2.StartMatch())
        assert reply.WhichOneof("result") == "done", reply
        return tid

    async def play_one(self, table_id: str, pick: int = 0) -> table_pb2.CommandReply:
        """The player on turn takes one of its legal actions (the ``pick``-th, wrapping)."""
        t = await self.table(table_id)
        assert t.match is not None
        seat = t.match.turn
        options = list(legal_actions(t.match, seat))
        action = action_to_pb(options[pick % len(options)], t.match.rs.family)
        return await self.send(table_id, t.players[seat].identity, act=action)


def act(seat: int, do: str, **fields: Any) -> actions_pb2.Action:
    return actions_pb2.Action(seat=seat, do=do, **fields)


@asynccontextmanager
async def platform(nats_url: str, replicas: int = 1, settings: Settings | None = None,
                   real_time: bool = False) -> AsyncIterator[Platform]:
    rules_server, port = await start_rules("127.0.0.1", 0)
    rules_addr = f"127.0.0.1:{port}"
    client = await nats.connect(nats_url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)
    store = EventStore(client.jetstream())
    await store.ensure_stream()
    clock = Clock(start=None) if real_time else Clock()
    p = Platform(nats_url, rules_addr, client, store, clock)
    conns: list[NATS] = []
    rules_clients: list[GrpcRules] = []
    tasks = []
    try:
        for _ in range(replicas):
            nc = await nats.connect(nats_url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)
            conns.append(nc)
            rules = GrpcRules(rules_addr)
            rules_clients.append(rules)
            svc = TableService(EventStore(nc.jetstream()), rules, settings or Settings(), clock=clock,
                               announce=announcer(nc))
            p.replicas.append(svc)
            tasks.append(asyncio.create_task(svc.serve(nc)))
        await asyncio.sleep(0.05)
        for nc in conns:
            await nc.flush()
        yield p
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for rules in rules_clients:
            await rules.close()
        for nc in [*conns, client]:
            await nc.close()
        await rules_server.stop(grace=None)


@asynccontextmanager
async def table_replica(p: Platform, settings: Settings | None = None) -> AsyncIterator[TableService]:
    """One more table service replica on ``p``, answering until the block ends (then it is gone)."""
    nc = await nats.connect(p.nats_url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)
    rules = GrpcRules(p.rules_addr)
    svc = TableService(EventStore(nc.jetstream()), rules, settings or Settings(), clock=p.clock,
                       announce=announcer(nc))
    task = asyncio.create_task(svc.serve(nc))
    try:
        await asyncio.sleep(0.05)
        await nc.flush()
        yield svc
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await rules.close()
        await nc.close()
