"""The table service: commands in over NATS request/reply, events out to JetStream.

Any replica answers any table (one queue group). A replica caches the tables it has folded
and trusts the stream, not its cache: every append names the sequence it decided on, a
conflict reloads and decides again, and a refusal is double-checked against the stream
before it is sent, so a stale cache can neither store nor refuse anything wrongly.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from opentelemetry import trace

from maumau.v1 import events_pb2, table_pb2
from services.runtime import tracing
from services.runtime.requests import answer
from services.table.domain import Context, Refused, Rules, Table, decide
from services.table.repository import tables
from services.table.rules_client import RulesUnavailable
from services.table.store import Conflict, EventStore, Stored

log = logging.getLogger("maumau.table")
COMMANDS = "cmd.table.*"
QUEUE = "table"
tracer = trace.get_tracer("maumau.table")
UNAVAILABLE = table_pb2.CommandReply(refusal=table_pb2.Refusal(
    code="unavailable", message="the table could not take the command now; send it again"))


def command_subject(table_id: str) -> str:
    return f"cmd.table.{table_id}"


@dataclass
class Settings:
    retries: int = 8
    cache_size: int = 10_000
    absence_seconds: float = 48 * 3600
    expiry_seconds: float = 7 * 24 * 3600
    rematch_seconds: float = 3600
    concurrency: int = 256


@dataclass
class TableService:
    store: EventStore
    rules: Rules
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], float] = time.time
    new_token: Callable[[], str] = lambda: secrets.token_urlsafe(12)
    new_seed: Callable[[], str] = lambda: secrets.token_hex(32)
    stats: Counter[str] = field(default_factory=Counter)  # accepted, refused, conflicts, duplicates
    answering: asyncio.Event = field(default_factory=asyncio.Event)  # readiness: subscribed to the commands
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)

    def __post_init__(self) -> None:
        self.tables = tables(self.store, self.settings.cache_size)

    async def handle(self, cmd: table_pb2.TableCommand,
                     headers: dict[str, str] | None = None) -> table_pb2.CommandReply:
        lock = self.locks.get(cmd.table_id)
        if lock is None:
            lock = self.locks[cmd.table_id] = asyncio.Lock()
        span = tracer.start_as_current_span("table command", context=tracing.extract(headers),
                                            kind=trace.SpanKind.SERVER,
                                            attributes={"maumau.table_id": cmd.table_id,
                                                        "maumau.command": cmd.WhichOneof("command") or ""})
        async with lock:
            try:
                with span:
                    return await self._handle(cmd)
            except Refused as r:
                self.stats["refused"] += 1
                log.info("refused %s on table %s by %s: %s", cmd.WhichOneof("command"), cmd.table_id, cmd.actor,
                         r.code)
                return table_pb2.CommandReply(refusal=table_pb2.Refusal(code=r.code, message=str(r)))
            except Exception:
                self.tables.forget(cmd.table_id)  # whatever half-folded state there was is not trusted
                raise

    async def _handle(self, cmd: table_pb2.TableCommand) -> table_pb2.CommandReply:
        if not cmd.command_id or not cmd.table_id or not cmd.actor:
            raise Refused("bad_request", "a command needs a command id, a table id and an actor")
        t = self.tables.cached(cmd.table_id) or await self.tables.get(cmd.table_id)
        fresh = False
        for _ in range(self.settings.retries):
            if cmd.command_id in t.commands:
                return _done(t, cmd, [t.commands[cmd.command_id]])
            ctx = Context(self.rules, self.clock(), self.new_token, self.new_seed, self.settings.absence_seconds,
                          self.settings.expiry_seconds, self.settings.rematch_seconds)
            try:
                events = await decide(t, cmd, ctx)
            except Refused:
                if fresh or not await self.tables.fast_forward(t):
                    raise
                fresh = True
                continue
            if not events:
                return _done(t, cmd, [])
            batch = events_pb2.EventBatch(events=events)
            try:
                seq, duplicate = await self.store.append(cmd.table_id, batch, t.seq, cmd.command_id, tracing.inject())
            except Conflict:
                self.stats["conflicts"] += 1
                await self.tables.fast_forward(t)
                fresh = True
                continue
            if duplicate:
                self.stats["duplicates"] += 1
                await self.tables.fast_forward(t)
                return _done(t, cmd, [seq])
            self.tables.apply(t, Stored(seq, batch))
            self.stats["accepted"] += 1
            return _done(t, cmd, [seq])
        raise Refused("conflict_retry_exhausted", "the table kept changing; try again")

    async def serve(self, nc: NATS) -> None:
        """Answer commands until cancelled."""
        await answer(nc, COMMANDS, QUEUE, self._reply, self.settings.concurrency, self.answering)

    async def _reply(self, msg: Msg) -> None:
        table_id = msg.subject.rsplit(".", 1)[-1]
        try:
            cmd = table_pb2.TableCommand.FromString(msg.data)
        except DecodeError:
            reply = table_pb2.CommandReply(refusal=table_pb2.Refusal(code="bad_request",
                                                                      message="the command is not a TableCommand"))
        else:
            if cmd.table_id and cmd.table_id != table_id:
                reply = table_pb2.CommandReply(refusal=table_pb2.Refusal(
                    code="bad_request", message="the command's table is not the subject's"))
            else:
                cmd.table_id = table_id
                try:
                    reply = await self.handle(cmd, dict(msg.headers or {}))
                except RulesUnavailable as e:  # expected while the rules service restarts: no traceback
                    log.warning("command %s on table %s not decided: %s", cmd.command_id, table_id, e)
                    reply = UNAVAILABLE
                except Exception:
                    log.exception("command %s on table %s failed", cmd.command_id, table_id)
                    reply = UNAVAILABLE
        if msg.reply:
            await msg.respond(reply.SerializeToString())


def _done(t: Table, cmd: table_pb2.TableCommand, seqs: list[int]) -> table_pb2.CommandReply:
    return table_pb2.CommandReply(done=table_pb2.Done(sequences=seqs, seat=t.seat_of(cmd.actor),
                                                       invitation=t.invitation if t.creator == cmd.actor else ""))
