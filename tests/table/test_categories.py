"""A match is official (people only) or training (a bot seated), fixed in its start event."""

from __future__ import annotations

from maumau.v1 import table_pb2
from services.table.domain import Category
from tests.table.harness import platform


async def test_a_match_between_people_starts_official(nats_url: str) -> None:
    async with platform(nats_url) as p:
        inv = (await p.send("c1", "alice", create=table_pb2.CreateTable(ruleset="classic52", seats=2))).done.invitation
        await p.send("c1", "bob", join=table_pb2.JoinTable(invitation=inv))
        await p.send("c1", "alice", start=table_pb2.StartMatch())
        t = await p.table("c1")
    assert t.category == Category.OFFICIAL


async def test_a_match_with_a_bot_seated_starts_as_training(nats_url: str) -> None:
    async with platform(nats_url) as p:
        await p.send("c2", "alice", create=table_pb2.CreateTable(ruleset="classic52", seats=3))
        await p.send("c2", "alice", fill_bots=table_pb2.FillBots())
        await p.send("c2", "alice", start=table_pb2.StartMatch())
        t = await p.table("c2")
    assert t.category == Category.TRAINING


async def test_giving_up_later_leaves_the_category_as_it_started(nats_url: str) -> None:
    async with platform(nats_url) as p:
        inv = (await p.send("c3", "alice", create=table_pb2.CreateTable(ruleset="classic52", seats=2))).done.invitation
        await p.send("c3", "bob", join=table_pb2.JoinTable(invitation=inv))
        await p.send("c3", "alice", start=table_pb2.StartMatch())
        await p.send("c3", "bob", give_up=table_pb2.GiveUp())
        t = await p.table("c3")
    assert t.status == "ended" and t.category == Category.OFFICIAL
