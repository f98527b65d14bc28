"""The tracer set-up: the trace context always flows; spans are recorded only when something exports them.

Each case runs in its own interpreter, as a service does: OpenTelemetry's tracer provider is set once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"

SPAN_UNDER_A_COMMAND = f"""
from opentelemetry import trace
from services.runtime import tracing
tracing.setup("probe")
parent = tracing.extract({{"traceparent": "00-{TRACE_ID}-00f067aa0ba902b7-01"}})
with trace.get_tracer("probe").start_as_current_span("table command", context=parent) as span:
    print("recording" if span.is_recording() else "not recording")
    print(tracing.inject()["traceparent"])
"""


SENDING_A_COMMAND = f"""
import asyncio, os, nats
from opentelemetry import trace
from maumau.v1 import table_pb2
from services.runtime import tracing
from services.table.client import send
from services.runtime.subjects import table_command
tracing.setup("probe")

async def main():
    nc = await nats.connect(os.environ["NATS_URL"])
    seen = []

    async def table_service(msg):
        seen.append(msg.headers["traceparent"].split("-")[1])
        await msg.respond(table_pb2.CommandReply(done=table_pb2.Done(seat=1)).SerializeToString())

    await nc.subscribe(table_command("t1"), cb=table_service)
    cmd = table_pb2.TableCommand(command_id="c1", table_id="t1", actor="ana", start=table_pb2.StartMatch())
    parent = tracing.extract({{"traceparent": "00-{TRACE_ID}-00f067aa0ba902b7-01"}})
    with trace.get_tracer("probe").start_as_current_span("ws command", context=parent):
        under_a_span = await send(nc, cmd)
    on_its_own = await send(nc, cmd)
    print(under_a_span.done.seat, on_its_own.done.seat, *seen)
    await nc.close()

asyncio.run(main())
"""


DECIDING_UNDER_A_SAMPLED_SPAN = f"""
import asyncio
from opentelemetry import trace
from services.rules.server import start
from services.runtime import tracing
from services.table.rules_client import GrpcRules
from tests.table.test_rules_client import _dealt, _legal
tracing.setup("probe")

async def main():
    server, port = await start("127.0.0.1", 0)
    rules = GrpcRules(f"127.0.0.1:{{port}}")
    s = _dealt()
    parent = tracing.extract({{"traceparent": "00-{TRACE_ID}-00f067aa0ba902b7-01"}})
    with trace.get_tracer("probe").start_as_current_span("table command", context=parent):
        await rules.decide(s, _legal(s))
    await rules.close()
    await server.stop(grace=None)

asyncio.run(main())
trace.get_tracer_provider().force_flush()
"""


DEALING_A_ROUND_UNDER_A_SAMPLED_SPAN = f"""
import asyncio
import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry import trace
from services.rules.engine import new_match
from services.rules.server import start
from services.runtime import tracing
from services.table.rules_client import GrpcRules
tracing.setup("probe")

async def main():
    server, port = await start("127.0.0.1", 0)
    rules = GrpcRules(f"127.0.0.1:{{port}}")
    parent = tracing.extract({{"traceparent": "00-{TRACE_ID}-00f067aa0ba902b7-01"}})
    with trace.get_tracer("probe").start_as_current_span("table command", context=parent):
        await rules.new_round(new_match("classic32", 3), "5e" * 32, "t1", 0)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{{port}}") as probe:  # as the kubelet asks
            await health_pb2_grpc.HealthStub(probe).Check(health_pb2.HealthCheckRequest())
    await rules.close()
    await server.stop(grace=None)

asyncio.run(main())
trace.get_tracer_provider().force_flush()
"""


def _spans(printed: list[str]) -> list[dict[str, Any]]:
    text, spans, at = "\n".join(printed), [], 0
    decoder = json.JSONDecoder()
    while (start := text.find("{", at)) >= 0:
        span, at = decoder.raw_decode(text, start)
        spans.append(span)
    return spans


def _run(exporter: str | None, script: str = SPAN_UNDER_A_COMMAND, nats_url: str = "",
         settings: dict[str, str] | None = None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")} | (settings or {})
    if exporter:
        env["OTEL_TRACES_EXPORTER"] = exporter
    env["NATS_URL"] = nats_url
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.splitlines()


def test_without_an_exporter_spans_are_not_recorded_but_the_trace_id_flows_on() -> None:
    lines = _run(None)
    assert lines[0] == "not recording"
    assert lines[1].split("-")[1] == TRACE_ID


def test_with_the_console_exporter_spans_are_recorded_and_printed() -> None:
    lines = _run("console")
    assert lines[0] == "recording"
    assert lines[1].split("-")[1] == TRACE_ID
    assert any('"name": "table command"' in line for line in lines[2:])


def test_spans_name_their_service_as_the_standard_variables_say() -> None:
    def resource(settings: dict[str, str]) -> Any:
        return _spans(_run("console", settings=settings)[2:])[0]["resource"]["attributes"]

    assert resource({})["service.name"] == "maumau-probe"
    named = resource({"OTEL_SERVICE_NAME": "maumau-table-eu",
                      "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment.name=dev"})
    assert named["service.name"] == "maumau-table-eu" and named["deployment.environment.name"] == "dev"


def test_a_command_sent_to_the_table_service_carries_the_trace_it_was_made_in(nats_url: str) -> None:
    (line,) = _run(None, SENDING_A_COMMAND, nats_url)
    seat, seat_again, traced, fresh = line.split()
    assert seat == seat_again == "1"
    assert traced == TRACE_ID  # a command made under a span continues its trace
    assert fresh != TRACE_ID and len(fresh) == 32 and int(fresh, 16)  # one made anew begins a trace of its own


def test_a_recorded_decision_is_a_span_of_the_rules_service_in_the_command_s_trace() -> None:
    printed = _spans(_run("console", DECIDING_UNDER_A_SAMPLED_SPAN))
    spans = {span["name"]: span for span in printed}
    assert len(printed) == len(spans) == 2  # the stream it went over is no span: it outlives every command
    assert spans["decide"]["context"]["trace_id"] == f"0x{TRACE_ID}"
    assert spans["decide"]["parent_id"] == spans["table command"]["context"]["span_id"]


def test_a_unary_call_is_a_client_span_of_the_command_and_a_server_span_of_the_rules_service() -> None:
    printed = _spans(_run("console", DEALING_A_ROUND_UNDER_A_SAMPLED_SPAN))
    spans = {span["kind"]: span for span in printed}
    assert len(printed) == len(spans) == 3  # the health check made none
    client, server, command = spans["SpanKind.CLIENT"], spans["SpanKind.SERVER"], spans["SpanKind.INTERNAL"]
    assert client["name"] == server["name"] == "/maumau.v1.Rules/NewRound"
    assert {s["context"]["trace_id"] for s in (client, server, command)} == {f"0x{TRACE_ID}"}
    assert client["parent_id"] == command["context"]["span_id"]
    assert server["parent_id"] == client["context"]["span_id"]
    assert server["attributes"]["rpc.grpc.status_code"] == 0


SERVING_HTTP_AND_A_WEBSOCKET = """
import asyncio
from aiohttp import ClientSession, web
from opentelemetry import trace
from gateway.request_spans import middleware
from services.runtime import tracing
tracing.setup("probe")

async def page(request):
    return web.Response(text=request.query["c"] + " " + request.headers["Authorization"])

async def socket(request):
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    async for _ in ws:
        with trace.get_tracer("probe").start_as_current_span("frame"):
            await ws.send_str("ok")
    return ws

async def main():
    app = web.Application(middlewares=[middleware()])
    app.add_routes([web.get("/m/{table_id}", page), web.get("/ws", socket), web.get("/healthz", page),
                    web.get("/static/{name}", page)])
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
    secrets = {"Authorization": "Bearer device-token-1", "Cookie": "maumau_session=session-2", "X-Probe": "seen"}
    async with ClientSession(headers=secrets) as http:
        for path in ("/m/t1?c=invitation-3", "/healthz?c=x", "/static/app.js?c=y"):
            async with http.get(base + path) as r:
                print(await r.text())
        async with http.ws_connect(base + "/ws") as ws:
            await ws.send_str("move")
            await ws.receive()
    await runner.cleanup()

asyncio.run(main())
trace.get_tracer_provider().force_flush()
"""


def test_request_spans_carry_no_query_string_no_token_and_no_session() -> None:
    lines = _run("console", SERVING_HTTP_AND_A_WEBSOCKET,
                 settings={"OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST": ".*"})
    assert lines[0] == "invitation-3 Bearer device-token-1"  # the handlers see the request as sent
    spans = {span["name"]: span for span in _spans(lines[3:])}
    assert set(spans) == {"GET /m/{table_id}", "GET /ws", "frame"}  # the probe and the file made none
    page = spans["GET /m/{table_id}"]
    assert page["kind"] == "SpanKind.SERVER" and page["attributes"]["http.request.header.x_probe"] == ["seen"]
    recorded = json.dumps([span["attributes"] for span in spans.values()])
    assert "/m/t1" in recorded
    assert not any(secret in recorded for secret in ("invitation-3", "device-token-1", "session-2"))


def test_a_websocket_s_frames_begin_traces_of_their_own() -> None:
    spans = {span["name"]: span for span in _spans(_run("console", SERVING_HTTP_AND_A_WEBSOCKET)[3:])}
    assert spans["GET /ws"]["kind"] == "SpanKind.SERVER"
    assert spans["frame"]["parent_id"] is None
    assert spans["frame"]["context"]["trace_id"] != spans["GET /ws"]["context"]["trace_id"]
