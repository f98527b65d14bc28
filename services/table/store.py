"""Tables' event streams on NATS JetStream: one subject per table, each table in one partition's stream.

Partition 0's stream is ``TABLES``, partition ``k``'s ``TABLES-k``; a table's address names its
partition (``services.runtime.subjects.table_partition``), so a store routes each table's
appends and reads by its id alone.

A command's events are stored as one message (an ``EventBatch``), so they land whole or
not at all. Appends carry the expected last sequence of the table's subject (two commands
racing on one table cannot both win) and the table and command id as ``Nats-Msg-Id`` (a
re-sent command is stored once; the same id sent to another table is another command).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RePublish, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError

from maumau.v1 import events_pb2
from services.runtime import metrics, subjects
from services.runtime.direct import read_subject

STREAM = "TABLES"  # partition 0's
SUBJECTS = subjects.TABLE_EVENTS
_PARTITION_STREAM = re.compile(r"TABLES(?:-([1-9][0-9]*))?")
WRONG_LAST_SEQUENCE = 10071
GENESIS = bytes(32)  # what a table's first batch names as its previous one


def stream_of(partition: int) -> str:
    """The stream of one partition.

    >>> stream_of(0), stream_of(2)
    ('TABLES', 'TABLES-2')
    """
    return f"{STREAM}-{partition}" if partition else STREAM


def partition_of_stream(name: str) -> int | None:
    """The partition a stream holds, None for a stream that is not the tables'.

    >>> partition_of_stream("TABLES"), partition_of_stream("TABLES-2"), partition_of_stream("CHAT")
    (0, 2, None)
    """
    named = _PARTITION_STREAM.fullmatch(name)
    return None if named is None else int(named.group(1) or 0)


def duplicate_id(table_id: str, command_id: str) -> str:
    """The stream's de-duplication id of a command: command ids are unique within a table only.

    >>> duplicate_id("t1", "c1") != duplicate_id("t2", "c1")
    True
    """
    return f"{table_id}/{command_id}"


def previous_seq(headers: dict[str, str] | None) -> int | None:
    """The table's sequence before a stored batch, as its append expected it (None if unknown).

    >>> previous_seq({"Nats-Expected-Last-Subject-Sequence": "41"})
    41
    """
    value = (headers or {}).get("Nats-Expected-Last-Subject-Sequence")
    return int(value) if value else None


class Conflict(Exception):
    """The table's subject moved on since the state the command was decided on (to ``last``, as the server said)."""

    def __init__(self, message: str, last: int = 0) -> None:
        super().__init__(message)
        self.last = last


def conflict(description: str) -> Conflict:
    """The conflict a refused append describes, with the table's last sequence when it names one.

    >>> conflict("wrong last sequence: 41").last, conflict("something else").last
    (41, 0)
    """
    found = re.search(r"wrong last sequence: (\d+)", description)
    return Conflict(description, int(found[1]) if found else 0)


@dataclass(frozen=True)
class Stored:
    seq: int
    batch: events_pb2.EventBatch
    data: bytes | None = None  # the exact bytes stored, when the reader has them: what the next batch chains to

    @property
    def digest(self) -> bytes | None:
        """The SHA-256 the table's next batch names as its ``previous`` (None: the bytes were not read)."""
        return None if self.data is None else hashlib.sha256(self.data).digest()

    @classmethod
    def decode(cls, seq: int, data: bytes) -> Stored:
        return cls(seq, events_pb2.EventBatch.FromString(data), data)


class EventStore:
    def __init__(self, js: JetStreamContext, replicas: int = 1, duplicate_window: float = 120.0,
                 partitions: int = 1):
        self.js = js
        self.replicas = replicas
        self.duplicate_window = duplicate_window
        self.partitions = partitions  # how many partitions this service makes sure of (new tables spread over them)
        self._present = set(range(partitions))  # partitions known to have a stream

    async def ensure_stream(self) -> None:
        """Make sure partitions 0 … ``partitions`` − 1 each have their stream, as configured."""
        for k in range(self.partitions):
            config = StreamConfig(name=stream_of(k), subjects=[subjects.partition_events(k)], storage=StorageType.FILE,
                                  num_replicas=self.replicas, duplicate_window=self.duplicate_window,
                                  allow_direct=True, discard=DiscardPolicy.OLD,
                                  republish=RePublish(src=subjects.partition_events(k), dest=subjects.LIVE_TABLES))
            try:
                await self.js.add_stream(config)
            except BadRequestError:
                await self.js.update_stream(config)

    async def streams(self) -> list[tuple[str, str]]:
        """Every partition's stream on the server and its subjects, configured here or not (an earlier setting's)."""
        found = {k for info in await self.js.streams_info()
                 if (k := partition_of_stream(info.config.name or "")) is not None}
        self._present |= found
        return [(stream_of(k), subjects.partition_events(k)) for k in sorted(found | set(range(self.partitions)))]

    async def _has(self, partition: int) -> bool:
        if partition not in self._present:
            try:
                await self.js.stream_info(stream_of(partition))
            except NotFoundError:
                return False  # an address naming a partition nobody made: no such table
            self._present.add(partition)
        return True

    async def append(self, table_id: str, batch: events_pb2.EventBatch, expected: int, command_id: str,
                     headers: dict[str, str] | None = None) -> tuple[Stored, bool]:
        """Store ``batch`` if the table's last sequence is ``expected``; returns (what was stored, was a duplicate).

        A duplicate was stored before, at the sequence returned: not necessarily as these bytes.
        """
        data = batch.SerializeToString()
        h = {"Nats-Expected-Last-Subject-Sequence": str(expected), "Nats-Msg-Id": duplicate_id(table_id, command_id),
             **(headers or {})}
        stream = stream_of(subjects.table_partition(table_id))
        try:
            ack = await self.js.publish(subjects.table_events(table_id), data, stream=stream, headers=h)
        except BadRequestError as e:
            if e.err_code == WRONG_LAST_SEQUENCE:
                metrics.APPEND_CONFLICTS.labels(stream).inc()
                raise conflict(e.description or "") from None
            raise
        return Stored(ack.seq, batch, data), bool(ack.duplicate)

    async def last_seq(self, table_id: str) -> int:
        """The table's last sequence as the stream's leader has it (0: none), not as a follower may still have it."""
        partition = subjects.table_partition(table_id)
        if not await self._has(partition):
            return 0
        try:
            return (await self.js.get_last_msg(stream_of(partition), subjects.table_events(table_id))).seq or 0
        except NotFoundError:
            return 0

    async def read(self, table_id: str, after: int = 0, until: int | None = None) -> list[Stored]:
        """Every batch of the table stored after sequence ``after`` (up to ``until``), in order."""
        partition = subjects.table_partition(table_id)
        if not await self._has(partition):
            return []
        stored = await read_subject(self.js, stream_of(partition), subjects.table_events(table_id), after, until)
        return [Stored.decode(m.seq, m.data) for m in stored]
