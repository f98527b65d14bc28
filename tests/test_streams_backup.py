"""``maumau streams backup`` and ``restore``: the platform's streams come back on a fresh server with every
message at its sequence, every table's record still verifies, and the projections rebuilt from them are
the ones the platform had."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path

import aiohttp
import nats
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import NoRespondersError
from nats.js.api import AckPolicy
from nats.js.errors import NoKeysError, NotFoundError
from sqlalchemy.ext.asyncio import AsyncEngine

from services.bots.service import BotSettings, BotsService
from services.clock.service import ClockService
from services.eventlog.sql import engine, position
from services.readmodels.accounts.projector import AccountsProjector
from services.readmodels.disputes.projector import DisputesProjector
from services.readmodels.main import reset
from services.readmodels.schema import migrate
from services.readmodels.tables.projection import partition_position
from services.readmodels.tables.projector import Projector
from services.record import records
from services.runtime import subjects
from services.runtime.supervisor import running_platform
from services.streams.backup import backup, platform_streams, restore_all
from services.streams.snapshot import ARCHIVE, CONSUMERS, META, SnapshotError, _begin, _send, restore, snapshot
from services.table.store import EventStore, partition_of_stream
from tests.bot_tables import bot_table
from tests.natsserver import JetStreamCluster, JetStreamServer, jetstream_server
from tests.service_task import running
from tests.table.harness import platform
from tests.table.test_projections import _dump
from tools.load.loadclient import new_session
from tools.load.loadtest import unlimited

Message = tuple[int, str, dict[str, str] | None, bytes]
SETTINGS = {**unlimited(), "MAUMAU_STREAM_PARTITIONS": "2", "MAUMAU_BOT_THINK_SECONDS": "0.05",
            "MAUMAU_BOT_BUDGET_MS": "5"}


async def _play(url: str) -> list[str]:
    """An account, bot tables in both partitions played to their end, a dispute about one: every kind of stream."""
    async with aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bearer {await new_session(http, url, 'Vera')}"}
        async with http.post(f"{url}/api/accounts", json={"name": "Vera", "password": "correct horse battery"},
                             headers=auth) as r:
            assert r.status == 201, await r.text()
        ids: list[str] = []
        while len({subjects.table_partition(t) for t in ids}) < 2 or len(ids) < 3:
            ids.append(await bot_table(http, url, auth))
        for _ in range(1200):
            statuses = []
            for t in ids:
                async with http.get(f"{url}/api/tables/{t}") as r:
                    statuses.append((await r.json())["status"])
            if all(s == "over" for s in statuses):
                break
            await asyncio.sleep(0.1)
        assert statuses == ["over"] * len(ids)
        async with http.post(f"{url}/api/tables/{ids[0]}/disputes", json={"text": "o bot comprou duas vezes"},
                             headers=auth) as r:
            assert r.status == 201, await r.text()
    return ids


async def _contents(nc: NATS, stream: str, last: int) -> list[Message]:
    """Every message of ``stream`` up to ``last``: its sequence, subject, headers and bytes."""
    js, found = nc.jetstream(), []
    for seq in range(1, last + 1):
        try:
            m = await js.get_msg(stream, seq)
        except NotFoundError:
            continue  # a deleted message (a chat line past the table's last 100): a gap kept as a gap
        assert m.seq is not None and m.subject is not None and m.data is not None
        found.append((m.seq, m.subject, m.headers, m.data))
    return found


def _backed_up(into: Path) -> dict[str, int]:
    """Each stream of the backup and its last sequence then."""
    return {(meta := json.loads((d / META).read_text()))["config"]["name"]: int(meta["state"]["last_seq"])
            for d in into.iterdir()}


async def _caught_up(nc: NATS, db: AsyncEngine) -> None:
    """Wait until the projections of ``db`` have reached the end of every stream they follow."""
    js = nc.jetstream()
    goal = {name: (await js.stream_info(name)).state.last_seq for name, _ in await EventStore(js).streams()}
    accounts, disputes = AccountsProjector(js, db), DisputesProjector(js, db)
    ends = {accounts: (await js.stream_info("ACCOUNTS")).state.last_seq,
            disputes: (await js.stream_info("DISPUTES")).state.last_seq}
    for _ in range(400):
        async with db.connect() as conn:
            reached = {name: await position(conn, partition_position(partition_of_stream(name) or 0))
                       for name in goal}
        if reached == goal and all([await p.caught_up() >= end for p, end in ends.items()]):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the projections did not catch up: {reached} of {goal}")


async def _project_all(nc: NATS, db: AsyncEngine) -> None:
    """Run the projector's three projections until each has reached its stream's end."""
    js = nc.jetstream()
    tasks = [asyncio.create_task(p.run()) for p in (Projector(js, db), AccountsProjector(js, db),
                                                    DisputesProjector(js, db))]
    try:
        await _caught_up(nc, db)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_backup_restored_on_a_fresh_server_keeps_every_sequence_and_rebuilds_the_projections(
        tmp_path: Path) -> None:
    into = tmp_path / "backup"
    async with running_platform(tmp_path / "data", quiet=True, settings=SETTINGS) as (addresses, _):
        ids = await _play(addresses["gateway_url"])
        out = io.StringIO()
        assert await backup(addresses["nats_url"], into, out) == 0, out.getvalue()
        saved = _backed_up(into)
        nc = await nats.connect(addresses["nats_url"])
        try:
            before = {name: await _contents(nc, name, last) for name, last in saved.items()}
            kv_clock = (await nc.jetstream().stream_info("KV_CLOCK")).state.messages
            original = engine(addresses["database_url"])  # the platform's own projections, once at the streams' ends
            await _caught_up(nc, original)
            projected = await _dump(original)
            await original.dispose()
        finally:
            await nc.close()

    # The tables of both partitions, the chat, the disputes, the accounts and the names' claims.
    assert set(saved) == {"TABLES", "TABLES-1", "CHAT", "DISPUTES", "ACCOUNTS", "KV_maumau_account_claims"}
    assert all(saved[name] > 0 for name in saved if name != "CHAT") and kv_clock > 0

    with jetstream_server() as fresh:
        out = io.StringIO()
        assert await restore_all(fresh.url, into, out) == 0, out.getvalue()
        again = io.StringIO()
        assert await restore_all(fresh.url, into, again) == 1  # an existing stream is kept unless told
        assert "already there" in again.getvalue()
        nc = await nats.connect(fresh.url)
        try:
            js = nc.jetstream()
            after = {name: await _contents(nc, name, last) for name, last in saved.items()}
            assert sorted(await platform_streams(nc)) == sorted(saved)
            durables = {name: {c.name for c in await js.consumers_info(name)} for name in ("TABLES", "TABLES-1")}
            try:
                await js.stream_info("KV_CLOCK")
                clock_kept = True
            except NotFoundError:
                clock_kept = False
            for table_id in ids:
                verdict = io.StringIO()
                assert await records.verify_table(fresh.url, table_id, verdict) == 0, verdict.getvalue()
            async with running(fresh.url, ClockService):  # the clock folds every table again into a new bucket
                for _ in range(200):
                    with contextlib.suppress(NotFoundError, NoKeysError):
                        if set(ids) <= set(await (await js.key_value("CLOCK")).keys()):
                            break
                    await asyncio.sleep(0.05)
                clocked = set(await (await js.key_value("CLOCK")).keys())
            url = f"sqlite+aiosqlite:///{tmp_path}/after.db"
            rebuilt = engine(url)
            await migrate(url)
            await reset(rebuilt, url, js)  # what ``maumau projector --rebuild`` does first
            await _project_all(nc, rebuilt)
            projected_again = await _dump(rebuilt)
            await rebuilt.dispose()
        finally:
            await nc.close()

    assert after == before  # every message at its sequence, its subject, headers and bytes
    # The bots and the projector (until its rebuild) go on from where they were; the clock starts again
    assert all(durables[name] == {"bots", "projector"} for name in durables)
    assert not clock_kept and set(ids) <= clocked  # ... from the tables, its timers derived afresh
    assert projected_again == projected and len(projected["table_directory"]) == len(ids)



async def _acknowledged(nc: NATS, stream: str, durable: str) -> int:
    return int((await nc.jetstream().consumer_info(stream, durable)).ack_floor.stream_seq)


async def test_a_restore_on_a_three_server_cluster_answers_once_the_consumers_are_back_at_their_positions(
        nats_server: JetStreamServer, nats_cluster: JetStreamCluster, tmp_path: Path) -> None:
    """A cluster makes a restored stream's consumers a moment after the stream: the restore waits for them,
    or the clock's consumer would come back after it was dropped, past timers its dropped bucket held."""
    into = tmp_path / "backup"
    async with platform(nats_server.url) as p, \
            running(nats_server.url, lambda nc: BotsService(nc, BotSettings(think_seconds=0, budget_ms=2))), \
            running(nats_server.url, ClockService):
        table_id = await p.new_table(bots=False, humans=("bob", "carla"))
        for i in range(8):
            await p.play_one(table_id, pick=i)
        last = await p.last_seq(table_id)
        for _ in range(200):
            floors = [await _acknowledged(p.client, "TABLES", durable) for durable in ("bots", "clock")]
            if floors == [last, last]:
                break
            await asyncio.sleep(0.05)
        assert floors == [last, last]
        out = io.StringIO()
        assert await backup(nats_server.url, into, out) == 0, out.getvalue()
        before = await _contents(p.client, "TABLES", last)
    assert set(_backed_up(into)) == {"TABLES"}  # not the clock's bucket, nor the presence marks

    out = io.StringIO()
    assert await restore_all(nats_cluster.url, into, out, replicas=3) == 0, out.getvalue()
    nc = await nats.connect(nats_cluster.url.split(","))
    try:
        js = nc.jetstream()
        durables = {c.name for c in await js.consumers_info("TABLES")}
        bots_at = await _acknowledged(nc, "TABLES", "bots")
        copies = (await js.stream_info("TABLES")).config.num_replicas
        after = await _contents(nc, "TABLES", last)
        verdict = io.StringIO()
        assert await records.verify_table(nats_cluster.url, table_id, verdict) == 0, verdict.getvalue()  # all three
    finally:
        await nc.close()
    assert after == before and copies == 3
    assert durables == {"bots"} and bots_at == last  # the bots' position kept; the clock's dropped, not raced


async def test_a_durable_consumer_the_snapshot_left_out_is_made_again_after_the_position_it_had_acknowledged(
        nats_url: str, tmp_path: Path) -> None:
    """A cluster's snapshot may hold none of its stream's consumers (the restore drill's finding): the backup's
    own list of them brings each back, delivering from the batch after the last it had acknowledged."""
    nc = await nats.connect(nats_url)
    try:
        js = nc.jetstream()
        await js.add_stream(name="S", subjects=["s.*"])
        for i in range(10):
            await js.publish(f"s.{i % 3}", str(i).encode())
        sub = await js.pull_subscribe("s.*", durable="reader", stream="S")
        for m in await sub.fetch(4):
            await m.ack_sync()
        await sub.unsubscribe()
        with_consumers, without = tmp_path / "with", tmp_path / "without"
        await snapshot(nc, "S", with_consumers)
        await snapshot(nc, "S", without, consumers=False)
        assert not (without / CONSUMERS).exists()
        # the archive as a cluster may give it: the stream's messages, none of its consumers
        (without / ARCHIVE).replace(with_consumers / ARCHIVE)
        await js.delete_stream("S")
        made = await restore(nc, with_consumers)
        again = await js.pull_subscribe_bind("reader", stream="S")
        first = (await again.fetch(1))[0]
        info = await js.consumer_info("S", "reader")
    finally:
        await nc.close()
    assert made.messages == 10 and made.last_seq == 10
    assert first.metadata.sequence.stream == 5 and first.data == b"4"
    assert info.config.filter_subject == "s.*" and info.config.ack_policy == AckPolicy.EXPLICIT


class _Late:
    """A connection whose first request finds nobody listening yet, as a fresh cluster's restore subject may."""

    def __init__(self) -> None:
        self.asked = 0

    async def request(self, subject: str, data: bytes, timeout: float) -> str:
        self.asked += 1
        if self.asked == 1:
            raise NoRespondersError
        return "answer"


async def test_a_restore_waits_for_its_subject_to_be_known_before_its_first_chunk() -> None:
    late = _Late()
    assert await _send(late, "deliver", b"chunk", 1.0, patient=True) == "answer"  # type: ignore[arg-type]
    with pytest.raises(NoRespondersError):
        await _send(_Late(), "deliver", b"chunk", 1.0, patient=False)  # type: ignore[arg-type]


class _Counting:
    """A fresh cluster's meta leader: it refuses a placement until it has counted every server online."""

    def __init__(self, refusals: int, code: int = 10005) -> None:
        self.refusals, self.code, self.asked = refusals, code, 0

    async def request(self, subject: str, data: bytes, timeout: float) -> Msg:
        self.asked += 1
        if self.asked <= self.refusals:
            error = {"code": 500, "err_code": self.code, "description": "no suitable peers for placement, peer offline"}
            return Msg(None, subject, data=json.dumps({"error": error}).encode())  # type: ignore[arg-type]
        return Msg(None, subject, data=json.dumps({"deliver_subject": "chunks"}).encode())  # type: ignore[arg-type]


async def test_a_restore_asks_again_while_the_cluster_counts_a_peer_offline() -> None:
    counting = _Counting(refusals=2)
    assert await _begin(counting, "TABLES", {}) == {"deliver_subject": "chunks"}  # type: ignore[arg-type]
    assert counting.asked == 3


async def test_a_restore_refused_for_another_reason_is_not_asked_again() -> None:
    refusing = _Counting(refusals=1, code=10058)
    with pytest.raises(SnapshotError, match="code 10058"):
        await _begin(refusing, "TABLES", {})  # type: ignore[arg-type]
    assert refusing.asked == 1
