"""The backup and restore drill (docs/operations.md, "Back up and restore the streams"): the runbook's steps, run.

The platform runs through the supervisor on a three-server JetStream cluster (``maumau up --cluster 3``'s
servers, every stream in three copies) with the load test's clients playing human tables over the
gateway's WebSockets and bot tables playing themselves. While they play:

1. ``maumau streams backup DIR`` (the CLI, a process of its own);
2. the writers stop (the load, then every service; the NATS servers stay up a moment, for the reference below);
3. the NATS servers stop and their store directories are deleted: the cluster is lost;
4. a fresh three-server cluster starts on nothing;
5. ``maumau streams restore DIR --replicas 3``;
6. ``maumau projector --rebuild`` on the database the old platform kept (it holds batches past the backup's
   cut), stopped once its positions reach the restored streams' ends;
7. ``maumau verify --all``: every table of the backup holds;
8. the services start again on the restored cluster: a table that was playing at the cut takes new moves
   from its players' same device tokens, the bot tables the cut caught playing finish, a new bot table plays
   to its end, and every table still verifies.

"Equal" for the read models: the projections ``--rebuild`` writes from the restored streams are row for row
the ones the same projectors write when handed the old cluster's messages up to each stream's sequence in
the backup (``backup.json``'s ``last_seq``), read from the old cluster before it was destroyed. The old
platform's own database is not that: it went on past the cut, and the drill asserts that it differs.

The figures are printed, never asserted: the backup's size and time under load, the restore's time, the
batches it restored and its time per 10,000 batches, the rebuild's time, beside the machine's 10⁷-step
loop and the load average.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import nats
import pytest
from nats.aio.client import Client as NATS
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import ServiceUnavailableError
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import accounts_pb2, disputes_pb2, events_pb2
from services.eventlog.sql import engine, position
from services.readmodels.accounts.projector import AccountsProjector
from services.readmodels.disputes.projector import DisputesProjector
from services.readmodels.rankings.periods import zone
from services.readmodels.schema import migrate
from services.readmodels.tables.projection import partition_position
from services.readmodels.tables.projector import Projector
from services.runtime import subjects
from services.runtime.machine import loop_seconds
from services.runtime.settings import Settings
from services.runtime.supervisor import free_port, http_ready, running_platform
from services.streams.snapshot import META
from services.table.store import partition_of_stream
from tests.bot_tables import bot_table
from tests.table.test_projections import _dump
from tools.load.loadclient import Tab, Tally, new_session
from tools.load.loadtest import Measure, Plan, Progress, Table, _all_open, _stop, play, play_table, unlimited

pytestmark = pytest.mark.drill

NATS_SERVERS = {"nats1", "nats2", "nats3"}
SETTINGS = {**unlimited(), "MAUMAU_STREAM_PARTITIONS": "2", "MAUMAU_STREAM_REPLICAS": "3",
            "MAUMAU_BOT_THINK_SECONDS": "0.05", "MAUMAU_BOT_BUDGET_MS": "5"}
LOAD = Plan(clients=12, tables=4, seconds=20.0, warmup=1.0, rate=0, idle_sockets=0, seed=28)
BACKUP_AFTER = 8.0  # seconds of play before the backup is taken
BOT_TABLES = 4
MAUMAU = str(Path(sys.executable).with_name("maumau"))

Message = tuple[int, str, dict[str, str] | None, bytes]


async def _maumau(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, float]:
    """Run the CLI as an operator does: its exit status, its output, its seconds."""
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(MAUMAU, *args, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT, env={**os.environ, **(env or {})})
    out, _ = await proc.communicate()
    return await proc.wait(), out.decode(errors="replace"), time.perf_counter() - started


@contextlib.asynccontextmanager
async def _cluster(data: Path) -> AsyncIterator[str]:
    """The three NATS servers of ``maumau up --cluster 3`` in ``data``, alone: their NATS_URL."""
    async with running_platform(data, quiet=True, cluster=3, only=NATS_SERVERS) as (addresses, _):
        yield addresses["nats_url"]


@contextlib.asynccontextmanager
async def _services(data: Path, nats_url: str) -> AsyncIterator[dict[str, str]]:
    """Every service of the platform, on the cluster at ``nats_url`` (as the Deployments are, beside NATS's
    StatefulSet), the database in ``data``."""
    saved = os.environ.get("NATS_URL")
    os.environ["NATS_URL"] = nats_url
    try:
        async with running_platform(data, quiet=True, settings=SETTINGS) as (addresses, _):
            yield addresses
    finally:
        if saved is None:
            os.environ.pop("NATS_URL", None)
        else:
            os.environ["NATS_URL"] = saved


async def _messages(nc: NATS, stream: str, last: int) -> list[Message]:
    """Every message of ``stream`` up to sequence ``last``, in order: sequence, subject, headers, bytes."""
    if last == 0:
        return []
    js, found = nc.jetstream(), list[Message]()
    sub = await js.pull_subscribe(">", stream=stream, config=ConsumerConfig(
        deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.NONE, inactive_threshold=60))
    settled = time.monotonic() + 30
    try:
        while not found or found[-1][0] < last:
            try:
                batch = await sub.fetch(500, timeout=10)
            except ServiceUnavailableError:  # the new consumer not yet placed on the cluster (CI, crowded: a 503)
                if time.monotonic() > settled:
                    raise
                await asyncio.sleep(0.5)
                continue
            for m in batch:
                seq = m.metadata.sequence.stream
                if seq <= last:
                    found.append((seq, m.subject, m.headers, m.data))
                if seq >= last:
                    break
    finally:
        await sub.unsubscribe()
    return found


def _cut(into: Path) -> dict[str, int]:
    """Each stream of the backup and its last sequence in it."""
    return {(meta := json.loads((d / META).read_text()))["config"]["name"]: int(meta["state"]["last_seq"])
            for d in into.iterdir()}


async def _reference(backed_up: dict[str, list[Message]], js_old: Any, url: str) -> dict[str, list[Any]]:
    """The read models the projectors write from the backed-up messages alone (read from the old cluster)."""
    await migrate(url)
    db = engine(url)
    try:
        tables = Projector(js_old, db, tz=zone(Settings.from_env().time_zone))
        for stream, messages in backed_up.items():
            if partition_of_stream(stream) is None:
                continue
            for i in range(0, len(messages), 500):
                await tables.apply_many([(seq, subject.rsplit(".", 1)[-1], events_pb2.EventBatch.FromString(data))
                                         for seq, subject, _, data in messages[i:i + 500]])
        accounts, disputes = AccountsProjector(js_old, db), DisputesProjector(js_old, db)
        await accounts.apply_many([(seq, s.rsplit(".", 1)[-1], accounts_pb2.AccountEventBatch.FromString(d))
                                   for seq, s, _, d in backed_up.get("ACCOUNTS", [])])
        await disputes.apply_many([(seq, s.rsplit(".", 1)[-1], disputes_pb2.DisputeEvent.FromString(d))
                                   for seq, s, _, d in backed_up.get("DISPUTES", [])])
        return await _dump(db)
    finally:
        await db.dispose()


async def _positions(db: AsyncEngine, cut: dict[str, int]) -> dict[str, int]:
    """Where each projection of ``db`` stands, by the stream it follows."""
    names = {s: partition_position(k) for s in cut if (k := partition_of_stream(s)) is not None}
    names |= {"ACCOUNTS": AccountsProjector.position_name, "DISPUTES": DisputesProjector.position_name}
    async with db.connect() as conn:
        return {s: await position(conn, name) for s, name in names.items()}


async def _rebuild(nats_url: str, database_url: str, cut: dict[str, int]) -> float:
    """``maumau projector --rebuild``, stopped (SIGTERM) once every projection reached its stream's end."""
    health = free_port()
    env = {**os.environ, **SETTINGS, "NATS_URL": nats_url, "DATABASE_URL": database_url,
           "MAUMAU_HEALTH_PORT": str(health), "MAUMAU_LOG_LEVEL": "WARNING"}
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(MAUMAU, "projector", "--rebuild", env=env)
    db = engine(database_url)
    goal = {s: cut[s] for s in cut if partition_of_stream(s) is not None or s in ("ACCOUNTS", "DISPUTES")}
    try:
        for _ in range(1200):  # the old positions count only once it answers: it has dropped them by then
            assert proc.returncode is None, f"the rebuild ended with {proc.returncode}"
            with contextlib.suppress(Exception):
                reached = await _positions(db, cut)
                if await http_ready(health) and all(reached[s] >= last for s, last in goal.items()):
                    break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the rebuild did not reach {goal}: {await _positions(db, cut)}")
        return time.perf_counter() - started
    finally:
        await db.dispose()
        if proc.returncode is None:
            proc.terminate()
        assert await proc.wait() == 0


async def _status(http: aiohttp.ClientSession, url: str, table_id: str) -> str:
    async with http.get(f"{url}/api/tables/{table_id}") as r:
        return str((await r.json())["status"])


async def _until_over(http: aiohttp.ClientSession, url: str, ids: list[str], seconds: float = 180.0) -> list[str]:
    deadline = time.perf_counter() + seconds
    while True:
        statuses = [await _status(http, url, t) for t in ids]
        if all(s == "over" for s in statuses) or time.perf_counter() > deadline:
            return statuses
        await asyncio.sleep(0.25)


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


async def test_a_backup_under_load_restored_into_a_fresh_cluster_verifies_rebuilds_equal_and_plays_on(
        tmp_path: Path) -> None:
    data, into = tmp_path / "data", tmp_path / "backup"
    figures: dict[str, Any] = {}
    tally = Tally()

    # The platform, under load: the load test's clients at human tables, bots at theirs, an account, a dispute.
    async with _cluster(data) as old_url:
        async with _services(data, old_url) as addresses, \
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            gw = addresses["gateway_url"]
            vera = {"Authorization": f"Bearer {await new_session(http, gw, 'Vera')}"}
            async with http.post(f"{gw}/api/accounts", json={"name": "Vera", "password": "correct horse battery"},
                                 headers=vera) as r:
                assert r.status == 201, await r.text()
            bots: list[str] = []
            while len({subjects.table_partition(t) for t in bots}) < 2 or len(bots) < BOT_TABLES:
                bots.append(await bot_table(http, gw, vera, ruleset="classic52", seats=4))
            async with http.post(f"{gw}/api/tables/{bots[0]}/disputes", json={"text": "o bot comprou duas vezes"},
                                 headers=vera) as r:
                assert r.status == 201, await r.text()
            load = asyncio.create_task(play(http, gw, LOAD, None, tally))
            await asyncio.sleep(BACKUP_AFTER)
            assert not load.done()
            figures["load_before_backup"] = os.getloadavg()[0]
            code, said, figures["backup_s"] = await _maumau("streams", "backup", str(into), "--nats-url", old_url)
            assert code == 0, said
            assert not load.done(), "the load ended before the backup did: it was not taken under load"
            result, humans = await load
            assert result["moves"] > 0 and result["unseen"] == 0, result
        # the writers are stopped: the load's clients, then every service (bots, clock, table, gateway…)

        cut = _cut(into)
        assert all((into / s / "consumers.json").is_file() for s in cut)  # the durables, listed beside each archive
        assert set(cut) == {"TABLES", "TABLES-1", "CHAT", "DISPUTES", "ACCOUNTS", "KV_maumau_account_claims"}, said
        nc = await nats.connect(old_url.split(","))
        try:
            js_old = nc.jetstream()
            ends = {s: (await js_old.stream_info(s)).state.last_seq for s in cut}
            backed_up = {s: await _messages(nc, s, last) for s, last in cut.items()}
            db_url = f"sqlite+aiosqlite:///{tmp_path}/reference.db"
            reference = await _reference(backed_up, js_old, db_url)
        finally:
            await nc.close()
    # the backup was taken while the tables were being written: they went on past its cut
    assert all(ends[s] > cut[s] for s in ("TABLES", "TABLES-1")), (ends, cut)
    humans_at_cut = {t.table: max((seq for seq, subject, _, _ in backed_up[f"TABLES{'-1' if k else ''}"]
                                   if subject.endswith("." + t.table)), default=0)
                     for t in humans if (k := subjects.table_partition(t.table)) is not None}

    # The cluster is lost: its servers stopped, their stores deleted.
    stores = data / "nats-cluster"
    assert any(stores.rglob("*.blk")), "no store to destroy"
    shutil.rmtree(stores)

    async with _cluster(data) as new_url:
        nc = await nats.connect(new_url.split(","))
        try:
            assert await nc.jetstream().streams_info() == []  # nothing left of the old cluster

            code, said, figures["restore_s"] = await _maumau("streams", "restore", str(into), "--replicas", "3",
                                                            "--nats-url", new_url)
            assert code == 0, said
            js = nc.jetstream()
            restored = {s: await _messages(nc, s, cut[s]) for s in cut}
            states = {s: (await js.stream_info(s)) for s in cut}
            durables = {s: {c.name: c for c in await js.consumers_info(s) if c.config.durable_name}  # not _messages'
                        for s in ("TABLES", "TABLES-1")}
        finally:
            await nc.close()
        assert restored == backed_up  # every message at its sequence, its subject, headers and bytes
        assert {s: i.state.last_seq for s, i in states.items()} == cut
        assert all(i.config.num_replicas == 3 for i in states.values())
        for s, found in durables.items():  # the bots go on from their position, never past the stream's end
            assert set(found) == {"bots", "projector"}, found
            floor, delivered = found["bots"].ack_floor, found["bots"].delivered
            assert floor is not None and delivered is not None
            assert floor.stream_seq <= cut[s] and delivered.stream_seq <= cut[s], (s, found["bots"])

        database_url = f"sqlite+aiosqlite:///{(data / 'maumau.db').resolve()}"
        old_db = engine(database_url)
        stale = await _dump(old_db)
        await old_db.dispose()
        assert stale != reference  # the old database went on past the cut: it needs the rebuild
        figures["rebuild_s"] = await _rebuild(new_url, database_url, cut)
        rebuilt = engine(database_url)
        projected = await _dump(rebuilt)
        await rebuilt.dispose()
        assert projected == reference

        code, verified, _ = await _maumau("verify", "--all", "--nats-url", new_url)
        tables_backed_up = {subject for s, messages in backed_up.items() if partition_of_stream(s) is not None
                            for _, subject, _, _ in messages}
        batches = sum(len(m) for s, m in backed_up.items() if partition_of_stream(s) is not None)
        assert code == 0 and f"ok: {len(tables_backed_up)} tables, {batches} batches verified" in verified, verified

        # Play goes on: the services started again on the restored cluster.
        async with _services(data, new_url) as addresses, \
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            gw = addresses["gateway_url"]
            playing = [t for t in humans if await _status(http, gw, t.table) == "playing"]
            assert playing, "no human table was playing at the cut"
            table = playing[0]
            again = Table(table.table)
            for seat, tab in enumerate(table.tabs):  # the same device tokens: guests' seats need no session
                again.views.append(None)
                again.tabs.append(Tab(http, gw, tab.token, [again.table], again.on_frame(seat), tally))
            running = [asyncio.create_task(tab.run()) for tab in again.tabs]
            try:
                await _all_open([again])
                now = time.perf_counter()
                measure = Measure(now, now + 60.0)
                await play_table(again, measure, random.Random(1), Progress(now, 60.0), 0.0, moves=3)
            finally:
                await _stop(again.tabs, running)
            assert len(measure.latencies) == 3 and measure.unseen == 0
            assert min(max(s) for s, _ in again.reached.values()) > humans_at_cut[again.table]

            caught = [t for t in bots if t in {s.rsplit(".", 1)[-1] for s in tables_backed_up}]
            finished = await _until_over(http, gw, caught)
            assert finished == ["over"] * len(caught), finished  # the bots go on with the tables they were at
            fresh = await bot_table(http, gw, vera)
            assert await _until_over(http, gw, [fresh]) == ["over"]
        code, verified, _ = await _maumau("verify", "--all", "--nats-url", new_url)
        assert code == 0, verified

    figures.update({
        "backup_bytes": _du(into), "batches_restored": batches,
        "restore_s_per_10k_batches": round(figures["restore_s"] / batches * 10_000, 2),
        "load": {k: result[k] for k in ("moves", "moves_per_s", "p50_ms", "p99_ms")},
        "streams": {s: cut[s] for s in sorted(cut)}, "past_the_cut": {s: ends[s] - cut[s] for s in sorted(cut)},
        "load_average": os.getloadavg()[0], "loop_10m_s": loop_seconds(),
    })
    for key in ("backup_s", "restore_s", "rebuild_s"):
        figures[key] = round(figures[key], 2)
    print("\nrestore drill:", json.dumps(figures))

