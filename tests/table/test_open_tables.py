"""Tables for strangers: an open table is listed, and a quick match's table is created full and started."""

from __future__ import annotations

from maumau.v1 import table_pb2
from tests.table.harness import platform


def _people(*names: str) -> list[table_pb2.Player]:
    return [table_pb2.Player(identity=n.lower(), name=n) for n in names]


async def test_an_open_table_says_so(nats_url: str) -> None:
    async with platform(nats_url) as p:
        await p.send("o1", "ana", create=table_pb2.CreateTable(ruleset="classic52", seats=2, open=True))
        await p.send("o2", "ana", create=table_pb2.CreateTable(ruleset="classic52", seats=2))
        listed, by_invitation = (await p.table("o1")).open, (await p.table("o2")).open
    assert listed and not by_invitation


async def test_a_quick_match_table_is_created_full_and_started(nats_url: str) -> None:
    async with platform(nats_url) as p:
        create = table_pb2.CreateTable(ruleset="classic52", seats=3, seated=_people("Bia", "Caio"), start=True)
        reply = await p.send("q1", "ana", create=create, name="Ana")
        t = await p.table("q1")
    assert reply.WhichOneof("result") == "done" and t.status == "playing" and t.match_no == 1
    assert [pl.name for pl in t.players] == ["Ana", "Bia", "Caio"] and t.match is not None


async def test_no_more_players_than_seats_are_seated(nats_url: str) -> None:
    async with platform(nats_url) as p:
        create = table_pb2.CreateTable(ruleset="classic52", seats=2, seated=_people("Bia", "Caio"), start=True)
        reply = await p.send("q2", "ana", create=create)
        stored = await p.last_seq("q2")
    assert reply.refusal.code == "bad_options" and stored == 0
