"""No page of the client logs a console error or throws, on any screen, in either language."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_no_console_errors_on_any_screen(players: Players) -> None:
    ana = await players.open("Ana")
    page = ana.page
    await page.goto("/")  # no session yet: the name form
    await expect(ana.by("name-form")).to_be_visible()
    await ana.enter()
    await expect(ana.by("create-form")).to_be_visible()
    await expect(ana.by("my-tables")).to_be_visible()
    for ruleset in ("classic52", "candeias", "colors108", "classic32"):  # every ruleset's options
        await ana.by(f"ruleset-{ruleset}").click()
        await expect(ana.by(f"ruleset-{ruleset}").locator("input")).to_be_checked()

    # the step-by-step help, to its end
    await ana.by("btn-help").click()
    tutorial = ana.by("tutorial")
    await expect(tutorial).to_be_visible()
    total = int(re.findall(r"\d+", await ana.by("tutorial-step").inner_text())[-1])
    for _ in range(total - 1):
        await ana.by("tutorial-next").click()
    await expect(ana.by("tutorial-step")).to_contain_text(f"{total}")
    await ana.by("tutorial-next").click()  # the last step closes it
    await expect(tutorial).to_have_count(0)

    # English and back
    await (await ana.header("btn-lang")).click()
    await expect(ana.by("btn-create")).to_have_text("CREATE TABLE")
    await (await ana.header("btn-lang")).click()
    await expect(ana.by("btn-create")).to_have_text("CRIAR MESA")

    # a table: its lobby, the game, a few moves, another deck design, the list of my tables
    await ana.create_table("classic32", seats=3)
    table_id = ana.table_id
    await ana.fill_bots(3)
    await ana.start()
    for _ in range(3):
        s = await ana.wait_actionable()
        if s["review"]:
            break
        move = shed_first(s)
        if move is not None:
            await ana.do(move)
    for design in range(await ana.by("deck-design").locator("option").count()):  # every deck design
        await ana.by("deck-design").select_option(index=design)
        await expect(ana.by("game")).to_be_visible()
    await (await ana.header("btn-lang")).click()  # the table in English, its help, and back
    await expect(ana.by("btn-giveup")).to_have_text("GIVE UP")
    await ana.by("btn-help").click()
    await expect(ana.by("tutorial")).to_be_visible()
    await ana.by("tutorial-close").click()
    await expect(ana.by("tutorial")).to_have_count(0)
    await (await ana.header("btn-lang")).click()
    await expect(ana.by("btn-giveup")).to_have_text("DESISTIR")
    # someone without the invitation, at the same table
    vera = await players.open("Vera")
    await vera.page.goto(f"/m/{table_id}")
    await vera.enter()
    await expect(vera.by("spectator-hand")).to_be_visible()
    await ana.by("home-link").click()
    await expect(ana.by(f"my-table-{table_id}")).to_be_visible()
    await ana.by(f"my-table-{table_id}").locator("a").click()
    await expect(ana.by("game")).to_be_visible()

    # a table that does not exist
    await page.goto("/m/no-such-table")
    await expect(page.get_by_role("link", name=re.compile("início|home", re.I)).last).to_be_visible()

    players.assert_no_console_errors()
