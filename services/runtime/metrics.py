"""Prometheus metrics: every metric of the platform, named here once, served on each service's health port.

Names follow Prometheus's conventions (``maumau_`` prefix, the unit in the name, ``_total``
for counters) and every label has a small, fixed set of values: a service, a kind of
command, a result code, a consumer, a stream, a kind of frame. Never a table id, an
identity, a name or a token (docs/operations.md lists them all). A service updates only the
metrics of what it does; the others stay at zero (or absent, for labelled ones).
"""

from __future__ import annotations

import re

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)

disable_created_metrics()  # type: ignore[no-untyped-call]  # no *_created series: a counter's start is its process's (process_start_time_seconds)

# Seconds: from a millisecond (a cached refusal) to the request timeout of a command (10 s).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")

# --- commands (services/runtime/commands.py: table, chat, accounts) -----------------------------------

COMMANDS = Counter("maumau_commands_total", "Commands answered, by service, kind of command and result "
                   "(done, a refusal code, or unavailable)", ["service", "command", "result"])
COMMAND_SECONDS = Histogram("maumau_command_duration_seconds", "Time from a command's arrival to its reply "
                            "(waiting for the table's lock included)", ["service", "command"],
                            buckets=LATENCY_BUCKETS)
APPEND_CONFLICTS = Counter("maumau_append_conflicts_total", "Appends refused by the stream because the "
                           "table or account had moved on (expected sequence)", ["stream"])
COMMAND_RETRIES = Counter("maumau_command_retries_total", "Commands decided again after a conflict or a "
                          "refusal from a stale cache", ["service"])

# --- stream consumers (services/eventlog/consuming.py: projector, clock, bots) ---------------------------

CONSUMER_PENDING = Gauge("maumau_consumer_pending_messages", "Messages stored and not yet delivered to the "
                         "durable consumer (its lag), as the server counts them", ["consumer", "stream"])
CONSUMER_ACK_PENDING = Gauge("maumau_consumer_ack_pending_messages", "Messages delivered to the durable "
                             "consumer and not yet acknowledged", ["consumer", "stream"])
CONSUMER_MESSAGES = Counter("maumau_consumer_messages_total", "Messages handed to the service by its durable "
                            "consumer", ["consumer"])
CONSUMER_LAG = Gauge("maumau_consumer_lag_seconds", "Age of the newest message of the last batch the "
                     "consumer handled (from its storage in the stream)", ["consumer", "stream"])
CONSUMER_REDELIVERIES = Counter("maumau_consumer_redeliveries_total", "Messages delivered again (not "
                                "acknowledged in time, or a consumer resuming)", ["consumer"])
STREAM_LEADER = Gauge("maumau_stream_leader", "1 when the stream answers with a leader, 0 when it does not "
                      "(as seen by this service's consumer)", ["stream"])

# --- the projector ---------------------------------------------------------------------------------------

PROJECTION_LAG = Gauge("maumau_projection_lag_seconds", "Age of the last projected batch when its transaction "
                       "committed (from its storage in the stream)", ["projection"])
PROJECTION_POSITION = Gauge("maumau_projection_position", "Stream sequence of the last projected batch",
                            ["projection"])

# --- the gateway's sockets -------------------------------------------------------------------------------

WEBSOCKETS_OPEN = Gauge("maumau_websockets_open", "WebSockets open on this gateway replica")
WEBSOCKETS_OPENED = Counter("maumau_websockets_opened_total", "WebSockets accepted by this gateway replica")
FRAMES_IN = Counter("maumau_websocket_frames_received_total", "Frames received from tabs, by frame type "
                    "(invalid: not a known frame)", ["type"])
FRAMES_OUT = Counter("maumau_websocket_frames_sent_total", "Frames sent to tabs, by frame type", ["type"])

# --- the reacting services -------------------------------------------------------------------------------

BOT_THINK_SECONDS = Histogram("maumau_bot_think_seconds", "A bot's decision (its search), without the pause "
                              "it takes before acting", buckets=LATENCY_BUCKETS)
TIMERS_PENDING = Gauge("maumau_timers_pending", "Timers this clock replica knows are running")
TIMERS_FIRED = Counter("maumau_timers_fired_total", "Timers fired, by kind and the table service's answer "
                       "(done, stale, not_due, unavailable, …)", ["kind", "result"])
CHAT_LINES = Counter("maumau_chat_lines_total", "Chat lines stored (a line sent again counts once)")

# --- the rules service -----------------------------------------------------------------------------------

DECISIONS = Counter("maumau_rules_decisions_total", "Actions decided by the rules engine, by result "
                    "(accepted, rejected, invalid)", ["result"])
DECISION_SECONDS = Histogram("maumau_rules_decision_duration_seconds", "The engine's time for one decision",
                             buckets=LATENCY_BUCKETS)


def code(value: str) -> str:
    """A label value from a code the program chose (a refusal code, a frame type): anything else is ``other``.

    >>> code("not_your_turn"), code(""), code("Robert'); DROP"), code("x" * 41)
    ('not_your_turn', 'other', 'other', 'other')
    """
    return value if _CODE.fullmatch(value) else "other"


class ByKind:
    """A counter with one label, its children kept: counting a frame takes no lookup under the metric's lock."""

    def __init__(self, counter: Counter):
        self.counter = counter
        self.children: dict[str, Counter] = {}

    def inc(self, kind: str) -> None:
        child = self.children.get(kind)
        if child is None:
            child = self.children[kind] = self.counter.labels(code(kind))
        child.inc()


_COMMAND_CHILDREN: dict[tuple[str, str, str], tuple[Counter, Histogram]] = {}


def command_answered(service: str, command: str, result: str, seconds: float) -> None:
    """Count one command and its time (the children kept: a command costs two updates, not two lookups)."""
    children = _COMMAND_CHILDREN.get((service, command, result))
    if children is None:
        children = _COMMAND_CHILDREN[service, command, result] = (
            COMMANDS.labels(service, code(command), code(result)), COMMAND_SECONDS.labels(service, code(command)))
    children[0].inc()
    children[1].observe(seconds)


def exposition() -> tuple[bytes, str]:
    """The body and the content type of ``/metrics``."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
