"""Whoever opens the link of a full table watches: no hand, no buttons, a chat to read only."""

from __future__ import annotations

import json
import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def raw_command(player: Player, command: dict[str, object]) -> dict[str, object]:
    """Send a command on the page's own open socket, as a crafted client would; returns its ack."""
    before = await player.acks()
    frame = json.dumps({"type": "command", "table": player.table_id, "id": f"e2e-{before}", "command": command})
    await player.page.evaluate("f => window.__e2e.sockets.filter((s) => s.readyState === 1).at(-1).send(f)", frame)
    return await player.wait_ack(before)


async def test_a_spectator_sees_no_hand_has_no_buttons_and_cannot_chat(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    link = await ana.create_table("classic32", seats=2)
    await ana.fill_bots(2)

    vera = await players.open("Vera")
    await vera.page.goto(link)  # the invitation, but the table is full
    await vera.enter()
    await expect(vera.by("spectator-notice")).to_have_text("Você está assistindo.")
    await expect(vera.by("join-offer")).to_have_count(0)
    await expect(vera.by("btn-start")).to_have_count(0)
    await expect(vera.by("btn-bots")).to_have_count(0)
    await expect(vera.by("invite-link")).to_have_count(0)  # the invitation is for seated players only

    await ana.start()
    await expect(vera.by("game")).to_be_visible()
    await expect(vera.by("spectator-hand")).to_be_visible()
    await expect(vera.page.get_by_text("Você está assistindo")).to_have_count(1)  # said once, in the hand's place
    await expect(vera.by("opponents").locator(".opponent")).to_have_count(2)  # both seats, backs only
    await expect(vera.by("opponent-count-0")).to_contain_text("5")  # Ana has not acted yet
    await expect(vera.by("opponent-count-1")).to_contain_text(re.compile(r"^\d+"))
    await expect(vera.by("pile-top")).to_have_attribute("data-card", re.compile(r"^(10|[2-9JQKA])[CDHS]$"))
    for testid in ("hand", "actions", "btn-draw", "btn-pass", "btn-mau", "btn-giveup"):
        await expect(vera.by(testid)).to_have_count(0)
    assert await vera.page.locator(".hand-card").count() == 0
    assert await vera.page.locator('button[data-testid="stock"]').count() == 0  # the stock is no button
    await expect(vera.by("chat-readonly")).to_have_text("Quem assiste lê a conversa, mas não escreve.")
    await expect(vera.by("chat-input")).to_be_hidden()
    await expect(vera.by("chat-send")).to_be_hidden()
    await vera.shot("spectator-1-game")

    # nothing a spectator's page received holds a card of any hand
    frames = await vera.frames()
    assert frames and all(f["my_seat"] == -1 for f in frames)
    for f in frames:
        assert not (f["view"] or {}).get("hand"), f
        for ev in f["events"]:
            assert not ev.get("hand"), ev
            assert not any(d.get("cards") for d in ev.get("draws", [])), ev

    # the socket refuses what the page does not offer
    chat = await raw_command(vera, {"chat": {"text": "posso jogar?"}})
    assert chat["ok"] is False and chat["code"] == "not_seated", chat
    draw = await raw_command(vera, {"do": "draw"})
    assert draw["ok"] is False, draw

    # and the spectator reads what the players write
    await ana.by("chat-input").fill("Oi, Vera!")
    await ana.by("chat-send").click()
    await expect(vera.by("chat-log").locator("li").last).to_have_text("Ana: Oi, Vera!")
    await expect(vera.by("chat-log")).not_to_contain_text("posso jogar?")
