"""Tables' event streams on NATS JetStream: one subject per table, each table in one partition's stream.

Partition 0's stream is ``TABLES``, partition ``k``'s ``TABLES-k``; a table's address names its
partition (``services.runtime.subjects.table_partition``), so a store routes each table's
appends and reads by its id alone.

A command's events are stored as one message (an ``EventBatch``), so they land whole or
not at all; each partition's stream is an ``EventLog`` (``services.eventlog.store``: the
expected last sequence, the de-duplication id). Every stored batch is also republished on
``subjects.LIVE_TABLES``, which the gateways follow.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from nats.js import JetStreamContext

from maumau.v1 import events_pb2
from services.eventlog.store import EventLog
from services.runtime import subjects

STREAM = "TABLES"  # partition 0's
SUBJECTS = subjects.TABLE_EVENTS
_PARTITION_STREAM = re.compile(r"TABLES(?:-([1-9][0-9]*))?")
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
        self._logs: dict[int, EventLog] = {}
        self._present = set(range(partitions))  # partitions known to have a stream

    def log(self, partition: int) -> EventLog:
        """The event log of one partition."""
        if partition not in self._logs:
            self._logs[partition] = EventLog(
                self.js, stream_of(partition), subjects.partition_events(partition), self.replicas,
                self.duplicate_window, republish_to=subjects.LIVE_TABLES)
        return self._logs[partition]

    async def ensure_stream(self) -> None:
        """Make sure partitions 0 … ``partitions`` − 1 each have their stream, as configured."""
        for k in range(self.partitions):
            await self.log(k).ensure()

    async def streams(self) -> list[tuple[str, str]]:
        """Every partition's stream on the server and its subjects, configured here or not (an earlier setting's)."""
        found = {k for info in await self.js.streams_info()
                 if (k := partition_of_stream(info.config.name or "")) is not None}
        self._present |= found
        return [(stream_of(k), subjects.partition_events(k)) for k in sorted(found | set(range(self.partitions)))]

    async def _has(self, partition: int) -> bool:
        if partition not in self._present:
            if not await self.log(partition).exists():
                return False  # an address naming a partition nobody made: no such table
            self._present.add(partition)
        return True

    async def append(self, table_id: str, batch: events_pb2.EventBatch, expected: int, command_id: str,
                     headers: dict[str, str] | None = None) -> tuple[Stored, bool]:
        """Store ``batch`` if the table's last sequence is ``expected``; returns (what was stored, was a duplicate).

        A duplicate was stored before, at the sequence returned: not necessarily as these bytes.
        """
        data = batch.SerializeToString()
        seq, duplicate = await self.log(subjects.table_partition(table_id)).append(
            subjects.table_events(table_id), table_id, data, expected=expected, command_id=command_id,
            headers=headers)
        return Stored(seq, batch, data), duplicate

    async def last_seq(self, table_id: str) -> int:
        """The table's last sequence as the stream's leader has it (0: none), not as a follower may still have it."""
        partition = subjects.table_partition(table_id)
        if not await self._has(partition):
            return 0
        return await self.log(partition).last_seq(subjects.table_events(table_id))

    async def read(self, table_id: str, after: int = 0, until: int | None = None) -> list[Stored]:
        """Every batch of the table stored after sequence ``after`` (up to ``until``), in order."""
        partition = subjects.table_partition(table_id)
        if not await self._has(partition):
            return []
        stored = await self.log(partition).read(subjects.table_events(table_id), after, until)
        return [Stored.decode(m.seq, m.data) for m in stored]
