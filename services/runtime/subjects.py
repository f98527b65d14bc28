"""Every NATS subject the platform uses, in one place.

>>> table_command("t1"), chat_command("t1")
('cmd.table.t1', 'cmd.chat.t1')
>>> table_events("t1"), live_table("t1"), chat_lines("t1")
('tables.t1', 'live.tables.t1', 'chat.t1')
>>> account_command("a1"), account_events("a1")
('cmd.accounts.a1', 'accounts.a1')
"""

from __future__ import annotations

TABLE_EVENTS = "tables.*"  # the TABLES stream: one subject per table
LIVE_TABLES = "live.tables.{{wildcard(1)}}"  # where the TABLES stream republishes what it stored
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


def table_events(table_id: str) -> str:
    return f"tables.{table_id}"


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
