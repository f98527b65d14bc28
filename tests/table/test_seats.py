"""Teams (seed 002, duplas): before the start the creator moves players between seats; partners sit opposite."""

from __future__ import annotations

import uuid

from maumau.v1 import table_pb2
from services.chat.seating import Seating, fold
from services.rules.wire import option_to_pb
from tests.table.harness import Platform, platform


def _code(reply: table_pb2.CommandReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


async def _teams_lobby(p: Platform) -> str:
    """A colors108 teams table: Alice (the creator), Bob, Carol and Dave seated in that order."""
    tid = "duo" + uuid.uuid4().hex[:6]
    create = table_pb2.CreateTable(ruleset="colors108", seats=4)
    create.options["teams"].CopyFrom(option_to_pb(True))
    inv = (await p.send(tid, "alice", create=create, name="Alice")).done.invitation
    for who in ("bob", "carol", "dave"):
        await p.send(tid, who, join=table_pb2.JoinTable(invitation=inv), name=who.title())
    return tid


async def test_only_the_creator_moves_players_and_only_in_the_lobby(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _teams_lobby(p)
        not_creator = await p.send(tid, "bob", move_seat=table_pb2.MoveSeat(seat=1, to=2))
        stranger = await p.send(tid, "mallory", move_seat=table_pb2.MoveSeat(seat=1, to=2))
        same = await p.send(tid, "alice", move_seat=table_pb2.MoveSeat(seat=1, to=1))
        empty = await p.send(tid, "alice", move_seat=table_pb2.MoveSeat(seat=1, to=4))
        moved = await p.send(tid, "alice", move_seat=table_pb2.MoveSeat(seat=1, to=2))  # Alice & Bob partners
        lobby = await p.table(tid)
        await p.send(tid, "alice", start=table_pb2.StartMatch())
        started = await p.send(tid, "alice", move_seat=table_pb2.MoveSeat(seat=0, to=1))
        t = await p.table(tid)
        stored = await p.store.read(tid)
    assert _code(not_creator) == "not_creator" and _code(stranger) == "not_seated"
    assert _code(same) == "bad_seat" and _code(empty) == "bad_seat"
    assert _code(moved) == "done" and [pl.identity for pl in lobby.players] == ["alice", "carol", "bob", "dave"]
    assert _code(started) == "match_started" and [pl.identity for pl in t.players] == ["alice", "carol", "bob", "dave"]
    assert t.match is not None and t.match.rs.teams
    seating = Seating(tid)  # the chat follows the move: a line names the seat its writer sits at now
    for s in stored:
        for ev in s.batch.events:
            fold(seating, s.seq, ev)
    assert seating.seat_of("bob") == 2 and seating.names[1] == "Carol"
    assert any(ev.WhichOneof("body") == "seat_moved" for s in stored for ev in s.batch.events)


async def test_a_creator_who_watches_may_move_players(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = "w" + uuid.uuid4().hex[:6]
        create = table_pb2.CreateTable(ruleset="colors108", seats=4, watch=True)
        create.options["teams"].CopyFrom(option_to_pb(True))
        await p.send(tid, "host", create=create)
        await p.send(tid, "host", fill_bots=table_pb2.FillBots())
        moved = await p.send(tid, "host", move_seat=table_pb2.MoveSeat(seat=3, to=0))
        t = await p.table(tid)
    assert _code(moved) == "done" and t.players[0].identity.endswith(":3") and t.players[3].identity.endswith(":0")
