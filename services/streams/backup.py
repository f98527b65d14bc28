"""``maumau streams backup DIR`` and ``maumau streams restore DIR``: the streams that hold the platform's truth.

Backed up, in this order, each as the server's snapshot (``snapshot.py``: every message at its
sequence, the durable consumers' positions with it):

* every partition's tables (``TABLES``, ``TABLES-k``): the record. The bots' consumer comes
  back where it was; the projector's is dropped by ``maumau projector --rebuild``;
* ``CHAT``, ``DISPUTES``, ``ACCOUNTS``;
* the names' claims (``KV_maumau_account_claims``), after the accounts: a claim is taken before
  its account's events are stored, so a claim without its account (a name held, as when a
  request dies between the two: docs/accounts.md) is the worst a snapshot taken meanwhile
  can give, never an account whose name nobody holds.

Not backed up: the clock's timers (``CLOCK``) are derived from the tables, and a bucket taken
after the tables may hold a state of a table the restored stream never reached; a restore
drops the bucket and the clock's consumers, and the clock folds every table again from its
first batch. Sessions, presence marks, quick-match pools and rate limits are short-lived; a
session restored could be one its owner has since signed out of: people sign in again.

Each stream's snapshot is one moment of that stream; the streams are taken one after the
other, seconds apart on a live platform (docs/operations.md).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TextIO

from nats.aio.client import Client as NATS
from nats.js.errors import NotFoundError

from services.accounts.store import CLAIMS
from services.accounts.store import STREAM as ACCOUNTS
from services.chat.store import STREAM as CHAT
from services.clock.service import BUCKET as CLOCK
from services.clock.service import DURABLE as CLOCK_DURABLE
from services.disputes.store import STREAM as DISPUTES
from services.runtime.platform import tool_connect
from services.streams.snapshot import META, restore, snapshot, stream_name
from services.table.store import EventStore, partition_of_stream

KEPT = (CHAT, DISPUTES, ACCOUNTS, f"KV_{CLAIMS}")  # after the tables' partitions, in this order


async def _present(nc: NATS) -> set[str]:
    return {name for info in await nc.jetstream().streams_info() if (name := info.config.name)}


async def platform_streams(nc: NATS) -> list[str]:
    """The streams a backup holds that the server has, tables first."""
    present = await _present(nc)
    tables = [name for name, _ in await EventStore(nc.jetstream()).streams()]
    return [name for name in (*tables, *KEPT) if name in present]


async def backup(nats_url: str, into: Path, out: TextIO) -> int:
    """Snapshot every stream of the platform into ``into`` (new or empty), one directory per stream."""
    if into.exists() and any(into.iterdir()):
        print(f"maumau streams backup: {into} is not empty", file=out)
        return 1
    nc = await tool_connect(nats_url)
    try:
        for name in await platform_streams(nc):
            print(await snapshot(nc, name, into / name), file=out)
    finally:
        await nc.close()
    return 0


async def forget_timers(nc: NATS) -> None:
    """Drop the clock's bucket and its consumers: the clock derives every timer again from the tables."""
    js = nc.jetstream()
    for name, _ in await EventStore(js).streams():
        with contextlib.suppress(NotFoundError):
            await js.delete_consumer(name, CLOCK_DURABLE)
    with contextlib.suppress(NotFoundError):
        await js.delete_key_value(CLOCK)


async def restore_all(nats_url: str, source: Path, out: TextIO, replace: bool = False,
                      replicas: int | None = None) -> int:
    """Make every stream of the backup ``source`` again; an existing one only with ``replace`` (deleted first)."""
    saved = sorted(d for d in source.iterdir() if (d / META).is_file()) if source.is_dir() else []
    if not saved:
        print(f"maumau streams restore: no stream backed up in {source}", file=out)
        return 1
    nc = await tool_connect(nats_url)
    try:
        names = {d: stream_name(d) for d in saved}
        existing = sorted(set(names.values()) & await _present(nc))
        if existing and not replace:
            print(f"maumau streams restore: already there: {', '.join(existing)} (--replace deletes them first)",
                  file=out)
            return 1
        for d, name in names.items():
            if name in existing:
                await nc.jetstream().delete_stream(name)
            print(await restore(nc, d, replicas), file=out)
        if any(partition_of_stream(name) is not None for name in names.values()):
            await forget_timers(nc)
    finally:
        await nc.close()
    print("next: maumau projector --rebuild (the projections must follow the restored streams)", file=out)
    return 0
