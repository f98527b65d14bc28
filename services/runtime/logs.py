"""Log lines: one JSON object per line for machines, readable text for a terminal.

``MAUMAU_LOG_FORMAT`` chooses (``json`` or ``text``); unset, a service writes text when its
standard error is a terminal and JSON otherwise (a pod's log, a file). ``maumau up`` asks its
children for text: it prefixes their lines for a person to read. A JSON line holds ``time``
(UTC, ISO 8601), ``level``, ``service``, ``logger``, ``message``, ``trace_id`` and ``span_id``
when a span is current, ``table_id`` when the work is about one table (``TABLE_ID``, or a
record's ``table_id`` extra), and ``exception`` with its traceback.

What is logged is chosen where it is logged: never a token, a password, a session id or a
card of a hidden hand (docs/operations.md). The gateway also takes query strings out of
aiohttp's records (``gateway.server.RedactQueries``).
"""

from __future__ import annotations

import contextvars
import logging
import sys
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

import orjson
from opentelemetry import trace

TERSE = ("aiosqlite",)  # its DEBUG lines carry every statement with its parameters: never below INFO
TABLE_ID: contextvars.ContextVar[str] = contextvars.ContextVar("maumau_table_id", default="")
"""The table the current task works on ("" when none): set by the command base and the reacting services."""


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def __init__(self, service: str):
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "service": self.service,
            "logger": record.name,
            "message": record.getMessage(),
        }
        context = trace.get_current_span().get_span_context()
        if context.is_valid:
            line["trace_id"] = f"{context.trace_id:032x}"
            line["span_id"] = f"{context.span_id:016x}"
        table_id = getattr(record, "table_id", None) or TABLE_ID.get()
        if table_id:
            line["table_id"] = str(table_id)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(line).decode()


def text_formatter(service: str) -> logging.Formatter:
    """Readable lines: time, service, level, logger, message (the table when there is one)."""

    class Text(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            table_id = getattr(record, "table_id", None) or TABLE_ID.get()
            record.table = f" [{table_id}]" if table_id else ""
            return super().format(record)

    return Text(f"%(asctime)s {service} %(levelname)s %(name)s%(table)s: %(message)s")


def wants_json(log_format: str, stream: Any = None) -> bool:
    """JSON unless asked for text, or, when nothing was asked, unless ``stream`` is a terminal.

    >>> wants_json("json"), wants_json("text"), wants_json("", None)
    (True, False, True)
    """
    if log_format in ("json", "text"):
        return log_format == "json"
    isatty = getattr(stream, "isatty", None)
    return not (isatty is not None and isatty())


def setup(service: str, level: str, log_format: str = "") -> None:
    """Send every record of the process at ``level`` and above to standard error, as JSON or as text.

    Like ``logging.basicConfig``, it leaves a process whose logging is set up already alone
    (a service run inside a test: pytest's handlers keep the records).
    """
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    as_json = wants_json(log_format, sys.stderr)
    handler.setFormatter(JsonFormatter(service) if as_json else text_formatter(service))
    root.addHandler(handler)
    root.setLevel(level)
    for name in TERSE:
        logging.getLogger(name).setLevel(max(logging.INFO, root.level))
    if as_json:
        sys.excepthook = _log_uncaught  # a service's last words are a JSON line too


def _log_uncaught(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
    logging.getLogger("maumau").critical("the process ends: %s", kind.__name__, exc_info=(kind, error, tb))
