"""The rules service over real gRPC on a loopback port."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from maumau.v1 import actions_pb2, rules_pb2, rules_pb2_grpc, state_pb2
from services.rules.applying import apply
from services.rules.engine import legal_actions, new_match, start_round
from services.rules.server import SERVICE_NAME, start
from services.rules.wire import option_to_pb, state_to_pb

SEED = "5e" * 32


@pytest.fixture
async def stub() -> AsyncIterator[rules_pb2_grpc.RulesStub]:
    server, port = await start("127.0.0.1", 0)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield rules_pb2_grpc.RulesStub(channel)
    finally:
        await channel.close()
        await server.stop(grace=None)


async def _dealt(stub: rules_pb2_grpc.RulesStub, ruleset: str = "classic32", seats: int = 3) -> state_pb2.MatchState:
    match = await stub.NewMatch(rules_pb2.NewMatchRequest(ruleset=ruleset, seats=seats))
    reply = await stub.NewRound(rules_pb2.NewRoundRequest(state=match, seed=SEED, table_id="t1", round_no=0))
    return reply.state


async def test_health_reports_serving(stub: rules_pb2_grpc.RulesStub) -> None:
    server, port = await start("127.0.0.1", 0)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for name in ("", SERVICE_NAME):
                reply = await health.Check(health_pb2.HealthCheckRequest(service=name))
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        await server.stop(grace=None)


async def test_new_round_deals_and_commits_to_the_seed(stub: rules_pb2_grpc.RulesStub) -> None:
    match = await stub.NewMatch(rules_pb2.NewMatchRequest(ruleset="colors108", seats=4))
    reply = await stub.NewRound(rules_pb2.NewRoundRequest(state=match, seed=SEED, table_id="t1", round_no=0))
    dealt = reply.event.round_dealt
    assert reply.event.type == "RoundDealt" and reply.event.schema_version == 1
    assert [len(h.cards) for h in dealt.hands] == [7, 7, 7, 7]
    assert len(dealt.commitment) == 64 and dealt.seed == SEED
    assert [len(h.cards) for h in reply.state.hands] == [7, 7, 7, 7]


async def test_decide_round_trips_a_legal_action(stub: rules_pb2_grpc.RulesStub) -> None:
    state = await _dealt(stub)
    legal = await stub.LegalActions(rules_pb2.LegalActionsRequest(state=state, seat=state.turn))
    reply = await stub.Decide(rules_pb2.DecideRequest(state=state, action=legal.actions[0], with_state=True))
    assert reply.WhichOneof("result") == "accepted"
    event = reply.accepted.events[0]
    assert event.type == "ActionTaken" and event.action_taken.action == legal.actions[0]
    assert reply.accepted.state != state
    lean = await stub.Decide(rules_pb2.DecideRequest(state=state, action=legal.actions[0]))
    assert not lean.accepted.HasField("state") and lean.accepted.events == reply.accepted.events


async def test_an_illegal_action_is_a_rejection_not_an_error(stub: rules_pb2_grpc.RulesStub) -> None:
    state = await _dealt(stub)
    other = (state.turn + 1) % state.seats
    reply = await stub.Decide(rules_pb2.DecideRequest(state=state, action=actions_pb2.Action(do="pass", seat=other)))
    assert reply.rejection.code == "not_your_turn"
    bad = await stub.Decide(rules_pb2.DecideRequest(
        state=state, action=actions_pb2.Action(do="play", seat=state.turn, card="R7")))
    assert bad.rejection.code == "bad_request" and "R7" in bad.rejection.message


async def test_malformed_state_is_invalid_argument(stub: rules_pb2_grpc.RulesStub) -> None:
    state = await _dealt(stub)
    broken = state_pb2.MatchState()
    broken.CopyFrom(state)
    del broken.hands[0]
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.Decide(rules_pb2.DecideRequest(state=broken, action=actions_pb2.Action(do="draw", seat=0)))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "seats" in (err.value.details() or "")


async def _three_calls(stub: rules_pb2_grpc.RulesStub) -> list[rules_pb2.DecideCall]:
    """Calls 7, 8 and 9: a legal move, the same on a malformed state, a pass out of turn."""
    state = await _dealt(stub)
    legal = await stub.LegalActions(rules_pb2.LegalActionsRequest(state=state, seat=state.turn))
    other = (state.turn + 1) % state.seats
    broken = state_pb2.MatchState()
    broken.CopyFrom(state)
    del broken.hands[0]
    return [rules_pb2.DecideCall(id=7, request=rules_pb2.DecideRequest(state=state, action=legal.actions[0])),
             rules_pb2.DecideCall(id=8, request=rules_pb2.DecideRequest(state=broken, action=legal.actions[0])),
             rules_pb2.DecideCall(id=9, request=rules_pb2.DecideRequest(
                 state=state, action=actions_pb2.Action(do="pass", seat=other)))]


async def test_the_batched_stream_answers_a_batch_in_one_message_by_id_and_outlives_a_malformed_call(
        stub: rules_pb2_grpc.RulesStub) -> None:
    calls = await _three_calls(stub)
    stream = stub.DecisionBatches()
    await stream.write(rules_pb2.DecideCalls(calls=calls))
    first = await stream.read()
    await stream.write(rules_pb2.DecideCalls(calls=calls[:1]))  # the stream goes on after a malformed call
    second = await stream.read()
    await stream.done_writing()
    assert [a.id for a in first.answers] == [7, 8, 9] and [a.id for a in second.answers] == [7]
    assert first.answers[0].reply == second.answers[0].reply == await stub.Decide(calls[0].request)
    assert first.answers[1].WhichOneof("result") == "invalid" and "seats" in first.answers[1].invalid
    assert first.answers[2].reply.rejection.code == "not_your_turn"


@pytest.mark.parametrize("mutate", ["unknown_ruleset", "card_name", "turn", "seed", "option"])
async def test_garbage_never_crashes_the_server(stub: rules_pb2_grpc.RulesStub, mutate: str) -> None:
    state = await _dealt(stub)
    broken = state_pb2.MatchState()
    broken.CopyFrom(state)
    if mutate == "unknown_ruleset":
        broken.ruleset = "poker"
    elif mutate == "card_name":
        broken.stock[0] = "ZZ"
    elif mutate == "turn":
        broken.turn = 99
    elif mutate == "seed":
        broken.seed = "not hex"
    else:
        broken.options["bogus"].CopyFrom(option_to_pb(True))
    for call in (
        stub.Decide(rules_pb2.DecideRequest(state=broken, action=actions_pb2.Action(do="draw", seat=0))),
        stub.GetView(rules_pb2.ViewRequest(state=broken, seat=0)),
        stub.NewRound(rules_pb2.NewRoundRequest(state=broken, seed=SEED)),
    ):
        try:
            await call
        except grpc.aio.AioRpcError as e:
            assert e.code() == grpc.StatusCode.INVALID_ARGUMENT
    # the server is still there and answers the good state
    assert (await stub.GetView(rules_pb2.ViewRequest(state=state, seat=0))).ruleset == "classic32"


async def test_a_view_shows_only_the_own_hand(stub: rules_pb2_grpc.RulesStub) -> None:
    state = await _dealt(stub)
    mine = await stub.GetView(rules_pb2.ViewRequest(state=state, seat=1))
    assert sorted(mine.hand) == sorted(state.hands[1].cards)
    assert list(mine.hand_sizes) == [5, 5, 5] and mine.stock == len(state.stock)
    spectator = await stub.GetView(rules_pb2.ViewRequest(state=state))
    assert not spectator.HasField("seat") and not spectator.hand and not spectator.legal_actions


async def test_a_view_at_a_rounds_end_shows_every_hand_and_what_the_round_did(stub: rules_pb2_grpc.RulesStub) -> None:
    s = new_match("candeias", 2)
    start_round(s, 1, 0, [["JH"], ["2D", "3D"]], "5H", ["4C", "4S", "6C", "6S"])
    apply(s, next(a for a in legal_actions(s, 0) if a.card is not None))  # out with a Jack: the points doubled
    assert s.round_over
    seen = await stub.GetView(rules_pb2.ViewRequest(state=state_to_pb(s), seat=1))
    assert [list(h.cards) for h in seen.revealed_hands] == [[], ["2D", "3D"]]
    assert seen.points_doubled and seen.late_join
