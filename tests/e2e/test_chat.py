"""The table's chat between two seated players: lines arrive live, and typed HTML stays text."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = '<img src=x onerror="window.__xss=1"><b>negrito</b><script>window.__xss=2</script>'


async def two_at_a_table(players: Players) -> tuple[Player, Player]:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    link = await ana.create_table("classic32", seats=3)
    bruno = await players.open("Bruno")
    await bruno.page.goto(link)
    await bruno.enter()
    await bruno.by("btn-join").click()
    await expect(bruno.by("seat-1").locator(".tag-me")).to_be_visible()
    await expect(ana.by("seat-1")).to_contain_text("Bruno")
    return ana, bruno


async def say(player: Player, text: str) -> None:
    await player.by("chat-input").fill(text)
    ack = await player.click_command(player.by("chat-send"))
    assert ack is not None and ack["ok"], ack
    await expect(player.by("chat-input")).to_have_value("")


async def test_a_chat_line_reaches_the_other_player_and_html_stays_text(players: Players) -> None:
    ana, bruno = await two_at_a_table(players)

    await say(ana, "Oi, Bruno! Bora jogar?")
    line = bruno.by("chat-log").locator("li").last
    await expect(line).to_have_text("Ana: Oi, Bruno! Bora jogar?")
    await expect(ana.by("chat-log").locator("li").last).to_have_text("Você: Oi, Bruno! Bora jogar?")

    await say(bruno, HTML)
    for p, who in ((ana, "Bruno"), (bruno, "Você")):
        last = p.by("chat-log").locator("li").last
        await expect(last).to_have_text(f"{who}: {HTML}")
        assert await p.by("chat-log").locator("img, b, script").count() == 0
        assert await p.page.evaluate("() => window.__xss") is None
    await expect(ana.by("chat-log").locator("li")).to_have_count(2)
    await ana.shot("chat-1-lines")
