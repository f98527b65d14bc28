"""The table service's rules client: decisions over one gRPC stream, against a real rules server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import grpc
import pytest

from maumau.v1 import actions_pb2, rules_pb2, rules_pb2_grpc
from services.rules.decider import deal, evolve
from services.rules.engine import legal_actions, new_match
from services.rules.server import RulesService, start
from services.rules.state import State
from services.rules.wire import action_to_pb
from services.runtime.refusals import Refused
from services.table.rules_client import GrpcRules, RulesUnavailable

SEED = "5e" * 32


def _dealt() -> State:
    s = new_match("classic32", 3)
    return evolve(s, deal(s, SEED, "t1", 0))


def _legal(s: State) -> actions_pb2.Action:
    return action_to_pb(next(iter(legal_actions(s, s.turn))), s.rs.family)


@pytest.fixture
async def served() -> AsyncIterator[int]:
    server, port = await start("127.0.0.1", 0)
    try:
        yield port
    finally:
        await server.stop(grace=None)


async def test_concurrent_decisions_on_one_stream_each_get_their_own_answer(served: int) -> None:
    s = _dealt()
    rules = GrpcRules(f"127.0.0.1:{served}")
    wrong = actions_pb2.Action(do="pass", seat=(s.turn + 1) % s.n)
    try:
        results = await asyncio.gather(*(rules.decide(s, _legal(s) if i % 2 else wrong) for i in range(40)),
                                       return_exceptions=True)
    finally:
        await rules.close()
    for i, result in enumerate(results):
        if i % 2:
            assert isinstance(result, list) and result[0].action_taken.action == _legal(s)
        else:
            assert isinstance(result, Refused) and result.code == "not_your_turn"


class _Counting(RulesService):
    """The rules service, noting how many calls each message of the batched stream carried."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    async def DecisionBatches(self, batches: AsyncIterator[rules_pb2.DecideCalls],
                              context: grpc.aio.ServicerContext) -> AsyncIterator[rules_pb2.DecideAnswers]:
        async def noted() -> AsyncIterator[rules_pb2.DecideCalls]:
            async for batch in batches:
                self.batches.append(len(batch.calls))
                yield batch
        async for answers in super().DecisionBatches(noted(), context):
            yield answers


async def test_decisions_asked_together_travel_together() -> None:
    counting = _Counting()
    server = grpc.aio.server()
    rules_pb2_grpc.add_RulesServicer_to_server(counting, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    s = _dealt()
    rules = GrpcRules(f"127.0.0.1:{port}")
    try:
        together = await asyncio.gather(*(rules.decide(s, _legal(s)) for _ in range(40)))
        alone = await rules.decide(s, _legal(s))
    finally:
        await rules.close()
        await server.stop(grace=None)
    assert all(events == alone for events in together)
    assert sum(counting.batches) == 41 and len(counting.batches) < 10 and counting.batches[-1] == 1


@asynccontextmanager
async def _used_once() -> AsyncIterator[tuple[grpc.aio.Server, int, GrpcRules]]:
    """A rules server and a client whose stream has answered one decision."""
    server, port = await start("127.0.0.1", 0)
    rules = GrpcRules(f"127.0.0.1:{port}")
    try:
        s = _dealt()
        assert await rules.decide(s, _legal(s))
        yield server, port, rules
    finally:
        await rules.close()
        await server.stop(grace=None)


async def test_a_restarted_rules_service_is_asked_again_on_a_fresh_stream() -> None:
    s = _dealt()
    async with _used_once() as (server, port, rules):
        await server.stop(grace=None)
        restarted, _ = await start("127.0.0.1", port)
        try:
            events = await rules.decide(s, _legal(s))
        finally:
            await restarted.stop(grace=None)
    assert events[0].action_taken.action == _legal(s)


async def test_without_a_rules_service_a_decision_fails_with_a_clear_error() -> None:
    s = _dealt()
    async with _used_once() as (server, _, rules):
        await server.stop(grace=None)
        with pytest.raises(RulesUnavailable, match="rules service"):
            await rules.decide(s, _legal(s))


async def test_a_rules_service_that_stops_answering_fails_the_decision_after_the_timeout() -> None:
    async def silent(calls: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
        async for _ in calls:
            pass
        yield b""  # never reached while the client keeps the stream open

    server = grpc.aio.server()
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        "maumau.v1.Rules", {"DecisionBatches": grpc.stream_stream_rpc_method_handler(silent)}),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    s = _dealt()
    rules = GrpcRules(f"127.0.0.1:{port}", timeout=0.3)
    try:
        with pytest.raises(RulesUnavailable, match=r"did not answer within 0\.3 s"):
            await rules.decide(s, _legal(s))
    finally:
        await rules.close()
        await server.stop(grace=None)
