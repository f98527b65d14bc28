"""A page of an older build does not outlive a deploy: told by the socket's welcome that another build
is served, it loads its next screen from the server and reloads itself once hidden (freshness.js)."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import WebSocketRoute, expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

NEWER = "app-ZZZZZZZZ.js"  # a build no page of this run has: a deploy while the page was open

HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


async def _served(player: Player, build: str | None) -> None:
    """The page's socket goes to the gateway as ever; its welcomes name ``build`` as served, when given."""
    async def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if build and frame.get("type") == "welcome":
                frame["client"] = build
            ws.send(json.dumps(frame))

        server.on_message(from_server)

    await player.page.route_web_socket("**/ws*", route)


async def _welcomed_at_a_table(players: Players, build: str | None) -> Player:
    """Ana on the home screen, welcomed (with ``build`` said served), a mark left in her page's window."""
    ana = await players.open("Ana")
    await _served(ana, build)
    await ana.page.goto("/")
    await ana.enter()
    await ana.page.wait_for_function("() => window.__e2e.welcomes.length > 0")
    await ana.page.evaluate("() => { window.__kept = true; }")
    await ana.create_table("classic32", seats=2)
    return ana


async def _kept(player: Player) -> bool:
    kept: bool = await player.page.evaluate("() => window.__kept === true")
    return kept


async def test_a_page_of_an_older_build_loads_its_next_screen_and_reloads_once_hidden(players: Players) -> None:
    ana = await _welcomed_at_a_table(players, NEWER)
    assert not await _kept(ana)  # the table came as a page of its own, not drawn by the old one
    await expect(ana.by("seat-0")).to_contain_text("Ana")
    await ana.page.wait_for_function("() => window.__e2e.welcomes.length > 0")
    await ana.page.evaluate("() => { window.__kept = true; }")
    async with ana.page.expect_navigation():
        await ana.page.evaluate(HIDE)
    await expect(ana.by("seat-0")).to_contain_text("Ana")  # the same table, seat kept
    assert not await _kept(ana)
    players.assert_no_console_errors()


async def test_a_page_of_the_served_build_stays_across_screens_and_when_hidden(players: Players) -> None:
    ana = await _welcomed_at_a_table(players, None)
    assert await _kept(ana)
    await ana.page.evaluate(HIDE)
    await ana.page.wait_for_timeout(500)  # a reload, had there been one, would have begun
    assert await _kept(ana)
    players.assert_no_console_errors()
