"""The table service's way to the stateless rules service: gRPC, with rejections as ``Refused``."""

from __future__ import annotations

import grpc

from maumau.v1 import actions_pb2, events_pb2, rules_pb2, rules_pb2_grpc
from services.rules.state import State
from services.rules.wire import state_to_pb
from services.table.domain import Refused


class GrpcRules:
    def __init__(self, addr: str, timeout: float = 5.0):
        self.channel = grpc.aio.insecure_channel(addr)
        self.stub = rules_pb2_grpc.RulesStub(self.channel)
        self.timeout = timeout

    async def decide(self, state: State, action: actions_pb2.Action) -> list[events_pb2.Event]:
        reply = await self.stub.Decide(rules_pb2.DecideRequest(state=state_to_pb(state), action=action),
                                       timeout=self.timeout)
        if reply.WhichOneof("result") == "rejection":
            raise Refused(reply.rejection.code, reply.rejection.message)
        return list(reply.accepted.events)

    async def new_round(self, state: State, seed: str, table_id: str, round_no: int) -> events_pb2.Event:
        reply = await self.stub.NewRound(rules_pb2.NewRoundRequest(state=state_to_pb(state), seed=seed,
                                                                   table_id=table_id, round_no=round_no),
                                         timeout=self.timeout)
        return reply.event

    async def close(self) -> None:
        await self.channel.close()
