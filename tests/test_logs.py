"""Log lines (services/runtime/logs.py): one JSON object per line, or readable text on a terminal."""

from __future__ import annotations

import io
import json
import logging
import sys

from opentelemetry.sdk.trace import TracerProvider

from services.runtime import logs


def _record(message: str = "took %s", *args: object, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("maumau.table", logging.INFO, __file__, 1, message, args or ("act",), None)
    for key, value in extra.items():
        setattr(record, key, value)
    return record


def test_a_json_line_names_the_time_level_service_logger_and_message() -> None:
    line = logs.JsonFormatter("table").format(_record())
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed.keys() == {"time", "level", "service", "logger", "message"}
    assert (parsed["level"], parsed["service"], parsed["logger"], parsed["message"]) == (
        "INFO", "table", "maumau.table", "took act")
    assert parsed["time"].endswith("+00:00")


def test_a_json_line_carries_the_current_span_s_trace_and_span_ids() -> None:
    with TracerProvider().get_tracer("test").start_as_current_span("command") as span:
        parsed = json.loads(logs.JsonFormatter("table").format(_record()))
        context = span.get_span_context()
    assert parsed["trace_id"] == f"{context.trace_id:032x}" and parsed["span_id"] == f"{context.span_id:016x}"


def test_a_json_line_names_the_table_the_work_is_about() -> None:
    formatter = logs.JsonFormatter("table")
    assert "table_id" not in json.loads(formatter.format(_record()))
    token = logs.TABLE_ID.set("T1")
    try:
        assert json.loads(formatter.format(_record()))["table_id"] == "T1"
        assert json.loads(formatter.format(_record(table_id="T2")))["table_id"] == "T2"  # a record's own extra
    finally:
        logs.TABLE_ID.reset(token)


def test_a_json_line_holds_the_traceback_of_an_exception() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = _record()
        record.exc_info = sys.exc_info()
    parsed = json.loads(logs.JsonFormatter("table").format(record))
    assert "ValueError: boom" in parsed["exception"] and "Traceback" in parsed["exception"]


def test_text_lines_are_for_people_and_name_the_table() -> None:
    formatter = logs.text_formatter("table")
    assert formatter.format(_record()).endswith("table INFO maumau.table: took act")
    assert "maumau.table [T9]: took act" in formatter.format(_record(table_id="T9"))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_json_unless_asked_for_text_or_written_to_a_terminal() -> None:
    assert logs.wants_json("", io.StringIO()) and not logs.wants_json("", _Terminal())
    assert logs.wants_json("json", _Terminal()) and not logs.wants_json("text", io.StringIO())


def test_a_process_whose_logging_is_set_up_is_left_alone() -> None:
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    logs.setup("table", "DEBUG", "json")
    assert all(not isinstance(h.formatter, logs.JsonFormatter) for h in root.handlers)
    assert root.level == before[1] or not before[0]
