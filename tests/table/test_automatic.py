"""Automatic mode (seed 002, RULES.md "Automatic mode"), through the table service over real NATS.

A seat goes automatic by its player's choice or after the turn timer ran out twice in a row
for it; any action of its player, or "Voltar a jogar", takes it back.
"""

from __future__ import annotations

import uuid

from maumau.v1 import table_pb2
from services.rules.wire import option_to_pb
from tests.table.harness import Platform, platform


def _code(reply: table_pb2.CommandReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


async def _timed_table(p: Platform, seconds: int = 30) -> str:
    create = table_pb2.CreateTable(ruleset="colors108", seats=2)
    if seconds:
        create.options["turn_seconds"].CopyFrom(option_to_pb(seconds))
    tid = "auto" + uuid.uuid4().hex[:6]
    inv = (await p.send(tid, "alice", create=create, name="Alice")).done.invitation
    await p.send(tid, "bob", join=table_pb2.JoinTable(invitation=inv), name="Bob")
    await p.send(tid, "alice", start=table_pb2.StartMatch())
    return tid


async def _others_until(p: Platform, tid: str, seat: int) -> None:
    """The other seat plays by itself until ``seat`` is on turn."""
    for _ in range(20):
        t = await p.table(tid)
        assert t.match is not None and not t.match.round_over
        if t.match.turn == seat:
            return
        assert _code(await p.play_one(tid)) == "done"
    raise AssertionError("the turn never came back")


async def _time_out(p: Platform, tid: str) -> list[str]:
    """The turn timer runs out for the seat on turn; the bodies of the batch it stored."""
    t = await p.table(tid)
    p.clock.now += 30
    assert _code(await p.send(tid, "clock", turn_timeout=table_pb2.TurnTimeout(seq=t.seq))) == "done"
    return [ev.WhichOneof("body") or "" for ev in (await p.store.read(tid, t.seq))[0].batch.events]


async def test_two_timeouts_in_a_row_turn_automatic_mode_on(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _timed_table(p)
        t = await p.table(tid)
        assert t.match is not None
        idle = t.match.turn
        first = await _time_out(p, tid)
        await _others_until(p, tid, idle)
        assert _code(await p.play_one(tid)) == "done"  # the idle player acts once: the count starts again
        await _others_until(p, tid, idle)
        again = await _time_out(p, tid)
        between = await p.table(tid)
        await _others_until(p, tid, idle)
        second = await _time_out(p, tid)
        t = await p.table(tid)
    assert first[0] == again[0] == second[0] == "turn_timed_out" and "auto_mode_changed" not in first + again
    assert between.auto == set() and between.timed_out == {idle}
    assert second[1] == "auto_mode_changed" and second[2] == "action_taken"
    assert t.auto == {idle} and t.timed_out == set()


async def test_any_action_of_the_player_or_coming_back_turns_it_off(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _timed_table(p, 0)
        t = await p.table(tid)
        assert t.match is not None
        me = t.match.turn
        who = t.players[me].identity
        on = await p.send(tid, who, auto_mode=table_pb2.SetAutoMode(on=True))
        twice = await p.send(tid, who, auto_mode=table_pb2.SetAutoMode(on=True))
        chosen = await p.table(tid)
        played = await p.play_one(tid)  # the player acts on their own: the seat is theirs again
        acted = await p.table(tid)
        batch = (await p.store.read(tid, chosen.seq))[0].batch.events
        await p.send(tid, who, auto_mode=table_pb2.SetAutoMode(on=True))
        back = await p.send(tid, who, auto_mode=table_pb2.SetAutoMode(on=False))  # "Voltar a jogar"
        t = await p.table(tid)
        stranger = await p.send(tid, "mallory", auto_mode=table_pb2.SetAutoMode(on=True))
    assert _code(on) == "done" and _code(twice) == "done" and not twice.done.sequences
    assert chosen.auto == {me} and _code(played) == "done" and acted.auto == set()
    assert [ev.WhichOneof("body") for ev in batch][:2] == ["auto_mode_changed", "action_taken"]
    assert batch[0].auto_mode_changed.reason == "returned" and not batch[0].auto_mode_changed.on
    assert _code(back) == "done" and t.auto == set() and _code(stranger) == "not_seated"


async def test_an_automatic_seat_is_played_without_waiting_for_a_turn_timer(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _timed_table(p, 0)  # no turn timer at this table
        t = await p.table(tid)
        assert t.match is not None
        me = t.match.turn
        before = await p.send(tid, "clock", turn_timeout=table_pb2.TurnTimeout(seq=t.seq))
        await p.send(tid, t.players[me].identity, auto_mode=table_pb2.SetAutoMode(on=True))
        t = await p.table(tid)
        fired = await p.send(tid, "clock", turn_timeout=table_pb2.TurnTimeout(seq=t.seq))  # no time has passed
        after = await p.table(tid)
        bodies = [ev.WhichOneof("body") for ev in (await p.store.read(tid, t.seq))[0].batch.events]
    assert _code(before) == "no_turn_timer" and _code(fired) == "done"
    assert after.match is not None and after.match.turn != me and after.auto == {me}
    assert "turn_timed_out" not in bodies and "action_taken" in bodies
