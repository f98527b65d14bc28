"""The staff's desk lists, beside the open disputes, the matches fair play settled for nothing
(docs/rankings.md): through the gateway, the table service and the projector."""

from __future__ import annotations

from pathlib import Path

from maumau.v1 import table_pb2
from tests.disputes.test_desk import desk
from tests.gateway.test_accounts import call
from tests.rankings.test_competitive import _seat


async def test_the_desk_lists_a_competitive_match_given_up_at_once(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        ana, bia = [(await call(d.g, "GET", "/api/me", session=s))[1]["identity"] for s in (d.ana, d.bia)]
        p = d.g.platform
        created = await p.send("fp1", ana, create=table_pb2.CreateTable(ruleset="classic52", seats=2, stake=100),
                               name="Ana", **_seat("addr-1"))
        await p.send("fp1", bia, join=table_pb2.JoinTable(invitation=created.done.invitation), name="Bia",
                     **_seat("addr-2"))
        await p.send("fp1", ana, start=table_pb2.StartMatch())
        await p.send("fp1", bia, give_up=table_pb2.GiveUp())
        await d.project()
        status, listed, _ = await call(d.g, "GET", "/api/staff/disputes", session=d.sol)
    assert status == 200
    assert [(m["table_id"], m["match_no"], m["reason"], m["players"]) for m in listed["marks"]] == [
        ("fp1", 1, "short_give_up", ["Ana", "Bia"])]
