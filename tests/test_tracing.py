"""The tracer set-up: the trace context always flows; spans are recorded only when something exports them.

Each case runs in its own interpreter, as a service does: OpenTelemetry's tracer provider is set once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys

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


def _run(exporter: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    if exporter:
        env["OTEL_TRACES_EXPORTER"] = exporter
    done = subprocess.run([sys.executable, "-c", SPAN_UNDER_A_COMMAND], env=env, capture_output=True, text=True,
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
