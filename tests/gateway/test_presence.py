"""A socket marks the seats its player holds at the tables it follows, and takes the marks away when it closes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import nats

from services.clock import presence
from services.clock.presence import REFRESH_SECONDS
from tests.gateway.harness import gateways
from tests.gateway.test_ws import _table_for_two


async def _marked(nats_url: str) -> set[tuple[str, int]]:
    nc = await nats.connect(nats_url)
    try:
        await presence.bucket(nc.jetstream())
        return presence.seats_here(await presence.marks_now(nc.jetstream()))
    finally:
        await nc.close()


async def _until(nats_url: str, want: set[tuple[str, int]], seconds: float = 5.0) -> set[tuple[str, int]]:
    for _ in range(int(seconds * 10)):
        if (seen := await _marked(nats_url)) == want:
            return seen
        await asyncio.sleep(0.1)
    return await _marked(nats_url)


async def test_a_followed_seat_is_marked_while_its_page_is_open(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana, bia, eva = await g.client("Ana"), await g.client("Bia"), await g.client("Eva")
        tid = await _table_for_two(g, ana, bia)
        for c in (bia, eva):  # Eva watches: she holds no seat
            await c.connect()
            await c.send({"type": "subscribe", "table": tid})
        open_page = await _until(nats_url, {(tid, 1)})
        await bia.close()
        closed = await _until(nats_url, set())
        await eva.close()
    assert open_page == {(tid, 1)} and closed == set()


async def test_the_marks_of_two_replicas_meet_in_one_bucket(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana, bia = await g.client("Ana", replica=0), await g.client("Bia", replica=1)
        tid = await _table_for_two(g, ana, bia)
        for c in (ana, bia):
            await c.connect()
            await c.send({"type": "subscribe", "table": tid})
        both = await _until(nats_url, {(tid, 0), (tid, 1)})
        await g.restart(1)  # Bia's replica goes away: its marks with it
        await ana.close()
        left = await _until(nats_url, set())
    assert both == {(tid, 0), (tid, 1)} and left == set()


async def test_a_seat_taken_after_the_page_opened_is_marked_at_once(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        created = (await ana.post("/api/tables", {"ruleset": "classic32", "seats": 2}))[1]
        tid = created["table_id"]
        await bia.connect()
        await bia.send({"type": "subscribe", "table": tid})  # the invitation page, before she sits down
        await bia.wait(lambda f: f.get("type") == "state")
        joined = (await bia.post(f"/api/tables/{tid}/join", {"invitation": created["invitation"]}))[1]
        seated = await _until(nats_url, {(tid, 1)}, seconds=REFRESH_SECONDS / 2)
        await bia.close()
    assert joined["seat"] == 1 and seated == {(tid, 1)}
