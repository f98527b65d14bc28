"""Changing one's name on the home screen: the same device, the new name at the next table."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_new_name_is_used_without_errors(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    token = await ana.page.evaluate("() => localStorage.getItem('mm.token')")
    await expect(ana.page.get_by_role("heading", name="Olá, Ana!")).to_be_visible()

    await ana.by("btn-change-name").click()
    await ana.enter("Ana Maria")
    await expect(ana.page.get_by_role("heading", name="Olá, Ana Maria!")).to_be_visible()
    assert await ana.page.evaluate("() => localStorage.getItem('mm.token')") == token  # the same device
    ana.name = "Ana Maria"
    await ana.create_table("classic32", seats=2)
    await expect(ana.by("seat-0")).to_contain_text("Ana Maria")
    players.assert_no_console_errors()
