"""One generic event store on JetStream: a stream per kind of aggregate, a subject per aggregate.

Every aggregate's store (tables, accounts, disputes, chat) is an ``EventLog``: an append
carries the expected last sequence of the aggregate's subject (two commands racing on one
aggregate cannot both win: the loser gets ``Conflict``) and a ``Nats-Msg-Id`` made of the
aggregate and the command (a command sent again is stored once; the same id sent to another
aggregate is another command). What differs between them is only the stream's configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RePublish, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError

from services.eventlog.direct import BATCH, Message, read_subject
from services.runtime import metrics

WRONG_LAST_SEQUENCE = 10071  # JetStream's error code for an expected last sequence that did not hold


class Conflict(Exception):
    """The aggregate's subject moved on since the state the command was decided on (to ``last``, as the server said)."""

    def __init__(self, message: str, last: int = 0) -> None:
        super().__init__(message)
        self.last = last


def conflict(description: str) -> Conflict:
    """The conflict a refused append describes, with the subject's last sequence when it names one.

    >>> conflict("wrong last sequence: 41").last, conflict("something else").last
    (41, 0)
    """
    found = re.search(r"wrong last sequence: (\d+)", description)
    return Conflict(description, int(found[1]) if found else 0)


def duplicate_id(aggregate_id: str, command_id: str) -> str:
    """The stream's de-duplication id of a command: command ids are unique within an aggregate only.

    >>> duplicate_id("t1", "c1") != duplicate_id("t2", "c1")
    True
    """
    return f"{aggregate_id}/{command_id}"


def previous_seq(headers: dict[str, str] | None) -> int | None:
    """The subject's sequence before a stored batch, as its append expected it (None if unknown).

    >>> previous_seq({"Nats-Expected-Last-Subject-Sequence": "41"})
    41
    """
    value = (headers or {}).get("Nats-Expected-Last-Subject-Sequence")
    return int(value) if value else None


# How long an append waits for the stream's acknowledgement (JetStream's default: 5 s). An append
# sent to a leader as it hands its leadership over, or as its server dies, is never answered: it is
# answered "send it again" after this long, and the same append sent again is known by its
# Nats-Msg-Id (stored once, or found stored).
APPEND_SECONDS = 2.0


@dataclass(frozen=True)
class EventLog:
    """One stream of one kind of aggregate: ``subjects`` is its wildcard, each aggregate one subject of it."""

    js: JetStreamContext
    stream: str
    subjects: str
    replicas: int = 1
    duplicate_window: float = 120.0
    per_subject: int = -1  # messages kept per subject (-1: all of them)
    republish_to: str | None = None  # a subject every stored message is also published on

    def config(self) -> StreamConfig:
        """The stream as this log keeps it (made only where the stream is made: a log is built per append)."""
        republish = RePublish(src=self.subjects, dest=self.republish_to) if self.republish_to else None
        return StreamConfig(
            name=self.stream, subjects=[self.subjects], storage=StorageType.FILE, num_replicas=self.replicas,
            duplicate_window=self.duplicate_window, allow_direct=True, discard=DiscardPolicy.OLD,
            max_msgs_per_subject=self.per_subject, republish=republish)

    async def ensure(self) -> None:
        """Make the stream, or bring an existing one to this configuration."""
        config = self.config()
        try:
            await self.js.add_stream(config)
        except BadRequestError:
            await self.js.update_stream(config)

    async def exists(self) -> bool:
        try:
            await self.js.stream_info(self.stream)
        except NotFoundError:
            return False
        return True

    async def append(self, subject: str, aggregate_id: str, data: bytes, *, expected: int | None, command_id: str,
                     headers: dict[str, str] | None = None) -> tuple[int, bool]:
        """Store ``data`` on ``subject`` if its last sequence is ``expected`` (None: whatever it is);
        returns (sequence, was a duplicate). A duplicate was stored before, not necessarily as these bytes."""
        h = {"Nats-Msg-Id": duplicate_id(aggregate_id, command_id), **(headers or {})}
        if expected is not None:
            h["Nats-Expected-Last-Subject-Sequence"] = str(expected)
        try:
            ack = await self.js.publish(subject, data, timeout=APPEND_SECONDS, stream=self.stream, headers=h)
        except BadRequestError as e:
            if e.err_code == WRONG_LAST_SEQUENCE:
                metrics.APPEND_CONFLICTS.labels(self.stream).inc()
                raise conflict(e.description or "") from None
            raise
        return ack.seq, bool(ack.duplicate)

    async def last_seq(self, subject: str) -> int:
        """The subject's last sequence as the stream's leader has it (0: none), not as a follower may still have it."""
        try:
            return (await self.js.get_last_msg(self.stream, subject)).seq or 0
        except NotFoundError:
            return 0

    async def read(self, subject: str, after: int = 0, until: int | None = None,
                   batch: int = BATCH) -> list[Message]:
        """Every message of the subject stored after sequence ``after`` (up to ``until``), in order."""
        return await read_subject(self.js, self.stream, subject, after, until, batch=batch)
