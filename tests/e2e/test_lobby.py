"""The lobby on one phone screen (issue 27, item 10): the name, "Jogar agora", the one tap "Jogar contra
robôs", "Criar mesa" with its options folded behind "Regras da casa", a header of one row, and rows of
"Minhas mesas" that say whom each table is with."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import PHONE, Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

LOBBY_CONTROLS = ("btn-change-name", "quick-ruleset", "quick-seats", "btn-quick", "btn-play-bots",
                  "ruleset-classic32", "ruleset-colors108", "house-rules-toggle", "opt-seats", "btn-create")
HEADER_ROW = ("home-link", "btn-sound", "btn-help", "btn-login")


async def at_home(player: Player) -> None:
    await player.page.goto("/")
    await player.enter()
    await expect(player.by("btn-play-bots")).to_be_visible()


async def box(player: Player, testid: str) -> dict[str, float]:
    b = await player.by(testid).bounding_box()
    assert b is not None, f"{testid} is not on screen"
    return b


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_the_lobby_controls_fit_the_first_screen(players: Players, device: str) -> None:
    ana = await players.open("Ana", phone=device == "phone")
    await at_home(ana)
    await ana.shot(f"lobby-{device}", full_page=False)
    height = await ana.page.evaluate("() => window.innerHeight")
    width = await ana.page.evaluate("() => window.innerWidth")
    for testid in LOBBY_CONTROLS:
        b = await box(ana, testid)
        assert b["y"] >= 0 and b["y"] + b["height"] <= height, f"{testid} is below the fold: {b}"
        assert b["x"] >= 0 and b["x"] + b["width"] <= width, f"{testid} is off the side: {b}"
        if device == "phone":
            assert b["height"] >= 44, f"{testid} is smaller than a finger: {b}"


async def test_the_phone_header_is_one_row_of_44_px_targets(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    await at_home(ana)
    header = await ana.page.locator("header.topbar").bounding_box()
    assert header is not None and header["height"] <= 60, f"the header is {header} high"
    for testid in HEADER_ROW:
        b = await box(ana, testid)
        assert b["y"] >= 0 and b["y"] + b["height"] <= header["height"], f"{testid} is not in the header's row: {b}"
        assert b["height"] >= 44 and b["width"] >= 44, f"{testid} is smaller than a finger: {b}"
    # the rest of the tools behind ☰, each a finger wide too
    await expect(ana.by("ranking-link")).to_be_hidden()
    await ana.by("btn-more").click()
    await expect(ana.by("btn-more")).to_have_attribute("aria-expanded", "true")
    await ana.shot("lobby-phone-menu", full_page=False)
    for testid in ("deck-design", "learn-link", "btn-lang", "ranking-link", "btn-register"):
        b = await box(ana, testid)
        assert b["height"] >= 44, f"{testid} is smaller than a finger: {b}"
        assert b["x"] + b["width"] <= PHONE["width"], f"{testid} is off the side: {b}"
    await ana.page.keyboard.press("Escape")
    await expect(ana.by("ranking-link")).to_be_hidden()


async def test_the_desktop_header_shows_every_tool_without_a_menu(players: Players) -> None:
    ana = await players.open("Ana")
    await at_home(ana)
    await expect(ana.by("btn-more")).to_be_hidden()
    for testid in ("deck-design", "learn-link", "btn-lang", "ranking-link", "btn-sound", "btn-help", "btn-login",
                   "btn-register"):
        await expect(ana.by(testid)).to_be_visible()
    header = await ana.page.locator("header.topbar").bounding_box()
    assert header is not None and header["height"] <= 60, f"the header is {header} high"


async def test_one_tap_plays_the_chosen_ruleset_against_bots(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    await at_home(ana)
    await ana.by("quick-ruleset").select_option("candeias")
    await ana.by("quick-seats").select_option("3")
    await ana.by("btn-play-bots").click()
    await expect(ana.page).to_have_url(re.compile(r"/m/[A-Za-z0-9-]+$"))
    await expect(ana.by("hand")).to_be_visible()
    info = await (await ana.page.request.get(f"/api/tables/{ana.table_id}")).json()
    assert (info["ruleset"], info["status"]) == ("candeias", "playing")
    assert [p["bot"] for p in info["players"]] == [False, True, True]
    assert info["players"][0]["name"] == "Ana"


async def test_the_create_options_are_folded_behind_house_rules(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    await at_home(ana)
    await expect(ana.by("house-rules-toggle")).to_have_text("Regras da casa")
    await expect(ana.by("opt-turn_seconds")).to_be_hidden()
    await expect(ana.by("visibility")).to_be_hidden()
    await ana.by("house-rules-toggle").click()
    await expect(ana.by("opt-turn_seconds")).to_be_visible()
    await expect(ana.by("visibility")).to_be_visible()
    await ana.by("ruleset-colors108").click()  # drawn again for another ruleset: still open
    await expect(ana.by("opt-quick")).to_be_visible()


async def test_my_tables_say_whom_each_table_is_with(players: Players) -> None:
    ana = await players.open("Ana")
    await at_home(ana)
    await ana.by("quick-ruleset").select_option("classic52")
    await ana.by("quick-seats").select_option("3")
    await ana.by("btn-play-bots").click()
    await expect(ana.by("hand")).to_be_visible()
    table_id = ana.table_id
    info = await (await ana.page.request.get(f"/api/tables/{table_id}")).json()
    bots = [p["name"] for p in info["players"][1:]]
    await ana.by("home-link").click()  # home, as a player goes (the page follows the table it just left)
    row = ana.by(f"my-table-{table_id}")
    await expect(row).to_contain_text("Clássico 52")
    await expect(row.get_by_test_id("my-table-with")).to_have_text(f"com {', '.join(bots)}")


async def test_a_house_rule_says_what_it_does_under_its_checkbox(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    await at_home(ana)
    await ana.by("ruleset-classic32").click()
    await ana.by("house-rules-toggle").click()
    special = ana.by("opt-ace_with_company")
    await expect(special).to_have_accessible_description(re.compile("A segunda carta tem de servir"))
    await expect(ana.page.locator(".opt-hint", has_text="A segunda carta tem de servir")).to_be_visible()
    name_before = await special.evaluate("(e) => e.labels[0].textContent")
    await ana.page.get_by_text(name_before, exact=True).click()  # the label still ticks its box
    await expect(special).to_be_checked()
    await ana.shot("lobby-house-rules-phone", full_page=False)
