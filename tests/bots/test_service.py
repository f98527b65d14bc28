"""The bots service over real NATS: whole matches of bots, waiting for people, crashes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from collections import Counter
from contextlib import AbstractAsyncContextManager

import pytest

from maumau.v1 import table_pb2
from services.bots.reading import observe
from services.bots.service import BotSettings, BotsService
from services.rules.wire import action_from_pb, option_to_pb
from services.table.domain import Table, evolve
from tests.service_task import running
from tests.table.harness import platform

QUICK_MATCHES = {
    "classic32": {"target_points": 60},
    "classic52": {"target_points": 40},
    "candeias": {},
    "colors108": {"target_points": 120},
}


def bots(nats_url: str) -> AbstractAsyncContextManager[BotsService]:
    return running(nats_url, lambda nc: BotsService(nc, BotSettings(think_seconds=0, budget_ms=2), seed=1))


@pytest.mark.parametrize("ruleset", sorted(QUICK_MATCHES))
async def test_a_table_of_four_bots_plays_a_whole_match(nats_url: str, ruleset: str) -> None:
    async with platform(nats_url) as p, bots(nats_url) as b:
        tid = "m" + uuid.uuid4().hex[:8]
        create = table_pb2.CreateTable(ruleset=ruleset, seats=4, watch=True)
        for key, value in QUICK_MATCHES[ruleset].items():
            create.options[key].CopyFrom(option_to_pb(value))
        await p.send(tid, "host", create=create)
        await p.send(tid, "host", fill_bots=table_pb2.FillBots())
        started = await p.send(tid, "host", start=table_pb2.StartMatch())
        for _ in range(1200):
            t = await p.table(tid)
            if t.status == "over":
                break
            await asyncio.sleep(0.05)
        stored = await p.store.read(tid)
    assert started.WhichOneof("result") == "done" and all(pl.bot for pl in t.players) and len(t.players) == 4
    assert t.status == "over" and t.winners, f"{ruleset} match did not end: {t.status}"
    ids = Counter(s.batch.events[0].command_id for s in stored)
    assert all(n == 1 for n in ids.values()) and b.sent > 0


async def test_a_table_with_a_human_seat_waits_for_the_human(nats_url: str) -> None:
    async with platform(nats_url) as p, bots(nats_url):
        tid = "w" + uuid.uuid4().hex[:8]
        await p.send(tid, "alice", create=table_pb2.CreateTable(ruleset="classic32", seats=4))
        await p.send(tid, "alice", fill_bots=table_pb2.FillBots())
        await p.send(tid, "alice", start=table_pb2.StartMatch())
        for _ in range(200):
            t = await p.table(tid)
            if t.match is not None and (t.match.turn == 0 or t.match.round_over):
                break
            await asyncio.sleep(0.02)
        seq = t.seq
        await asyncio.sleep(1.0)
        later = await p.table(tid)
    assert t.match is not None and (t.match.turn == 0 or t.match.round_over)
    assert later.seq == seq, "nobody played the human's turn"


async def test_a_killed_bots_service_resumes_and_acts_once(nats_url: str) -> None:
    async with platform(nats_url) as p:
        env = {**os.environ, "NATS_URL": nats_url, "MAUMAU_BOT_THINK_SECONDS": "0", "MAUMAU_BOT_BUDGET_MS": "2"}
        argv = [sys.executable, "-m", "cli.main", "bots", "serve"]
        tid = "k" + uuid.uuid4().hex[:8]
        await p.send(tid, "host", create=table_pb2.CreateTable(ruleset="colors108", seats=4, watch=True))
        await p.send(tid, "host", fill_bots=table_pb2.FillBots())
        await p.send(tid, "host", start=table_pb2.StartMatch())
        first = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):  # let the bots play a little, then crash them
                if (await p.table(tid)).seq >= 12:
                    break
                await asyncio.sleep(0.05)
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait(10)
        crashed_at = (await p.table(tid)).seq
        second = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(400):
                if (await p.table(tid)).seq >= crashed_at + 10:
                    break
                await asyncio.sleep(0.05)
        finally:
            second.terminate()
            second.wait(10)
        stored = await p.store.read(tid)
    ids = [s.batch.events[0].command_id for s in stored]
    assert crashed_at >= 12 and len(stored) >= crashed_at + 10 - 2, "the game went on after the restart"
    assert len(ids) == len(set(ids)), "no bot acted twice on one position"


async def test_the_bots_read_the_round_from_the_tables_events(nats_url: str) -> None:
    """The service folds every action of the round into a reading, the same as one folded from the record."""
    async with platform(nats_url) as p, bots(nats_url) as b:
        tid = "r" + uuid.uuid4().hex[:8]
        await p.send(tid, "host", create=table_pb2.CreateTable(ruleset="classic32", seats=4, watch=True))
        await p.send(tid, "host", fill_bots=table_pb2.FillBots())
        await p.send(tid, "host", start=table_pb2.StartMatch())
        for _ in range(400):
            if (await p.table(tid)).seq >= 30:
                break
            await asyncio.sleep(0.05)
        stored = await p.store.read(tid)
        for _ in range(400):  # the service has folded at least as far as the record read, within a round it reads
            t = b.folder.cached(tid)  # (just after a deal, no action of the new round is read yet)
            if t is not None and t.seq >= stored[-1].seq and b.readings.get(tid) is not None:
                break
            await asyncio.sleep(0.01)
        read = b.readings.get(tid)
        stored = await p.store.read(tid)  # as far as the reading at least
    table, reading, round_no = Table(tid), None, -1
    for s in stored:
        if read is not None and s.seq > read.seq:
            break
        for ev in s.batch.events:
            match = table.match
            if ev.WhichOneof("body") == "action_taken" and match is not None and not match.round_over:
                reading = observe(reading if round_no == table.round_no else None, match,
                                  action_from_pb(ev.action_taken.action, match.rs.family))
                round_no = table.round_no
            evolve(table, s.seq, ev)
    assert read is not None and reading is not None and read.round_no == table.round_no == round_no
    assert read.reading == reading and any(reading.constrained(i) for i in range(4))
