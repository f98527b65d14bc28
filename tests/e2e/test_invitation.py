"""Two people, two devices: one creates a table and shares its link, the other takes the free seat."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_friend_takes_the_free_seat_by_the_invitation_link(players: Players) -> None:
    ana = await players.open("Ana", permissions=["clipboard-read", "clipboard-write"])
    await ana.page.goto("/")
    await ana.enter()
    link = await ana.create_table("classic32", seats=4)
    table_id = ana.table_id
    assert link.endswith(f"/m/{table_id}?c=" + link.split("?c=")[1])
    await expect(ana.by("seat-0").locator(".tag-me")).to_be_visible()
    for seat in (1, 2, 3):
        await expect(ana.by(f"seat-{seat}")).to_have_class(re.compile(r"\bseat-empty\b"))
    await expect(ana.by("btn-start")).to_be_disabled()  # one player is not enough

    # the copy button puts the same link on the clipboard
    await ana.by("btn-copy").click()
    await expect(ana.by("toasts")).to_contain_text("Link copiado")
    assert await ana.page.evaluate("() => navigator.clipboard.readText()") == link
    await ana.shot("invitation-1-lobby-creator")

    bruno = await players.open("Bruno")
    await bruno.page.goto(link)
    await bruno.enter()  # a stranger gives a name first
    await expect(bruno.by("join-offer")).to_be_visible()
    await bruno.by("btn-join").click()
    await expect(bruno.by("seat-1")).to_contain_text("Bruno")
    await expect(bruno.by("seat-1").locator(".tag-me")).to_be_visible()
    await expect(bruno.by("join-offer")).to_have_count(0)
    await expect(bruno.by("waiting-start")).to_be_visible()
    await expect(bruno.by("btn-start")).to_have_count(0)  # only the creator starts
    await expect(ana.by("seat-1")).to_contain_text("Bruno")  # the creator sees the new player at once

    await ana.fill_bots(4)
    for seat in (2, 3):
        await expect(bruno.by(f"seat-{seat}").locator(".tag-bot")).to_be_visible()
    await ana.shot("invitation-2-lobby-full")
    await ana.start()

    for me, other in ((ana, "Bruno"), (bruno, "Ana")):
        await expect(me.by("hand")).to_be_visible()
        await expect(me.by("hand").locator(".hand-card")).to_have_count(5)
        await expect(me.by("table-status")).to_have_text("Em jogo")
        await expect(me.by("opponents").locator(".opponent")).to_have_count(3)
        await expect(me.by("opponents")).to_contain_text(other)
    assert await ana.cached_seat() == 0
    assert await bruno.cached_seat() == 1
    await bruno.shot("invitation-3-game-guest")
