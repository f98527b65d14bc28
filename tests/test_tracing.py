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


def _spans(printed: list[str]) -> list[dict[str, Any]]:
    text, spans, at = "\n".join(printed), [], 0
    decoder = json.JSONDecoder()
    while (start := text.find("{", at)) >= 0:
        span, at = decoder.raw_decode(text, start)
        spans.append(span)
    return spans


def _run(exporter: str | None, script: str = SPAN_UNDER_A_COMMAND, nats_url: str = "") -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
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


def test_a_command_sent_to_the_table_service_carries_the_trace_it_was_made_in(nats_url: str) -> None:
    (line,) = _run(None, SENDING_A_COMMAND, nats_url)
    seat, seat_again, traced, fresh = line.split()
    assert seat == seat_again == "1"
    assert traced == TRACE_ID  # a command made under a span continues its trace
    assert fresh != TRACE_ID and len(fresh) == 32 and int(fresh, 16)  # one made anew begins a trace of its own


def test_a_recorded_decision_is_a_span_of_the_rules_service_in_the_command_s_trace() -> None:
    spans = {span["name"]: span for span in _spans(_run("console", DECIDING_UNDER_A_SAMPLED_SPAN))}
    assert spans["decide"]["context"]["trace_id"] == f"0x{TRACE_ID}"
    assert spans["decide"]["parent_id"] == spans["table command"]["context"]["span_id"]
