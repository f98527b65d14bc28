"""The stateless Rules gRPC service: every call carries its state, the engine answers.

An illegal action is a normal reply carrying its rejection code; a request whose state
or fields do not make sense is ``INVALID_ARGUMENT`` with a readable message. Nothing a
client sends can stop the server.

Each unary call is a server span of opentelemetry-instrumentation-grpc's interceptor, under the
caller's span (its trace context comes in the call's metadata). The decision stream
(``DecisionBatches``) is not: one lives as long as its client's channel, and each
decision on it is a span of its own under the command that asked for it (its trace context comes in
the call). Health checks make no span:
the kubelet asks every few seconds.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_server_interceptor, filters

from maumau.v1 import rules_pb2, rules_pb2_grpc, state_pb2, views_pb2
from services.rules.decider import Event, deal, decide, evolve
from services.rules.engine import legal_actions, new_match
from services.rules.errors import RuleError
from services.rules.state import State
from services.rules.version import ENGINE_VERSION
from services.rules.views import view
from services.rules.wire import (
    action_from_pb,
    action_to_pb,
    event_to_pb,
    options_from_pb,
    state_from_pb,
    state_to_pb,
    view_to_pb,
)
from services.runtime import metrics, tracing
from services.runtime.lifecycle import setup_logging, start_health

log = logging.getLogger("maumau.rules")
tracer = trace.get_tracer("maumau.rules")
T = TypeVar("T")
SERVICE_NAME = rules_pb2.DESCRIPTOR.services_by_name["Rules"].full_name


class InvalidRequest(Exception):
    """The request does not describe something the engine can work on."""


def _guard(what: str, fn: Callable[[], T]) -> T:
    """Run engine work on client input; anything it cannot digest becomes ``InvalidRequest``."""
    try:
        return fn()
    except RuleError:
        raise
    except Exception as e:  # the engine trusts its state; a client's state may be anything
        raise InvalidRequest(f"{what}: {type(e).__name__}: {e}") from None


def _state(msg: state_pb2.MatchState) -> State:
    return _guard("inconsistent state", lambda: state_from_pb(msg))


def _fold(s: State, events: tuple[Event, ...]) -> State:
    for e in events:
        s = evolve(s, e)
    return s


def _decide(request: rules_pb2.DecideRequest) -> rules_pb2.DecideReply:
    started, result = time.perf_counter(), "invalid"
    try:
        reply = _decided(request)
        result = "accepted" if reply.WhichOneof("result") == "accepted" else "rejected"
        return reply
    finally:
        metrics.DECISIONS.labels(result).inc()
        metrics.DECISION_SECONDS.observe(time.perf_counter() - started)


def _decided(request: rules_pb2.DecideRequest) -> rules_pb2.DecideReply:
    s = _state(request.state)
    if not request.HasField("action"):
        raise InvalidRequest("Decide needs an action")
    try:
        action = action_from_pb(request.action, s.rs.family)
        events = _guard("cannot decide", lambda: decide(s, action))
    except RuleError as e:
        return rules_pb2.DecideReply(rejection=rules_pb2.Rejection(code=e.code, message=str(e)))
    accepted = rules_pb2.Accepted(events=[event_to_pb(e, s.rs.family) for e in events])
    if request.with_state:
        accepted.state.CopyFrom(state_to_pb(_guard("cannot evolve", lambda: _fold(s, events))))
    return rules_pb2.DecideReply(accepted=accepted)


def _answer(call: rules_pb2.DecideCall) -> rules_pb2.DecideAnswer:
    """One call of a stream, decided: a span of its own when its command's span is recorded."""
    if not call.trace:  # the common case: nothing records it, and a span per move would cost CPU
        return _answered(call)
    with tracer.start_as_current_span("decide", context=tracing.extract(call.trace), kind=trace.SpanKind.SERVER):
        return _answered(call)


def _answered(call: rules_pb2.DecideCall) -> rules_pb2.DecideAnswer:
    try:
        return rules_pb2.DecideAnswer(id=call.id, reply=_decide(call.request))
    except InvalidRequest as e:
        return rules_pb2.DecideAnswer(id=call.id, invalid=str(e))


class RulesService(rules_pb2_grpc.RulesServicer):  # type: ignore[misc]  # generated, untyped
    async def NewMatch(self, request: rules_pb2.NewMatchRequest,
                       context: grpc.aio.ServicerContext) -> state_pb2.MatchState:
        try:
            s = _guard("bad match", lambda: new_match(request.ruleset, request.seats,
                                                      options_from_pb(request.options)))
        except InvalidRequest as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        return state_to_pb(s)

    async def NewRound(self, request: rules_pb2.NewRoundRequest,
                       context: grpc.aio.ServicerContext) -> rules_pb2.NewRoundReply:
        try:
            s = _state(request.state)
            if len(request.seed) != 64:
                raise InvalidRequest("the seed is 64 hex digits")
            dealt = _guard("bad seed", lambda: deal(s, request.seed, request.table_id, request.round_no))
            after = _guard("cannot deal", lambda: evolve(s, dealt))
        except InvalidRequest as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        return rules_pb2.NewRoundReply(event=event_to_pb(dealt, s.rs.family, request.table_id),
                                       state=state_to_pb(after), engine_version=ENGINE_VERSION)

    async def Decide(self, request: rules_pb2.DecideRequest,
                     context: grpc.aio.ServicerContext) -> rules_pb2.DecideReply:
        try:
            return _decide(request)
        except InvalidRequest as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))

    async def DecisionBatches(self, batches: AsyncIterator[rules_pb2.DecideCalls],
                              context: grpc.aio.ServicerContext) -> AsyncIterator[rules_pb2.DecideAnswers]:
        async for batch in batches:
            yield rules_pb2.DecideAnswers(answers=[_answer(call) for call in batch.calls],
                                          engine_version=ENGINE_VERSION)

    async def LegalActions(self, request: rules_pb2.LegalActionsRequest,
                           context: grpc.aio.ServicerContext) -> rules_pb2.LegalActionsReply:
        try:
            s = _state(request.state)
            if not 0 <= request.seat < s.n:
                raise InvalidRequest("no such seat")
            actions = _guard("cannot list", lambda: list(legal_actions(s, request.seat)))
        except InvalidRequest as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        return rules_pb2.LegalActionsReply(actions=[action_to_pb(a, s.rs.family) for a in actions])

    async def GetView(self, request: rules_pb2.ViewRequest,
                      context: grpc.aio.ServicerContext) -> views_pb2.View:
        try:
            s = _state(request.state)
            seat = request.seat if request.HasField("seat") else None
            if seat is not None and not 0 <= seat < s.n:
                raise InvalidRequest("no such seat")
            v = _guard("cannot view", lambda: view(s, seat))
        except InvalidRequest as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        return view_to_pb(v)


def _call_spans() -> grpc.aio.ServerInterceptor:
    untraced = filters.any_of(filters.method_name("DecisionBatches"),
                                filters.health_check())
    interceptor: grpc.aio.ServerInterceptor = aio_server_interceptor(  # type: ignore[no-untyped-call]
        filter_=filters.negate(untraced))  # the library has no annotations
    return interceptor


async def start(host: str, port: int) -> tuple[grpc.aio.Server, int]:
    """Start a server with health and reflection; returns it and the port it listens on."""
    server = grpc.aio.server(interceptors=[_call_spans()])
    rules_pb2_grpc.add_RulesServicer_to_server(RulesService(), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (SERVICE_NAME, reflection.SERVICE_NAME, health.SERVICE_NAME)
    reflection.enable_server_reflection(names, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    for name in (SERVICE_NAME, ""):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, bound


async def serve(host: str, port: int, health_port: int = 0) -> None:
    """Serve until SIGINT/SIGTERM, then drain in-flight calls; /metrics on ``health_port`` (0: none)."""
    setup_logging("rules")
    tracing.setup("rules")
    server, bound = await start(host, port)
    log.info("rules service listening on %s:%d", host, bound)

    async def serving() -> bool:
        return True  # the gRPC health service says more: this port is for /metrics

    health_runner = await start_health(health_port, serving)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop(grace=5)
        if health_runner is not None:
            await health_runner.cleanup()
        log.info("rules service stopped")

