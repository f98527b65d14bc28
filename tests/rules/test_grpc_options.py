"""The new table options over real gRPC: an Ace with company (``Action.with``), options that are 0 or words."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from maumau.v1 import actions_pb2, rules_pb2, rules_pb2_grpc
from services.rules.engine import new_match, start_round
from services.rules.rulesets.french import Classic32
from services.rules.server import start
from services.rules.wire import option_to_pb, state_from_pb, state_to_pb

OPTIONS = {"ace_with_company": True, "seven_draws": 0, "scoring": "against"}


@pytest.fixture
async def stub() -> AsyncIterator[rules_pb2_grpc.RulesStub]:
    server, port = await start("127.0.0.1", 0)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield rules_pb2_grpc.RulesStub(channel)
    finally:
        await channel.close()
        await server.stop(grace=None)


def test_the_options_survive_the_state_message() -> None:
    s = new_match("classic32", 6, OPTIONS)
    again = state_from_pb(state_to_pb(s))
    assert isinstance(again.rs, Classic32)
    assert again.rs.options == OPTIONS and again.rs.ace_company and again.rs.seven_draws == 0 and again.rs.against


async def test_an_ace_with_company_over_grpc(stub: rules_pb2_grpc.RulesStub) -> None:
    match = await stub.NewMatch(rules_pb2.NewMatchRequest(
        ruleset="classic32", seats=2, options={k: option_to_pb(v) for k, v in OPTIONS.items()}))
    s = state_from_pb(match)
    start_round(s, dealer=1, first=0, hands=[["AD", "JC", "KS", "8H"], ["9D", "QS", "7H"]], starter="8D",
                stock=["9C", "JH"])
    state = state_to_pb(s)
    legal = await stub.LegalActions(rules_pb2.LegalActionsRequest(state=state, seat=0))
    company = {(a.card, getattr(a, "with"), a.choose) for a in legal.actions if getattr(a, "with")}
    assert company == {("AD", "JC", suit) for suit in "CDHS"}
    assert not any(a.card == "AD" and not getattr(a, "with") for a in legal.actions)
    alone = await stub.Decide(rules_pb2.DecideRequest(state=state, action=actions_pb2.Action(
        do="play", seat=0, card="AD")))
    assert alone.rejection.code == "illegal_action"
    action = actions_pb2.Action(seat=0, move="AD&JC=S")
    reply = await stub.Decide(rules_pb2.DecideRequest(state=state, action=action, with_state=True))
    assert reply.accepted.events[0].action_taken.action == actions_pb2.Action(
        move="AD&JC=S", **{"do": "play", "seat": 0, "card": "AD", "with": "JC", "choose": "S"})
    after = state_from_pb(reply.accepted.state)
    assert after.turn == 1 and after.hands[0] == s.hands[0][2:] and len(after.discard) == 3
