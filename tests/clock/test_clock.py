"""The clock over real NATS: timers from the stream, fired as commands, surviving restarts."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from maumau.v1 import table_pb2
from services.clock.service import ClockService, _decode
from services.clock.timers import Durations, timers
from services.rules.wire import option_to_pb
from services.table.domain import Table
from services.table.service import Settings
from tests.service_task import running
from tests.table.harness import Platform, platform

FAST = Settings(absence_seconds=1.0, expiry_seconds=2.5)
DURATIONS = Durations(absence=1.0, expiry=2.5)


def clock(nats_url: str) -> AbstractAsyncContextManager[ClockService]:
    return running(nats_url, lambda nc: ClockService(nc, DURATIONS))


async def _until(p: Platform, table_id: str, check: Callable[[Table], bool], seconds: float = 10) -> Table:
    for _ in range(int(seconds * 20)):
        t = await p.table(table_id)
        if check(t):
            return t
        await asyncio.sleep(0.05)
    raise AssertionError(f"table {table_id} never got there: {t.status}")


async def _recorded(bucket: KeyValue, table_id: str, seq: int) -> int:
    """The table's sequence the clock's bucket holds timers of, once it is ``seq`` or later."""
    for _ in range(100):
        with contextlib.suppress(KeyNotFoundError):
            if (held := _decode(table_id, (await bucket.get(table_id)).value or b"")[0]) >= seq:
                return held
        await asyncio.sleep(0.05)
    raise AssertionError(f"the timers of {table_id} at {seq} were not recorded")


async def _two_humans(p: Platform, **options: object) -> str:
    tid = "c" + uuid.uuid4().hex[:8]
    create = table_pb2.CreateTable(ruleset="colors108", seats=2)
    for key, value in options.items():
        create.options[key].CopyFrom(option_to_pb(value))
    inv = (await p.send(tid, "alice", create=create)).done.invitation
    await p.send(tid, "bob", join=table_pb2.JoinTable(invitation=inv))
    await p.send(tid, "alice", start=table_pb2.StartMatch())
    return tid


async def test_the_turn_timer_plays_for_an_idle_player(nats_url: str) -> None:
    async with platform(nats_url, settings=Settings(), real_time=True) as p, clock(nats_url):
        tid = await _two_humans(p, turn_seconds=1)
        start = await p.table(tid)
        assert start.match is not None
        idle = start.match.turn
        moved = await _until(p, tid, lambda t: t.match is not None and t.match.turn != idle)
        stored = await p.store.read(tid, start.seq)
    assert moved.match is not None and stored and stored[0].batch.events[0].actor == "clock"


async def test_a_human_seat_is_waited_for_without_a_turn_timer(nats_url: str) -> None:
    async with platform(nats_url, settings=Settings(), real_time=True) as p, clock(nats_url):
        tid = await _two_humans(p)
        seq = (await p.table(tid)).seq
        await asyncio.sleep(1.5)
        assert (await p.table(tid)).seq == seq


async def test_absence_then_expiry_fire_and_survive_a_clock_restart(nats_url: str) -> None:
    async with platform(nats_url, settings=FAST, real_time=True) as p:
        async with clock(nats_url):
            tid = await _two_humans(p)
            await asyncio.sleep(0.3)  # the timers are recorded; then the clock goes away
        async with clock(nats_url):
            noticed = await _until(p, tid, lambda t: t.absent_seat >= 0)
            ended = await _until(p, tid, lambda t: t.status == "ended")
    assert noticed.match is not None and noticed.absent_seat == noticed.match.turn
    assert ended.end_reason == "expired" and ended.winners == []


async def test_two_clock_replicas_fire_a_timer_once(nats_url: str) -> None:
    async with platform(nats_url, settings=FAST, real_time=True) as p, clock(nats_url), clock(nats_url):
        tid = "x" + uuid.uuid4().hex[:8]
        await p.send(tid, "alice", create=table_pb2.CreateTable(ruleset="classic32", seats=2))
        await _until(p, tid, lambda t: t.status == "ended")
        await asyncio.sleep(0.5)
        ids = [s.batch.events[0].command_id for s in await p.store.read(tid)]
    assert len(ids) == 2 and ids[1].startswith("clock:expiry:")




async def test_no_clock_closes_a_rematch(nats_url: str) -> None:
    """A match played out waits for its players' answers: the only timer left is the table's expiry."""
    async with platform(nats_url, settings=Settings(), real_time=True) as p, \
            running(nats_url, lambda nc: ClockService(nc, Durations(absence=0.5, expiry=60.0))):
        tid = "r" + uuid.uuid4().hex[:8]
        create = table_pb2.CreateTable(ruleset="colors108", seats=2)
        create.options["quick"].CopyFrom(option_to_pb(True))
        inv = (await p.send(tid, "alice", create=create)).done.invitation
        await p.send(tid, "bob", join=table_pb2.JoinTable(invitation=inv))
        await p.send(tid, "alice", start=table_pb2.StartMatch())
        while (await p.table(tid)).status == "playing":
            await p.play_one(tid)
        over = await p.table(tid)
        assert [x.kind for x in timers(over, Durations(absence=0.5, expiry=60.0))] == ["expiry"]
        await asyncio.sleep(2.0)
        t = await p.table(tid)
        vote = await p.send(tid, "bob", rematch=table_pb2.VoteRematch(accept=True))
    assert (t.status, t.rematch_closed, t.seq) == ("over", False, over.seq)
    assert vote.WhichOneof("result") == "done"


def test_an_earlier_versions_rematch_timer_is_dropped() -> None:
    raw = b'{"seq": 7, "timers": [["rematch", 7, 10.0], ["expiry", 7, 20.0]]}'
    assert [x.kind for x in _decode("t1", raw)[1]] == ["expiry"]


async def test_an_automatic_seat_is_played_at_once(nats_url: str) -> None:
    async with platform(nats_url, settings=Settings(), real_time=True) as p, clock(nats_url):
        tid = await _two_humans(p)  # no turn timer: without automatic mode the table would wait
        start = await p.table(tid)
        assert start.match is not None
        me = start.match.turn
        await p.send(tid, start.players[me].identity, auto_mode=table_pb2.SetAutoMode(on=True))
        chosen = await p.table(tid)
        moved = await _until(p, tid, lambda t: t.match is not None and t.match.turn != me, seconds=5)
        stored = await p.store.read(tid, chosen.seq)
    assert moved.auto == {me} and stored[0].batch.events[0].actor == "clock"
    assert stored[0].batch.events[0].time.ToNanoseconds() / 1e9 - chosen.last_move < 3.0


async def test_moves_leave_the_bucket_alone_and_the_absence_still_counts_from_the_last_move(nats_url: str) -> None:
    absence = 2.0
    settings = Settings(absence_seconds=absence, expiry_seconds=60.0)
    async with platform(nats_url, settings=settings, real_time=True) as p, \
            running(nats_url, lambda nc: ClockService(nc, Durations(absence=absence, expiry=60.0))):
        tid = await _two_humans(p)
        bucket = await p.client.jetstream().key_value("CLOCK")
        first = await _recorded(bucket, tid, (await p.table(tid)).seq)
        for _ in range(3):  # well within the absence: the bucket's timers are not yet due
            await asyncio.sleep(0.15)
            reply = await p.play_one(tid)
            assert reply.WhichOneof("result") == "done"
        moved = await p.table(tid)
        await asyncio.sleep(0.3)  # the clock has read the moves
        kept = _decode(tid, (await bucket.get(tid)).value or b"")[0]
        noticed = await _until(p, tid, lambda t: t.absent_seat >= 0)
        stored = await p.store.read(tid, moved.seq)
    assert kept == first  # the moves wrote nothing: the bucket's timers were due earlier
    noticed_event = stored[-1].batch.events[0]
    assert noticed_event.type == "AbsenceNoticed" and noticed.seq > moved.seq
    assert noticed_event.time.ToNanoseconds() / 1e9 - moved.last_move >= absence
