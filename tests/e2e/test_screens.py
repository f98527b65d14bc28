"""The main screens on a phone (390×844) and on a desktop (1280×800): saved, and nothing wider than the screen."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def fits(player: Player, screen: str) -> None:
    widths = await player.page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"{screen}: the page is {widths[0]} px wide in a {widths[1]} px screen"


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_screens_fit_phone_and_desktop(players: Players, device: str) -> None:
    ana = await players.open("Ana", phone=device == "phone")
    await ana.page.goto("/")
    await expect(ana.by("name-form")).to_be_visible()
    await fits(ana, "name")
    await ana.shot(f"screen-{device}-1-name")
    await ana.enter()
    await expect(ana.by("create-form")).to_be_visible()
    await fits(ana, "lobby")
    await ana.shot(f"screen-{device}-2-lobby")
    await ana.create_table("classic32", seats=4)
    await ana.fill_bots(4)
    await fits(ana, "table lobby")
    await ana.shot(f"screen-{device}-3-table-lobby")
    await ana.start()
    await ana.wait_actionable()
    await expect(ana.by("hand").locator(".hand-card")).to_have_count(5)
    await fits(ana, "table")
    await ana.shot(f"screen-{device}-4-table")
    await ana.shot(f"screen-{device}-5-table-viewport", full_page=False)
    await ana.play_round()
    await fits(ana, "round review")
    await ana.shot(f"screen-{device}-6-round-review")
