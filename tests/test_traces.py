"""One move played through ``maumau up`` arrives at a real OTLP receiver (gRPC) as one trace — the gateway's
client span, the table service's server span, the rules' decision — and the reactions to it (the projector,
the clock, the bots, the gateway's fan-out) as spans of their own linked to it; no attribute carries a card,
and none a secret: the gateway's HTTP requests are spans without their query string (an invitation link's)
or their tokens."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

from services.runtime.supervisor import running_platform
from tools.load.loadtest import unlimited

SERVICES_OF_A_MOVE = 5


class Receiver(trace_service_pb2_grpc.TraceServiceServicer):
    """An OTLP trace receiver: every span it is sent, with its service's name."""

    def __init__(self) -> None:
        self.spans: list[tuple[str, Any]] = []

    async def Export(self, request: trace_service_pb2.ExportTraceServiceRequest,
                     context: grpc.aio.ServicerContext) -> trace_service_pb2.ExportTraceServiceResponse:
        for resource_spans in request.resource_spans:
            service = next(a.value.string_value for a in resource_spans.resource.attributes
                           if a.key == "service.name")
            for scope in resource_spans.scope_spans:
                self.spans += [(service, span) for span in scope.spans]
        return trace_service_pb2.ExportTraceServiceResponse()


@contextlib.asynccontextmanager
async def receiving() -> AsyncIterator[tuple[Receiver, int]]:
    server = grpc.aio.server()
    receiver = Receiver()
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(receiver, server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield receiver, port
    finally:
        await server.stop(None)


def _attributes(span: Any) -> dict[str, str]:
    return {a.key: a.value.string_value or str(a.value.int_value) for a in span.attributes}


async def _play_one_move(base: str) -> list[str]:
    """Two guests at a classic52 table, the second invited by its link: the one on turn takes its first legal
    action over the WebSocket. Returns the secrets it used (the guests' tokens, the invitation)."""
    async with aiohttp.ClientSession() as http:
        async def post(path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
            async with http.post(base + path, json=body, headers={"Authorization": f"Bearer {token}"}) as r:
                answer: dict[str, Any] = await r.json()
                return answer

        tokens = []
        for name in ("Ana", "Bia"):
            async with http.post(base + "/api/session", json={"name": name}) as r:
                tokens.append((await r.json())["token"])
        created = await post("/api/tables", tokens[0], {"ruleset": "classic52", "seats": 2})
        tid = created["table_id"]
        async with http.get(f"{base}/m/{tid}?c={created['invitation']}") as r:
            assert r.status == 200
        await post(f"/api/tables/{tid}/join", tokens[1], {"invitation": created["invitation"]})
        await post(f"/api/tables/{tid}/start", tokens[0], {})
        for token in tokens:
            ws = await http.ws_connect(base.replace("http", "ws", 1) + "/ws",
                                       headers={"Authorization": f"Bearer {token}"})
            await ws.send_json({"type": "subscribe", "table": tid})
            state = await ws.receive_json(timeout=10)
            view = state["view"]
            if view["legal_actions"]:
                await ws.send_json({"type": "command", "table": tid, "id": "m1", "command": view["legal_actions"][0]})
                while (frame := await ws.receive_json(timeout=10))["type"] != "ack":
                    pass
                assert frame["ok"], frame
                await ws.close()
                return [*tokens, created["invitation"]]
            await ws.close()
    raise AssertionError("nobody could move")


async def test_one_move_is_one_trace_and_its_reactions_link_to_it(tmp_path: Path) -> None:
    async with receiving() as (receiver, port):
        settings = {**unlimited(), "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
                    "OTEL_EXPORTER_OTLP_INSECURE": "true", "OTEL_BSP_SCHEDULE_DELAY": "200"}
        async with running_platform(tmp_path / "data", quiet=True, settings=settings) as (addresses, _):
            secrets = await _play_one_move(addresses["gateway_url"])
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                await asyncio.sleep(0.5)
                acts = [s for svc, s in receiver.spans
                        if svc == "maumau-table" and _attributes(s).get("maumau.command") == "act"]
                if acts:
                    trace_id = acts[0].trace_id
                    in_trace = {svc for svc, s in receiver.spans if s.trace_id == trace_id}
                    linked = {svc for svc, s in receiver.spans if any(link.trace_id == trace_id for link in s.links)}
                    if len(in_trace | linked) >= SERVICES_OF_A_MOVE + 1:
                        break
    spans = {s.span_id: (svc, s) for svc, s in receiver.spans if s.trace_id == trace_id}
    parents = {(svc, spans[s.parent_span_id][0]) for svc, s in spans.values() if s.parent_span_id in spans}
    assert {"maumau-gateway", "maumau-table", "maumau-rules"} <= in_trace
    assert ("maumau-table", "maumau-gateway") in parents and ("maumau-rules", "maumau-table") in parents
    assert {"maumau-projector", "maumau-clock", "maumau-bots"} <= linked
    assert len(in_trace | linked) >= SERVICES_OF_A_MOVE
    every_value = " ".join(str(v) for _, s in receiver.spans for v in _attributes(s).values())
    assert not any(card in every_value.split() for card in ("AS", "KH", "7C", "JD"))
    link = [s for svc, s in receiver.spans if svc == "maumau-gateway" and s.name == "GET /m/{table_id}"]
    assert link and not any(secret in every_value for secret in secrets)
