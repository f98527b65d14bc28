"""The table service's way to the stateless rules service: gRPC, with rejections as ``Refused``.

Decisions, one per move, go over one long-lived ``DecisionBatches`` stream rather than a call
each: a unary call's set-up costs as much CPU as the message it carries, and the decisions that
wait at one moment go as one message (``_Stream``). A decision is pure, so one that meets a
broken stream (the rules service restarted, a replica went away) is asked again once on a
fresh stream. A decision carries the trace context of the command's
span when that span is recorded; the rules service then records its own under it. The unary calls
(a new round) are spans of opentelemetry-instrumentation-grpc's client interceptor, their trace
context in the call's metadata; the stream is not: it lives as long as the channel, its messages
are the moves of many commands, each in its own trace.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import grpc
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_client_interceptors

from maumau.v1 import actions_pb2, events_pb2, rules_pb2, rules_pb2_grpc
from services.rules.state import State
from services.rules.version import ENGINE_VERSION
from services.rules.wire import state_fields, state_to_pb
from services.runtime import tracing
from services.runtime.refusals import Refused

log = logging.getLogger("maumau.table.rules")


class RulesUnavailable(Exception):
    """The rules service could not be asked (or refused the request as malformed)."""


class _Broken(Exception):
    """The stream broke before the answer came: the question may be asked again on a fresh one."""


class _Late(Exception):
    """No answer came in time."""


def _skew(answered_by: str) -> RulesUnavailable | None:
    """Why an answer of the rules engine ``answered_by`` may not be stored by this table service, if it may not.

    Every batch is stamped with this image's ``ENGINE_VERSION``, and ``maumau verify`` re-decides it with
    that engine: a decision of another version stored under it would be a record that lies (or fails
    verification for no fault of the table). So it is refused as ``unavailable``: the command changes
    nothing and is sent again, until this replica reaches a rules service of its own version (a
    rolling upgrade's skew; docs/operations.md, "Upgrade"). An empty version is a rules service older
    than the field, which cannot say: taken, as before it.

    >>> _skew(ENGINE_VERSION) is None, _skew("") is None, isinstance(_skew(ENGINE_VERSION + "+1"), RulesUnavailable)
    (True, True, True)
    """
    if answered_by in ("", ENGINE_VERSION):
        return None
    return RulesUnavailable(f"the rules service runs engine version {answered_by!r}, "
                            f"this table service stamps {ENGINE_VERSION!r}")


def _expire(waiter: asyncio.Future[rules_pb2.DecideAnswer]) -> None:
    if not waiter.done():
        waiter.set_exception(_Late())


class _Stream:
    """One open ``DecisionBatches`` stream: its calls waiting to be sent and for their answers, and the
    tasks writing and reading them.

    A call is queued, not written: the writer sends every call queued by the time it runs as one
    message, and while a write is under way the next calls gather for the next message. gRPC's
    CPU goes per message (its C core's completion, a hand-over to the event loop, on both sides),
    so commands that wait together cost about one call's gRPC work, and a lone command waits for
    nothing (the writer runs as soon as the task that queued it yields).
    """

    def __init__(self, stub: rules_pb2_grpc.RulesStub):
        self.call = stub.DecisionBatches()
        self.waiting: dict[int, asyncio.Future[rules_pb2.DecideAnswer]] = {}
        self.queued = rules_pb2.DecideCalls()  # built in place: a call is copied into no other message
        self.wanted = asyncio.Event()  # calls are queued
        self.broken = False
        self.writer = asyncio.create_task(self._write())
        self.reader = asyncio.create_task(self._read())

    async def _write(self) -> None:
        try:
            while True:
                await self.wanted.wait()
                self.wanted.clear()
                batch, self.queued = self.queued, rules_pb2.DecideCalls()
                await self.call.write(batch)
        except (grpc.RpcError, grpc.aio.UsageError, asyncio.InvalidStateError):
            pass  # the stream ended: its reader says why
        finally:
            self._break()

    async def _read(self) -> None:
        try:
            async for batch in self.call:
                skewed = _skew(batch.engine_version)
                for answer in batch.answers:
                    waiter = self.waiting.get(answer.id)
                    if waiter is not None and not waiter.done():
                        if skewed is None:
                            waiter.set_result(answer)
                        else:
                            waiter.set_exception(skewed)
        except grpc.aio.AioRpcError as e:
            if e.code() != grpc.StatusCode.CANCELLED:  # cancelled: we closed it
                log.warning("the stream to the rules service ended: %s", e.code().name)
        finally:
            self._break()

    def _break(self) -> None:
        """No answer will come on this stream: its waiting calls may be asked again on a fresh one."""
        self.broken = True
        for waiter in self.waiting.values():
            if not waiter.done():
                waiter.set_exception(_Broken())

    async def ask(self, call_id: int, request: dict[str, Any], context: dict[str, str],
                  timeout: float) -> rules_pb2.DecideAnswer:
        """The answer to ``DecideRequest(**request)``; ``context``: the trace context it goes with."""
        if self.broken:
            raise _Broken()
        self.queued.calls.add(id=call_id, request=request, trace=context)  # raises if the request cannot be sent
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[rules_pb2.DecideAnswer] = loop.create_future()
        self.waiting[call_id] = waiter
        self.wanted.set()
        # a bare timer, not asyncio.timeout: this runs once per move, and the waiter is all there is to end
        late = loop.call_later(timeout, _expire, waiter)
        try:
            return await waiter
        except _Late:
            self.broken = True  # a stream that stopped answering is not asked again
            raise RulesUnavailable(f"the rules service did not answer within {timeout} s") from None
        finally:
            late.cancel()
            del self.waiting[call_id]

    def abandon(self) -> None:
        """Stop it (its reader then ends by itself, failing what still waits)."""
        self.call.cancel()
        self.writer.cancel()

    async def close(self) -> None:
        self.abandon()
        self.reader.cancel()
        await asyncio.gather(self.reader, self.writer, return_exceptions=True)


def _unary_call_spans() -> list[grpc.aio.ClientInterceptor]:
    """The library's interceptor of unary calls only: a channel without a stream interceptor leaves its
    streams' messages as they are (an intercepted stream's writes go through a queue of its own)."""
    every = aio_client_interceptors()  # type: ignore[no-untyped-call]  # the library has no annotations
    return [i for i in every if isinstance(i, grpc.aio.UnaryUnaryClientInterceptor)]


class GrpcRules:
    def __init__(self, addr: str, timeout: float = 5.0):
        self.channel = grpc.aio.insecure_channel(addr, interceptors=_unary_call_spans())
        self.stub = rules_pb2_grpc.RulesStub(self.channel)
        self.timeout = timeout
        self.ids = itertools.count(1)
        self.stream: _Stream | None = None

    async def decide(self, state: State, action: actions_pb2.Action) -> list[events_pb2.Event]:
        answer = await self._ask({"state": state_fields(state), "action": action})
        if answer.WhichOneof("result") == "invalid":
            raise RulesUnavailable(f"the rules service found the request malformed: {answer.invalid}")
        reply = answer.reply
        if reply.WhichOneof("result") == "rejection":
            raise Refused(reply.rejection.code, reply.rejection.message)
        return list(reply.accepted.events)

    async def _ask(self, request: dict[str, Any]) -> rules_pb2.DecideAnswer:
        """The answer to ``DecideRequest(**request)``."""
        # the trace context goes along only when someone records it: formatting it costs CPU per move
        sampled = trace.get_current_span().get_span_context().trace_flags.sampled
        context = tracing.inject() if sampled else {}
        for _ in range(2):  # a broken stream is replaced once
            try:
                return await self._stream().ask(next(self.ids), request, context, self.timeout)
            except _Broken:
                continue
        raise RulesUnavailable("the stream to the rules service broke twice in a row")

    def _stream(self) -> _Stream:
        """The open stream, or a new one in place of a broken one (no await: concurrent askers share it)."""
        if self.stream is None or self.stream.broken:
            if self.stream is not None:
                self.stream.abandon()
            self.stream = _Stream(self.stub)
        return self.stream

    async def new_round(self, state: State, seed: str, table_id: str, round_no: int) -> events_pb2.Event:
        reply = await self.stub.NewRound(rules_pb2.NewRoundRequest(state=state_to_pb(state), seed=seed,
                                                                   table_id=table_id, round_no=round_no),
                                         timeout=self.timeout)
        skewed = _skew(reply.engine_version)
        if skewed is not None:
            raise skewed
        return reply.event

    async def close(self) -> None:
        if self.stream is not None:
            await self.stream.close()
        await self.channel.close()
