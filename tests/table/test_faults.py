"""Crashes: a table service replica killed with SIGKILL, and the NATS server stopped and restarted."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import select

from maumau.v1 import table_pb2
from services.eventlog.sql import engine
from services.readmodels.schema import migrate
from services.readmodels.tables.projection import directory
from services.readmodels.tables.projector import Projector
from services.runtime.supervisor import free_port, http_ready
from tests.natsserver import JetStreamServer
from tests.table.harness import Platform, platform


@asynccontextmanager
async def replica(nats_url: str, rules_addr: str) -> AsyncIterator[subprocess.Popen[bytes]]:
    """A table service replica as its own process (``maumau table serve``), ready: answering commands."""
    port = free_port()
    env = {**os.environ, "NATS_URL": nats_url, "RULES_ADDR": rules_addr, "MAUMAU_HEALTH_PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "table", "serve"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        await _until_ready(port)
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


async def _until_ready(port: int) -> None:
    for _ in range(300):
        if await http_ready(port):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the replica did not get ready")


async def _until_answers(p: Platform, table_id: str) -> None:
    for _ in range(100):
        try:
            reply = await p.send(table_id, "probe", join=table_pb2.JoinTable(invitation="x"))
        except Exception:  # no replica listening yet
            await asyncio.sleep(0.1)
            continue
        if reply.WhichOneof("result") == "refusal":
            return
    raise AssertionError("no table service replica answered")


async def _play(p: Platform, table_id: str, moves: int) -> list[int]:
    seqs: list[int] = []
    for i in range(moves):
        t = await p.table(table_id)
        if t.match is None or t.match.round_over:
            break
        reply = await p.play_one(table_id, pick=i)
        assert reply.WhichOneof("result") == "done", reply
        seqs.extend(reply.done.sequences)
    return seqs


async def test_a_replica_killed_mid_game_loses_nothing_and_play_goes_on(nats_url: str) -> None:
    async with (platform(nats_url, replicas=0) as p, replica(nats_url, p.rules_addr) as a,
                replica(nats_url, p.rules_addr)):
        await _until_answers(p, "warmup")
        tid = await p.new_table(ruleset="candeias", seats=4)
        before = await _play(p, tid, 10)
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        during = await _play(p, tid, 10)
        async with replica(nats_url, p.rules_addr):
            after = await _play(p, tid, 10)
        stored = [s.seq for s in await p.store.read(tid)]
    acknowledged = before + during + after
    assert len(acknowledged) >= 20
    assert set(acknowledged) <= set(stored) and len(stored) == len(set(stored))


async def test_nats_restarts_and_the_game_and_the_projection_go_on(nats_server: JetStreamServer,
                                                                    tmp_path: object) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/proj.db"
    await migrate(url)
    db = engine(url)
    async with platform(nats_server.url, replicas=2) as p:
        projector = Projector(p.client.jetstream(), db)
        task = asyncio.create_task(projector.run())
        tid = await p.new_table(ruleset="classic32", seats=3)
        before = await _play(p, tid, 6)
        await asyncio.to_thread(nats_server.restart)
        for _ in range(100):  # clients reconnect by themselves
            if p.client.is_connected:
                break
            await asyncio.sleep(0.1)
        after = await _play(p, tid, 6)
        stored = [s.seq for s in await p.store.read(tid)]
        for _ in range(100):
            if await projector.caught_up() >= stored[-1]:
                break
            await asyncio.sleep(0.1)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        t = await p.table(tid)
    async with db.connect() as conn:
        row = (await conn.execute(select(directory).where(directory.c.table_id == tid))).one()
    await db.dispose()
    assert set(before + after) <= set(stored) and len(after) >= 1
    assert row.seq == stored[-1] and row.on_turn == (t.match.turn if t.match and not t.match.round_over else None)
