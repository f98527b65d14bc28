"""OpenTelemetry: one tracer set-up for every service, and W3C trace context in NATS headers.

Configured only by OpenTelemetry's own variables: ``OTEL_TRACES_EXPORTER`` (``otlp``,
``console`` or ``none``; unset, ``otlp`` when ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set, else nothing), the OTLP exporter's own
(``OTEL_EXPORTER_OTLP_*``: gRPC), ``OTEL_TRACES_SAMPLER`` (and ``_ARG``), ``OTEL_SERVICE_NAME``
(``maumau-<service>`` when unset) and ``OTEL_RESOURCE_ATTRIBUTES``. Exporting nothing, the trace
context still flows — a command's ``traceparent`` is carried into the headers of the events
it causes — but spans are sampled out: recording spans that nobody exports cost the table
service some 5 % of its CPU under load.

A command is one trace (the gateway's client span, the table service's server span, the rules'
decision); what reacts to the batch it stored (the projector, the clock, the bots, the gateway's
fan-out to the sockets) records a span of its own **linked** to it: a reaction is not part of
the command's answer, and one reaction often serves many commands.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from opentelemetry import propagate, trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF

TRACE_HEADERS = ("traceparent", "tracestate")
MAX_LINKS = 32  # a reaction to a big batch of commands links to the first of them
tracer = trace.get_tracer("maumau.requests")


def exporter() -> SpanExporter | None:
    """The span exporter the standard variables ask for, if any."""
    endpoint = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    chosen = os.environ.get("OTEL_TRACES_EXPORTER") or ("otlp" if endpoint else "none")
    if chosen == "console":
        return ConsoleSpanExporter()
    if chosen == "otlp":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter()  # reads OTEL_EXPORTER_OTLP_* itself
    return None


def setup(service: str) -> None:
    """Install a tracer provider named for ``service``, exporting where the standard variables say."""
    spans = exporter()
    name = os.environ.get("OTEL_SERVICE_NAME") or f"maumau-{service}"  # given here, it would outrank the variable
    provider = TracerProvider(resource=Resource.create({"service.name": name}),
                              sampler=None if spans else ALWAYS_OFF)  # None: OTEL_TRACES_SAMPLER decides
    if spans is not None:
        provider.add_span_processor(BatchSpanProcessor(spans))
    trace.set_tracer_provider(provider)


def recording() -> bool:
    """Whether spans may be recorded: not when ``setup`` found nothing to export them to (it then
    samples every span out, so whatever a span would cost — its links read from a batch's messages,
    a reaction's own span — is cost alone)."""
    return getattr(trace.get_tracer_provider(), "sampler", None) is not ALWAYS_OFF


def linked(name: str, carriers: Iterable[Mapping[str, str] | None],
           attributes: Mapping[str, str | int] | None = None) -> AbstractContextManager[trace.Span]:
    """A span of a reaction to stored batches, linked to the commands that stored them (up to ``MAX_LINKS``).

    The links are read only when spans are recorded: reading the trace context of a batch's
    messages was 5–9 % of a reacting service's CPU for spans sampled out.
    """
    links = []
    for headers in carriers if recording() else ():
        context = trace.get_current_span(extract(headers)).get_span_context()
        if context.is_valid:
            links.append(trace.Link(context))
            if len(links) == MAX_LINKS:
                break
    return tracer.start_as_current_span(name, kind=trace.SpanKind.CONSUMER, links=links, attributes=attributes)


def extract(headers: Mapping[str, str] | None) -> Context:
    """The trace context a message carries (an empty one when it carries none)."""
    return propagate.extract({k: v for k, v in (headers or {}).items() if k in TRACE_HEADERS})


def inject() -> dict[str, str]:
    """Headers carrying the current trace context."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


async def request(nc: NATS, subject: str, payload: bytes, span: str, timeout: float,
                  attributes: Mapping[str, str] | None = None) -> Msg:
    """A NATS request in a client span of its own, whose trace context travels in the request's headers."""
    with tracer.start_as_current_span(span, kind=trace.SpanKind.CLIENT,
                                      attributes={"messaging.destination.name": subject, **(attributes or {})}):
        return await nc.request(subject, payload, timeout=timeout, headers=inject())
