"""Shared reactions at the table (issue 27, item 10): a seated player taps 👏, everyone at the table —
a watcher too — sees it rise with the player's name, hears it, and finds it in the chat's log."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

HEAR = "(() => { window.__sounds = []; addEventListener('mm-sound', (e) => window.__sounds.push(e.detail.name)); })();"


async def at_bot_table(player: Player) -> None:
    await player.page.goto("/")
    await player.enter()
    await player.by("btn-play-bots").click()
    await expect(player.by("hand")).to_be_visible()


async def test_a_reaction_is_seen_and_heard_by_a_watcher(players: Players) -> None:
    ana = await players.open("Ana")
    await at_bot_table(ana)
    bia = await players.open("Bia", phone=True)
    await bia.context.add_init_script(HEAR)
    await bia.page.goto(f"/m/{ana.table_id}")
    await bia.enter()  # a tap: the page may sound from now on
    await expect(bia.by("chat-readonly")).to_be_visible()  # she watches
    await expect(bia.by("reactions")).to_have_count(0)  # and only the seated react
    await bia.page.wait_for_function("() => window.__e2e.chat.length > 0")  # the chat's past is in

    await ana.by("react-aplausos").click()
    burst = bia.by("reaction-burst")
    await expect(burst).to_have_attribute("data-reaction", "aplausos")
    await expect(burst).to_contain_text("Ana: Aplausos")
    await bia.shot("reactions-watcher-phone", full_page=False)
    await bia.page.wait_for_function("() => window.__sounds.includes('reaction')")
    await expect(bia.by("chat-log")).to_contain_text("Ana: 👏 Aplausos")


async def test_a_reaction_already_sent_does_not_rise_again_on_opening_the_table(players: Players) -> None:
    ana = await players.open("Ana")
    await at_bot_table(ana)
    await ana.by("react-risos").click()
    await expect(ana.by("reaction-burst")).to_have_attribute("data-reaction", "risos")
    await expect(ana.by("chat-log")).to_contain_text("😂 Risos")
    await ana.page.reload()
    await expect(ana.by("chat-log")).to_contain_text("😂 Risos")  # the past, in the log only
    await expect(ana.by("reaction-burst")).to_have_count(0)
