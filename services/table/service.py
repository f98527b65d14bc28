"""The table service: commands in over NATS request/reply, events out to JetStream.

Any replica answers any table (one queue group). A replica caches the tables it has folded
and trusts the stream, not its cache: every append names the sequence it decided on, a
conflict reloads and decides again, and a refusal is double-checked against the stream
before it is sent, so a stale cache can neither store nor refuse anything wrongly.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import ClassVar

from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.errors import NoStreamResponseError, ServiceUnavailableError

from maumau.v1 import events_pb2, table_pb2
from services.eventlog.direct import StaleRead
from services.eventlog.store import Conflict
from services.rules.version import ENGINE_VERSION
from services.runtime import metrics, tracing
from services.runtime.commands import CommandService
from services.runtime.refusals import Code, Refused
from services.runtime.settings import ABSENCE_SECONDS, EXPIRY_SECONDS, SOLO_SECONDS, STANDIN_SECONDS
from services.table.decide import Context, Rules, decide
from services.table.domain import Table
from services.table.lobby import changes_lobby
from services.table.repository import tables
from services.table.rules_client import RulesUnavailable
from services.table.store import GENESIS, EventStore


@dataclass
class Settings:
    retries: int = 8
    cache_size: int = 10_000
    absence_seconds: float = ABSENCE_SECONDS
    expiry_seconds: float = EXPIRY_SECONDS
    standin_seconds: float = STANDIN_SECONDS
    solo_seconds: float = SOLO_SECONDS
    concurrency: int = 256


@dataclass
class TableService(CommandService[table_pb2.TableCommand, table_pb2.CommandReply]):
    kind: ClassVar[str] = "table"
    # while the rules service restarts, or a stream elects a leader (its appends meet no responder or time out)
    expected: ClassVar[tuple[type[Exception], ...]] = (RulesUnavailable, NoStreamResponseError, ServiceUnavailableError,
                                                       NoRespondersError, NatsTimeout, StaleRead)
    log: ClassVar[logging.Logger] = logging.getLogger("maumau.table")
    store: EventStore
    rules: Rules
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], float] = time.time
    new_token: Callable[[], str] = lambda: secrets.token_urlsafe(12)
    new_seed: Callable[[], str] = lambda: secrets.token_hex(32)
    announce: Callable[[Table], Awaitable[None]] | None = None  # an open table's lobby changed (lobby.open)

    def __post_init__(self) -> None:
        self.tables = tables(self.store, self.settings.cache_size)

    def parse(self, data: bytes) -> table_pb2.TableCommand:
        return table_pb2.TableCommand.FromString(data)

    def refusal(self, code: str, message: str) -> table_pb2.CommandReply:
        return table_pb2.CommandReply(refusal=table_pb2.Refusal(code=code, message=message))

    def span(self, cmd: table_pb2.TableCommand) -> tuple[str, dict[str, str]]:
        return "table command", {"maumau.table_id": cmd.table_id, "maumau.command": cmd.WhichOneof("command") or ""}

    def forget(self, table_id: str) -> None:
        self.tables.forget(table_id)  # whatever half-folded state there was is not trusted

    @property
    def concurrency(self) -> int:
        return self.settings.concurrency

    async def decide(self, cmd: table_pb2.TableCommand) -> table_pb2.CommandReply:
        t = self.tables.cached(cmd.table_id) or await self.tables.get(cmd.table_id)
        fresh = False
        for _ in range(self.settings.retries):
            if cmd.command_id in t.commands:
                return _done(t, cmd, [t.commands[cmd.command_id]])
            ctx = Context(self.rules, self.clock(), self.new_token, self.new_seed, self.settings.absence_seconds,
                          self.settings.expiry_seconds, self.settings.standin_seconds, self.settings.solo_seconds)
            try:
                events = await decide(t, cmd, ctx)
            except Refused:
                # refused on the table as this replica folded it: once more on the table as the leader has it
                if fresh or not await self.tables.fast_forward_to_leader(t):
                    raise
                fresh = True
                metrics.COMMAND_RETRIES.labels(self.kind).inc()
                continue
            if not events:
                return _done(t, cmd, [])
            # chained to the table's last batch as decided on: a conflict folds the newer one and chains anew
            batch = events_pb2.EventBatch(events=events, previous=_previous(t), previous_seq=t.seq,
                                          engine_version=ENGINE_VERSION)
            try:
                stored, duplicate = await self.store.append(cmd.table_id, batch, t.seq, cmd.command_id,
                                                            tracing.inject())
            except Conflict as c:
                self.stats["conflicts"] += 1
                await self.tables.fast_forward(t, reaching=c.last)
                fresh = True
                metrics.COMMAND_RETRIES.labels(self.kind).inc()
                continue
            if duplicate:
                self.stats["duplicates"] += 1
                await self.tables.fast_forward(t, reaching=stored.seq)
                return _done(t, cmd, [stored.seq])
            self.tables.apply(t, stored)
            self.stats["accepted"] += 1
            if t.open and self.announce is not None and changes_lobby(batch):
                await self.announce(t)
            return _done(t, cmd, [stored.seq])
        raise Refused(Code.CONFLICT_RETRY_EXHAUSTED, "the table kept changing; try again")


def _previous(t: Table) -> bytes:
    """What the table's next batch chains to: its last batch's bytes, as this replica read or stored them."""
    if t.seq == 0:
        return GENESIS
    assert t.head is not None, "the table service folds only batches whose bytes it read or stored"
    return t.head


def _done(t: Table, cmd: table_pb2.TableCommand, seqs: list[int]) -> table_pb2.CommandReply:
    return table_pb2.CommandReply(done=table_pb2.Done(sequences=seqs, seat=t.seat_of(cmd.actor),
                                                       invitation=t.invitation if t.creator == cmd.actor else ""))
