"""Services that answer commands about tables over NATS (the table service and the chat today).

A command of kind ``K`` about table ``T`` is a request on ``cmd.K.T`` (``subjects``); any
replica answers (one queue group). The base does what every such service does: decode the
command, check it names the subject's table, take the table's lock (one command of a table
at a time in a replica), open the server span under the sender's trace, turn ``Refused``
into a refusing reply, and answer ``unavailable`` when something failed (the sender may
send the same command again: commands are idempotent by id). A service keeps only its
policy: ``decide`` one command, and spell its replies.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar, Generic, Protocol, TypeVar

from google.protobuf.message import DecodeError
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from opentelemetry import trace

from services.runtime import logs, metrics, subjects, tracing
from services.runtime.refusals import Code, Refused
from services.runtime.requests import answer


class Command(Protocol):
    command_id: str
    table_id: str
    actor: str

    def SerializeToString(self) -> bytes: ...


class Reply(Protocol):
    def SerializeToString(self) -> bytes: ...


C = TypeVar("C", bound=Command)
R = TypeVar("R", bound=Reply)


@functools.cache
def _tracer(kind: str) -> trace.Tracer:
    """A service's tracer, made once: making one per command cost 3 % of the table service's CPU."""
    return trace.get_tracer(f"maumau.{kind}")


@dataclass(kw_only=True)
class CommandService(Generic[C, R]):
    kind: ClassVar[str]  # commands come on cmd.<kind>.<table_id>
    expected: ClassVar[tuple[type[Exception], ...]] = ()  # failures worth a warning, not a traceback
    log: ClassVar[logging.Logger]
    stats: Counter[str] = field(default_factory=Counter)
    answering: asyncio.Event = field(default_factory=asyncio.Event)  # readiness: subscribed to the commands
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)

    # the policy of a service

    def parse(self, data: bytes) -> C:
        """The command in a request (raises DecodeError)."""
        raise NotImplementedError

    async def decide(self, cmd: C) -> R:
        """The reply to an accepted command (raises ``Refused``)."""
        raise NotImplementedError

    def refusal(self, code: str, message: str) -> R:
        raise NotImplementedError

    def span(self, cmd: C) -> tuple[str, dict[str, str]]:
        """The server span's name and attributes (never a secret: no text, no token)."""
        return f"{self.kind} command", {"maumau.table_id": cmd.table_id}

    def forget(self, table_id: str) -> None:
        """Drop what is cached of a table after a command failed half-way."""

    @property
    def concurrency(self) -> int:
        return 256

    # what every service does

    async def handle(self, cmd: C, headers: dict[str, str] | None = None) -> R:
        """The reply to one command, decided while no other command of its table is."""
        lock = self.locks.get(cmd.table_id)
        if lock is None:
            lock = self.locks[cmd.table_id] = asyncio.Lock()
        name, attributes = self.span(cmd)
        span = _tracer(self.kind).start_as_current_span(
            name, context=tracing.extract(headers), kind=trace.SpanKind.SERVER, attributes=attributes)
        what = attributes.get("maumau.command") or self.kind
        # the log lines of a table's command name the table (an account's request names none)
        named = logs.TABLE_ID.set(attributes.get("maumau.table_id", ""))
        started, result = time.perf_counter(), "unavailable"
        try:
            async with lock:
                try:
                    with span:
                        if not cmd.command_id or not cmd.table_id or not cmd.actor:
                            raise Refused(Code.BAD_REQUEST, "a command needs a command id, a table id and an actor")
                        reply = await self.decide(cmd)
                        result = "done"
                        return reply
                except Refused as r:
                    self.stats["refused"] += 1
                    result = r.code
                    self.log.info("refused %s on table %s by %s: %s", what, cmd.table_id, cmd.actor, r.code)
                    return self.refusal(r.code, str(r))
                except Exception:
                    self.forget(cmd.table_id)
                    raise
        finally:
            elapsed = time.perf_counter() - started
            metrics.command_answered(self.kind, what, result, elapsed)
            self.log.debug("%s %s by %s: %s in %.1f ms", what, cmd.command_id, cmd.actor, result, elapsed * 1000)
            logs.TABLE_ID.reset(named)

    async def serve(self, nc: NATS) -> None:
        """Answer commands until cancelled."""
        self._zero_metrics()
        await answer(nc, subjects.commands(self.kind), self.kind, self._reply, self.concurrency, self.answering)

    async def _reply(self, msg: Msg) -> None:
        table_id = subjects.table_of(msg.subject)
        reply: R
        try:
            cmd = self.parse(msg.data)
        except DecodeError:
            metrics.COMMANDS.labels(self.kind, "other", "bad_request").inc()
            reply = self.refusal("bad_request", f"not a {self.kind} command")
        else:
            if cmd.table_id and cmd.table_id != table_id:
                metrics.COMMANDS.labels(self.kind, "other", "bad_request").inc()
                reply = self.refusal("bad_request", "the command's table is not the subject's")
            else:
                cmd.table_id = table_id
                try:
                    reply = await self.handle(cmd, dict(msg.headers or {}))
                except self.expected as e:
                    self.log.warning("command %s on table %s not taken: %s", cmd.command_id, table_id, e)
                    reply = self._unavailable()
                except Exception:
                    self.log.exception("command %s on table %s failed", cmd.command_id, table_id)
                    reply = self._unavailable()
        if msg.reply:
            await msg.respond(reply.SerializeToString())

    def _zero_metrics(self) -> None:
        """Every kind of command this service takes, done zero times: a rate sees its first ones.

        The kinds are the fields of the command's oneof (``TableCommand.command``, …), else the service's kind.
        """
        try:
            descriptor = getattr(self.parse(b""), "DESCRIPTOR", None)
        except Exception:  # a parser that wants more than nothing: the service's kind alone
            descriptor = None
        kinds = [f.name for o in descriptor.oneofs for f in o.fields] if descriptor is not None else []
        for command in kinds or [self.kind]:
            metrics.COMMANDS.labels(self.kind, metrics.code(command), "done")
            metrics.COMMAND_SECONDS.labels(self.kind, metrics.code(command))

    def _unavailable(self) -> R:
        return self.refusal("unavailable", f"the {self.kind} service could not take the command now; send it again")
