"""The chat stream: one subject per table in one JetStream stream that keeps the last 100 lines.

``max_msgs_per_subject`` makes the stream itself the history: whatever is on a table's
subject is that table's last lines, in order, so joining is reading the subject and there
is nothing to trim or project. Lines are published with ``Nats-Msg-Id`` = the table and the
command id, so a re-sent line is stored once (within the duplicate window).
"""

from __future__ import annotations

from dataclasses import dataclass

from nats.js import JetStreamContext
from nats.js.errors import NotFoundError

from maumau.v1 import chat_pb2
from services.eventlog.store import EventLog
from services.runtime import subjects

STREAM = "CHAT"
SUBJECTS = subjects.CHAT_LINES
HISTORY = 100  # lines kept per table


@dataclass(frozen=True)
class StoredLine:
    seq: int
    line: chat_pb2.ChatLine


def log(js: JetStreamContext, replicas: int = 1, duplicate_window: float = 120.0) -> EventLog:
    """The chat's event log: the last ``HISTORY`` lines of each table."""
    return EventLog(js, STREAM, SUBJECTS, replicas, duplicate_window, per_subject=HISTORY)


async def ensure_stream(js: JetStreamContext, replicas: int = 1, duplicate_window: float = 120.0) -> None:
    await log(js, replicas, duplicate_window).ensure()


async def append(js: JetStreamContext, line: chat_pb2.ChatLine,
                 headers: dict[str, str] | None = None) -> tuple[int, bool]:
    """Store ``line`` on its table's subject; returns (sequence, was a duplicate of an earlier command)."""
    return await log(js).append(subjects.chat_lines(line.table_id), line.table_id, line.SerializeToString(),
                                expected=None, command_id=line.command_id, headers=headers)


async def line_at(js: JetStreamContext, seq: int) -> chat_pb2.ChatLine | None:
    """The line stored at ``seq``, if the stream still keeps it."""
    try:
        msg = await js.get_msg(STREAM, seq=seq, direct=True)
    except NotFoundError:
        return None
    return chat_pb2.ChatLine.FromString(msg.data) if msg.data else None


async def read(js: JetStreamContext, table_id: str, after: int = 0) -> list[StoredLine]:
    """The table's stored lines after stream sequence ``after`` (at most the last 100), in order."""
    return [StoredLine(m.seq, chat_pb2.ChatLine.FromString(m.data))
            for m in await log(js).read(subjects.chat_lines(table_id), after, batch=HISTORY)]


async def history(js: JetStreamContext, table_id: str) -> list[chat_pb2.ChatLine]:
    """The table's last lines (at most 100), oldest first: what someone joining the table is shown."""
    return [s.line for s in await read(js, table_id)]
