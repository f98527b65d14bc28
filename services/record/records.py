"""``maumau verify``, ``maumau export`` and ``maumau replay``: a table's record, read from the running platform
(``verify --all``: every table's, each partition's tables listed from its stream's subjects).

Each reads the table's stream once, from its first batch (``EventStore.read``: many batches
per round trip), and leaves the work to the pure modules: ``verify``, ``export``, ``replay``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import BinaryIO, TextIO

from services.record import export, replay
from services.record.verify import Verdict, verify
from services.record.verify_all import Verifiers
from services.runtime.platform import tool_connect
from services.runtime.signing import load_key, load_public
from services.table.repository import tables
from services.table.store import EventStore, Stored


async def read_table(nats_url: str, table_id: str) -> list[Stored]:
    nc = await tool_connect(nats_url)
    try:
        return await EventStore(nc.jetstream()).read(table_id)
    finally:
        await nc.close()


def report(verdict: Verdict, out: TextIO) -> int:
    """Print the verdict; the exit status: 0 when every record holds."""
    print(verdict, file=out)
    return 0 if verdict.ok else 1


async def verify_table(nats_url: str, table_id: str, out: TextIO) -> int:
    records = await read_table(nats_url, table_id)
    if not records:
        print(f"there is no table {table_id!r}", file=out)
        return 1
    return report(verify(table_id, records), out)


async def verify_all(nats_url: str, out: TextIO) -> int:
    """``maumau verify --all``: every table of every partition, one line per table that does not hold, then a total.

    Each partition's stream is read once, and its tables checked as their batches come, one process per core
    (``verify_all.Verifiers``)."""
    nc = await tool_connect(nats_url)
    verdicts: dict[str, Verdict] = {}
    try:
        with Verifiers() as verifiers:
            for stream, subject in await EventStore(nc.jetstream()).streams():
                verdicts.update(await verifiers.verify(nc, stream, subject))
    finally:
        await nc.close()
    bad = 0
    for table_id, verdict in sorted(verdicts.items()):
        if not verdict.ok:
            bad += 1
            print(f"{table_id}: {verdict}", file=out)
    if bad:
        print(f"{bad} of {len(verdicts)} tables do not hold", file=out)
        return 1
    print(f"ok: {len(verdicts)} tables, {sum(v.batches for v in verdicts.values())} batches verified", file=out)
    return 0


def verify_file(path: Path, public_key: Path | None, out: TextIO) -> int:
    key = load_public(public_key.read_bytes()) if public_key is not None else None
    code = report(export.verify_export(path.read_bytes(), key), out)
    if key is None and code == 0:
        print("the signature was not checked: give --public-key (GET /api/signing-key)", file=out)
    return code


async def export_table(nats_url: str, table_id: str, signing_key: Path, out: BinaryIO) -> int:
    records = await read_table(nats_url, table_id)
    if not records:
        print(f"there is no table {table_id!r}", file=sys.stderr)
        return 1
    key = load_key(signing_key)
    for line in export.lines(table_id, records, key):
        out.write(line)
    return 0


async def replay_table(nats_url: str, table_id: str, viewer: replay.Viewer, until: int | None, as_json: bool,
                       out: TextIO) -> int:
    nc = await tool_connect(nats_url)
    names: list[str] = []  # the players' before each batch: who left is named by the seat they had
    found = False
    try:
        async for t, stored in tables(EventStore(nc.jetstream()), cache_size=0).history(table_id, until):
            found = True
            if as_json:  # the step the web client's replay viewer draws
                print(json.dumps(replay.step(t, stored.seq, stored.batch, viewer, names), ensure_ascii=False),
                      file=out)
            else:
                for e in (replay.seen(ev, viewer) for ev in stored.batch.events):
                    print(f"seq {stored.seq}  {replay.words(e, names)}", file=out)
            names = [p.name for p in t.players]
    finally:
        await nc.close()
    if not found:
        print(f"there is no table {table_id!r}", file=sys.stderr)
        return 1
    return 0
