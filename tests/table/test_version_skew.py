"""A table service beside a rules service of another engine version (issue 28; docs/operations.md, "Upgrade").

A rolling upgrade that changes ``ENGINE_VERSION`` has, for a while, table replicas of one image and rules
replicas of the other. Each image here is the same code with ``ENGINE_VERSION`` set as its ``version.py``
would set it (the table service stamps its own, the rules service names its own in every answer). Both ways
round (the table newer, the rules newer): a move (a decision over the batched stream) and a start (a deal,
``NewRound``) are refused ``unavailable`` and store nothing, which the gateway sends again for up to 20 s,
so the player's move waits; once the rules service answers with the table's version again, the same
command (the same id) is stored once; and every batch of the table is stamped with the version that
decided it, so ``verify`` with that engine's ``REPRODUCED`` holds for all of them.
"""

from __future__ import annotations

import uuid

import pytest

from maumau.v1 import table_pb2
from services.record import verify
from services.rules import server as rules_server
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from services.table import rules_client
from services.table import service as table_service
from tests.table.harness import platform

OLD, NEW = "1", "2"


@pytest.mark.parametrize(("table_version", "rules_version"), [(NEW, OLD), (OLD, NEW)],
                         ids=["table-newer", "rules-newer"])
async def test_a_rules_service_of_another_engine_version_is_refused_until_it_matches_and_nothing_is_misstamped(
        nats_url: str, monkeypatch: pytest.MonkeyPatch, table_version: str, rules_version: str) -> None:
    monkeypatch.setattr(table_service, "ENGINE_VERSION", table_version)  # what the table's image stamps
    monkeypatch.setattr(rules_client, "ENGINE_VERSION", table_version)  # what it accepts answers of
    monkeypatch.setattr(rules_server, "ENGINE_VERSION", table_version)  # the rules replica it reaches: same image
    async with platform(nats_url) as p:
        playing = await p.new_table(seats=2, bots=False, humans=("bob",))
        assert (await p.play_one(playing)).WhichOneof("result") == "done"
        lobby = uuid.uuid4().hex[:16]  # a table whose players have joined, not yet started: its start deals
        created = await p.send(lobby, "alice", create=table_pb2.CreateTable(ruleset="classic32", seats=2), name="Alice")
        await p.send(lobby, "bob", join=table_pb2.JoinTable(invitation=created.done.invitation), name="Bob")
        before = {t: await p.last_seq(t) for t in (playing, lobby)}

        monkeypatch.setattr(rules_server, "ENGINE_VERSION", rules_version)  # the rules replica now of the other image
        t = await p.table(playing)
        assert t.match is not None
        seat = t.match.turn
        move = action_to_pb(next(iter(legal_actions(t.match, seat))), t.match.rs.family)
        mover = t.players[seat].identity
        refused = [await p.send(playing, mover, command_id="skewed-move", act=move),
                   await p.send(lobby, "alice", command_id="skewed-start", start=table_pb2.StartMatch())]
        assert [r.refusal.code for r in refused] == ["unavailable", "unavailable"], refused
        assert {t: await p.last_seq(t) for t in before} == before  # nothing stored meanwhile

        monkeypatch.setattr(rules_server, "ENGINE_VERSION", table_version)  # the roll done: the versions agree again
        again = [await p.send(playing, mover, command_id="skewed-move", act=move),
                 await p.send(lobby, "alice", command_id="skewed-start", start=table_pb2.StartMatch())]
        assert [r.WhichOneof("result") for r in again] == ["done", "done"], again
        twice = await p.send(playing, mover, command_id="skewed-move", act=move)
        assert list(twice.done.sequences) == list(again[0].done.sequences) != []  # stored once

        monkeypatch.setattr(verify, "REPRODUCED", frozenset({table_version}))  # the table's image verifying
        for table in (playing, lobby):
            stored = await p.store.read(table)
            assert {s.batch.engine_version for s in stored} == {table_version}
            verdict = verify.verify(table, stored)
            assert verdict.ok, verdict
