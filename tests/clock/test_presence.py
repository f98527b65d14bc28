"""Presence and stand-ins: the gateways' marks, the clock's scan, the table's PlayerAway / PlayerBack, and
automatic mode for whoever has been away long enough at a timed table. Over real NATS and the table service."""

from __future__ import annotations

import uuid

import nats

from maumau.v1 import table_pb2
from services.clock import presence
from services.clock.timers import Durations, timers
from services.rules.wire import option_to_pb
from services.table.domain import Table
from tests.table.harness import Platform, platform


async def _table(p: Platform, turn_seconds: int = 30) -> str:
    create = table_pb2.CreateTable(ruleset="classic52", seats=2)
    if turn_seconds:
        create.options["turn_seconds"].CopyFrom(option_to_pb(turn_seconds))
    tid = "pr" + uuid.uuid4().hex[:8]
    inv = (await p.send(tid, "ana", create=create, name="Ana")).done.invitation
    await p.send(tid, "bia", join=table_pb2.JoinTable(invitation=inv), name="Bia")
    await p.send(tid, "ana", start=table_pb2.StartMatch())
    return tid


def _code(reply: table_pb2.CommandReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


async def _scan(p: Platform, tid: str, *marked: int) -> Table:
    """The clock's look, with ``marked`` seats of ``tid`` holding an open page."""
    nc = await nats.connect(p.nats_url)
    try:
        kv = await presence.bucket(nc.jetstream())
        for key in await presence.marks_now(nc.jetstream()):
            await kv.delete(key)
        for seat in marked:
            await kv.put(presence.mark(tid, seat, "sock"), b"")
        await presence.scan(nc, lambda: [tid], p.table)
    finally:
        await nc.close()
    return await p.table(tid)


async def test_marks_just_written_are_all_read_every_time(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        kv = await presence.bucket(nc.jetstream())
        missed = 0
        for i in range(150):
            await kv.put(presence.mark(f"t{i}", 0, "s"), b"")
            missed += await presence.marks_now(nc.jetstream()) != [presence.mark(f"t{i}", 0, "s")]
            await kv.delete(presence.mark(f"t{i}", 0, "s"))
    finally:
        await nc.close()
    assert missed == 0


async def test_a_seat_without_a_page_is_away_and_back_when_it_returns(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _table(p)
        gone = await _scan(p, tid, 0)
        back = await _scan(p, tid, 0, 1)
        events = [ev.WhichOneof("body") for s in await p.store.read(tid) for ev in s.batch.events]
    assert set(gone.away) == {1} and back.away == {}
    assert events[-2:] == ["player_away", "player_back"]


async def test_telling_a_table_what_it_knows_stores_nothing(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _table(p)
        t = await p.table(tid)
        cmd = presence.command(t, 0, True)
        reply = await p.send(tid, "clock", command_id=cmd.command_id, presence=cmd.presence)
        seq = await p.last_seq(tid)
    assert _code(reply) == "stale_presence" and seq == t.seq


async def test_a_stand_in_plays_for_whoever_has_been_away_long_enough(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _table(p)
        t = await _scan(p, tid, 0)
        (timer,) = [x for x in timers(t, Durations(standin=60)) if x.kind == "standin"]
        early = await p.send(tid, "clock", stand_in=table_pb2.StandIn(seq=t.seq))
        p.clock.now += 60
        stood_in = await p.send(tid, "clock", stand_in=table_pb2.StandIn(seq=t.seq))
        playing_for = await p.table(tid)
        returned = await _scan(p, tid, 0, 1)
    assert timer.due == t.away[1] + 60 and _code(early) == "not_due" and _code(stood_in) == "done"
    assert playing_for.auto == {1} and returned.auto == set() and returned.away == {}


async def test_a_table_without_a_turn_timer_has_no_stand_in(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _table(p, turn_seconds=0)
        t = await _scan(p, tid, 0)
        p.clock.now += 3600
        reply = await p.send(tid, "clock", stand_in=table_pb2.StandIn(seq=t.seq))
    assert set(t.away) == {1} and not [x for x in timers(t, Durations()) if x.kind == "standin"]
    assert _code(reply) == "stale_timer"


async def _solo_scan(p: Platform, tid: str, watched: bool) -> Table:
    nc = await nats.connect(p.nats_url)
    try:
        kv = await presence.bucket(nc.jetstream())
        for key in await presence.marks_now(nc.jetstream()):
            await kv.delete(key)
        if watched:
            await kv.put(presence.mark(tid, presence.WATCHING, "sock"), b"")
        await presence.scan(nc, lambda: [tid], p.table, solo_seconds=300, now=p.clock)
    finally:
        await nc.close()
    return await p.table(tid)


async def test_a_timed_table_left_to_bots_with_nobody_watching_ends(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _table(p)
        await _scan(p, tid)  # both people left
        p.clock.now += 299
        early = await _solo_scan(p, tid, watched=False)
        p.clock.now += 1
        watched = await _solo_scan(p, tid, watched=True)
        ended = await _solo_scan(p, tid, watched=False)
    assert early.status == watched.status == "playing"
    assert (ended.status, ended.end_reason, ended.winners) == ("ended", "abandoned", [])
