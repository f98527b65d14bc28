"""The lobby's first screen, on a phone that never saw the game: at most 150 KB over the network
(issue 27's floor; the sounds, the table and the other screens come later, when asked)."""

from __future__ import annotations

import pytest
from playwright.async_api import Response, expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIRST_SCREEN_BYTES = 150 * 1024


async def test_the_lobbys_first_screen_is_at_most_150_kb(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    responses: list[Response] = []
    ana.page.on("response", lambda r: responses.append(r))
    await ana.page.goto("/", wait_until="networkidle")
    await expect(ana.by("name-input")).to_be_visible()
    sizes = [await r.request.sizes() for r in responses]
    sent = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes)  # as sent: compressed
    print(f"the lobby's first screen: {sent / 1024:.1f} KB in {len(responses)} responses")
    assert not any("/zzfx" in r.url for r in responses)  # the sounds wait for the first gesture
    each = [(r.url, s["responseBodySize"]) for r, s in zip(responses, sizes, strict=True)]
    assert 0 < sent <= FIRST_SCREEN_BYTES, each
