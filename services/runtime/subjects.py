"""Every NATS subject the platform uses, in one place.

>>> table_command("t1"), chat_command("t1")
('cmd.table.t1', 'cmd.chat.t1')
>>> table_events("t1"), live_table("t1"), chat_lines("t1")
('tables.t1', 'live.tables.t1', 'chat.t1')
>>> account_command("a1"), account_events("a1")
('cmd.accounts.a1', 'accounts.a1')

A table's events live in one of the TABLES partitions (``MAUMAU_STREAM_PARTITIONS``), named by
its address (docs/scaling.md): ``p<k>-<name>`` lives in partition ``k``, any other id in
partition 0, the one stream there was before partitions.

>>> table_events("p2-3f9a"), live_table("p2-3f9a")
('tables.p2.p2-3f9a', 'live.tables.p2-3f9a')
"""

from __future__ import annotations

import hashlib
import re

TABLE_EVENTS = "tables.*"  # partition 0's stream, TABLES: one subject per table
ALL_TABLE_EVENTS = "tables.>"  # every partition's tables
LIVE_TABLES = "live.tables.{{wildcard(1)}}"  # where a TABLES stream republishes what it stored
CHAT_LINES = "chat.*"  # the CHAT stream: one subject per table
ACCOUNT_EVENTS = "accounts.*"  # the ACCOUNTS stream: one subject per account
OPEN_TABLES = "lobby.open"  # an open table's lobby line, each time it changes (core NATS: the lobby's live list)
DISPUTE_EVENTS = "disputes.*"  # the DISPUTES stream: one subject per dispute (docs/disputes.md)


def commands(kind: str) -> str:
    """The commands of one kind (``table``, ``chat``, ``accounts``) for every aggregate, as their service subscribes."""
    return f"cmd.{kind}.*"


def table_command(table_id: str) -> str:
    return f"cmd.table.{table_id}"


def chat_command(table_id: str) -> str:
    return f"cmd.chat.{table_id}"


def account_command(account_id: str) -> str:
    return f"cmd.accounts.{account_id}"


_PARTITIONED = re.compile(r"p([1-9][0-9]{0,3})-")


def table_partition(table_id: str) -> int:
    """The partition a table's address names.

    >>> table_partition("3f9a"), table_partition("p2-3f9a"), table_partition("p0-x"), table_partition("pq-x")
    (0, 2, 0, 0)
    """
    named = _PARTITIONED.match(table_id)
    return int(named.group(1)) if named else 0


def table_address(name: str, partitions: int) -> str:
    """The address of a new table called ``name`` when tables spread over ``partitions`` streams.

    A stable hash of the name picks the partition, so every replica gives one name the same
    address; the address keeps it, so a later change of ``partitions`` never moves the table.

    >>> table_address("3f9a", 1), table_address("3f9a", 3)
    ('3f9a', 'p1-3f9a')
    >>> table_partition(table_address("3f9a", 3))
    1
    """
    k = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % max(1, partitions)
    return f"p{k}-{name}" if k else name


def partition_events(partition: int) -> str:
    """The subjects of one partition's stream (``tables.*`` is partition 0's, as it always was)."""
    return f"tables.p{partition}.*" if partition else TABLE_EVENTS


def table_events(table_id: str) -> str:
    k = table_partition(table_id)
    return f"tables.p{k}.{table_id}" if k else f"tables.{table_id}"


def live_table(table_id: str) -> str:
    """The table's stored batches as the stream republishes them (``Nats-Sequence``, ``Nats-Last-Sequence``)."""
    return f"live.tables.{table_id}"


def chat_lines(table_id: str) -> str:
    return f"chat.{table_id}"


def account_events(account_id: str) -> str:
    return f"accounts.{account_id}"


def dispute_events(dispute_id: str) -> str:
    return f"disputes.{dispute_id}"


def table_of(subject: str) -> str:
    """The table a per-table subject is about.

    >>> table_of("cmd.table.t1")
    't1'
    """
    return subject.rsplit(".", 1)[-1]
