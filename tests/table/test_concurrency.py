"""Many clients racing on one table, across several table service replicas."""

from __future__ import annotations

import asyncio
import random

from maumau.v1 import table_pb2
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from tests.table.harness import platform

CLEAR_CODES = {"not_your_turn", "illegal_action", "illegal_card", "card_not_in_hand", "round_over", "bad_request"}


async def test_fifty_joins_race_for_nine_free_seats(nats_url: str) -> None:
    async with platform(nats_url, replicas=3) as p:
        created = await p.send("race", "alice", create=table_pb2.CreateTable(ruleset="classic52", seats=10))
        inv = created.done.invitation
        replies = await asyncio.gather(*(p.send("race", f"player{i}", join=table_pb2.JoinTable(invitation=inv))
                                         for i in range(50)))
        stored = await p.store.read("race")
        t = await p.table("race")
    seated = sorted(r.done.seat for r in replies if r.done.seat >= 0)
    assert seated == list(range(1, 10))
    assert sum(r.done.seat == -1 for r in replies) == 41
    assert [s.seq for s in stored] == list(range(1, 11))  # no gap, no duplicate
    assert len({pl.identity for pl in t.players}) == 10


async def test_fifty_conflicting_commands_each_state_accepts_exactly_one(nats_url: str) -> None:
    rng = random.Random(7)
    async with platform(nats_url, replicas=3) as p:
        tid = await p.new_table(ruleset="colors108", seats=4)
        accepted_total = 0
        for _ in range(12):
            t = await p.table(tid)
            assert t.match is not None
            if t.match.round_over:
                break
            seat = t.match.turn
            options = list(legal_actions(t.match, seat))
            before = await p.last_seq(tid)
            commands = [action_to_pb(rng.choice(options), t.match.rs.family) for _ in range(50)]
            replies = await asyncio.gather(*(p.send(tid, t.players[seat].identity, act=c) for c in commands))
            stored = await p.store.read(tid, before)
            accepted = [r for r in replies if r.WhichOneof("result") == "done"]
            refused = [r.refusal for r in replies if r.WhichOneof("result") == "refusal"]
            assert accepted, "some command of the player on turn is legal"
            assert sorted(s for r in accepted for s in r.done.sequences) == [s.seq for s in stored]
            assert [s.seq for s in stored] == list(range(before + 1, before + 1 + len(stored)))
            assert all(r.code in CLEAR_CODES and r.message for r in refused), refused
            accepted_total += len(accepted)
        conflicts = sum(svc.stats["conflicts"] for svc in p.replicas)
    assert accepted_total >= 12
    assert conflicts > 0, "the race went through the optimistic-concurrency path"
