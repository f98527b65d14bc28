"""A socket marks the seats its player holds at the tables it follows, and takes the marks away when it closes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import nats
from nats.js.errors import NoKeysError

from services.clock import presence
from tests.gateway.harness import gateways
from tests.gateway.test_ws import _table_for_two


async def _marked(nats_url: str) -> set[tuple[str, int]]:
    nc = await nats.connect(nats_url)
    try:
        kv = await presence.bucket(nc.jetstream())
        try:
            return presence.seats_here(await kv.keys())
        except NoKeysError:
            return set()
    finally:
        await nc.close()


async def _until(nats_url: str, want: set[tuple[str, int]]) -> set[tuple[str, int]]:
    for _ in range(50):
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
