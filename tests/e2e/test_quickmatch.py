"""Playing with strangers in the web client: "Jogar agora" and the open tables (issue 15).

* Two devices press "Jogar agora" with the same choices: the first waits ("Procurando
  jogadores…", its clock running), the second completes the pool, and both land at the same
  table, each seated, the match under way.
* A ticket is taken back by "Cancelar" and by leaving the home screen; after 30 s (the page's
  clock run forward) "Completar com robôs" makes a training table with bots, started.
* A table created "Aberta" on one device shows in the other's "Mesas abertas" (polled every
  few seconds) and is joined with one tap; its creator's list offers to open it instead.

Every e2e test shares one platform: the quick-match pools are chosen apart from the other
tests' (a ruleset, seat count and speed of their own), the open table is found by its id.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from playwright.async_api import Response, expect

from tests.e2e.conftest import Players
from tests.e2e.test_screens import fits
from tests.e2e.ui import STEP_TIMEOUT_MS, Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

OPEN_LISTED_MS = 15_000  # the list is asked for every 4 s, from a projection a moment behind


async def choose(player: Player, ruleset: str, seats: int, speed: int) -> None:
    await player.by("quick-ruleset").select_option(ruleset)
    await player.by("quick-seats").select_option(str(seats))
    await player.by("quick-speed").select_option(str(speed))


def tickets(player: Player) -> list[str]:
    """The quick-match tickets this page is given (the answers to POST /api/quick-match, as they come)."""
    got: list[str] = []

    async def on_response(response: Response) -> None:
        if response.request.method == "POST" and response.url.endswith("/api/quick-match") and response.ok:
            got.append((await response.json())["ticket"])

    player.page.on("response", on_response)
    return got


async def ticket_status(player: Player, ticket: str) -> str:
    """Where the server says a ticket is (asked from the page, as the client would)."""
    answer: dict[str, Any] = await player.page.evaluate(
        """async (t) => (await fetch(`/api/quick-match/${encodeURIComponent(t)}`, { headers: {
             Authorization: `Bearer ${localStorage.getItem('mm.token')}` } })).json()""", ticket)
    return str(answer["status"])


async def until(check: Callable[[], Awaitable[bool]], what: str, seconds: float = STEP_TIMEOUT_MS / 1000) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, f"not within {seconds:.0f} s: {what}"
        await asyncio.sleep(0.2)


async def given_count(given: list[str], n: int) -> None:
    async def check() -> bool:
        return len(given) >= n
    await until(check, f"{n} tickets given")


async def taken_back(player: Player, ticket: str) -> None:
    async def check() -> bool:
        return await ticket_status(player, ticket) == "cancelled"
    await until(check, f"the ticket {ticket} taken back")


async def test_two_players_press_jogar_agora_and_meet_at_one_table(players: Players) -> None:
    ana = await players.open("Ana")
    bruno = await players.open("Bruno", phone=True)
    for p in (ana, bruno):
        await p.page.goto("/")
        await p.enter()
        await expect(p.by("quick-form")).to_be_visible()
        await choose(p, "classic52", 2, 60)

    await ana.by("btn-quick").click()
    await expect(ana.by("quick-searching")).to_have_text("Procurando jogadores…")
    await expect(ana.by("quick-what")).to_contain_text("Clássico 52")
    await expect(ana.by("quick-what")).to_contain_text("1 min")
    await expect(ana.by("quick-elapsed")).to_have_text(re.compile(r"^0:0[1-9]$"))  # the clock runs
    await expect(ana.by("create-form")).to_have_count(0)  # the waiting screen, alone
    await expect(ana.by("quick-offer")).to_have_count(0)  # the bots only after 30 s
    await ana.shot("quickmatch-1-waiting")

    await bruno.by("btn-quick").click()
    for p in (ana, bruno):
        await expect(p.page).to_have_url(re.compile(r"/m/[A-Za-z0-9-]+$"), timeout=STEP_TIMEOUT_MS)
        await expect(p.by("hand")).to_be_visible()
    assert ana.table_id == bruno.table_id
    for me, other in ((ana, "Bruno"), (bruno, "Ana")):
        await expect(me.by("table-status")).to_have_text("Em jogo")
        await expect(me.by("opponents").locator(".opponent")).to_have_count(1)
        await expect(me.by("opponents")).to_contain_text(other)
        await expect(me.by("turn-timer")).to_be_visible()  # the speed chosen: a turn timer
    assert {await ana.cached_seat(), await bruno.cached_seat()} == {0, 1}
    await fits(bruno, "a quick match's table on a phone")
    await bruno.shot("quickmatch-2-matched-phone")


async def test_a_ticket_is_taken_back_and_the_bots_come_after_30_s(players: Players) -> None:
    carla = await players.open("Carla", phone=True)
    given = tickets(carla)
    await carla.page.clock.install()  # its clock runs as ever, until the test moves it forward
    await carla.page.goto("/")
    await carla.enter()
    await choose(carla, "classic32", 3, 15)

    # Cancelar: back to the choices, the ticket taken back
    await carla.by("btn-quick").click()
    await expect(carla.by("quick-searching")).to_be_visible()
    await expect(carla.by("btn-quick-cancel")).to_be_focused()  # the keyboard goes along with the screen
    await given_count(given, 1)
    await carla.by("btn-quick-cancel").click()
    await expect(carla.by("quick-form")).to_be_visible()
    await expect(carla.by("btn-quick")).to_be_focused()
    await taken_back(carla, given[0])

    # leaving the home screen (the Ranking, here) takes it back too
    await carla.by("btn-quick").click()
    await expect(carla.by("quick-searching")).to_be_visible()
    await given_count(given, 2)
    await (await carla.header("ranking-link")).click()
    await expect(carla.by("ranking-page")).to_be_visible()
    await taken_back(carla, given[1])
    await carla.page.go_back()
    await expect(carla.by("quick-form")).to_be_visible()
    await expect(carla.by("quick-seats")).to_have_value("3")  # the choices are remembered

    # nobody comes: after 30 s, "Completar com robôs" makes a training table, started
    await carla.by("btn-quick").click()
    await expect(carla.by("quick-searching")).to_be_visible()
    await given_count(given, 3)
    await carla.page.clock.fast_forward("00:31")
    await expect(carla.by("quick-offer")).to_be_visible()
    await expect(carla.by("quick-elapsed")).to_have_text(re.compile(r"^0:3\d$"))
    await fits(carla, "the waiting screen on a phone")
    await carla.shot("quickmatch-3-bots-offered-phone")
    await carla.by("btn-quick-bots").click()
    await expect(carla.page).to_have_url(re.compile(r"/m/[A-Za-z0-9-]+$"))
    await expect(carla.by("hand")).to_be_visible()
    await expect(carla.by("opponents").locator(".opponent")).to_have_count(2)
    await expect(carla.by("opponents").locator(".tag-bot")).to_have_count(2)
    assert await carla.cached_seat() == 0
    assert await ticket_status(carla, given[2]) == "cancelled"


async def test_an_open_table_is_listed_and_joined_with_one_tap(players: Players) -> None:
    bruno = await players.open("Bruno", phone=True)
    await bruno.page.goto("/")
    await bruno.enter()
    await expect(bruno.by("open-tables")).to_be_visible()

    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    await ana.by("ruleset-classic32").click()
    await ana.by("opt-seats").select_option("3")
    await ana.open_house_rules()  # who may sit is among the folded options
    await expect(ana.by("visibility-invite").locator("input")).to_be_checked()  # "Só por convite" unless chosen
    await ana.by("visibility-open").click()
    await expect(ana.by("visibility-open").locator("input")).to_be_checked()
    await ana.by("btn-create").click()
    await expect(ana.by("seat-0")).to_contain_text("Ana")
    table_id = ana.table_id

    row = bruno.by(f"open-table-{table_id}")
    await expect(row).to_be_visible(timeout=OPEN_LISTED_MS)  # no reload: the list keeps itself fresh
    await expect(row).to_contain_text("Clássico 32")
    await expect(row).to_contain_text("2 lugares livres")
    await expect(row).to_contain_text("Ana")
    await expect(row).to_contain_text("OFICIAL")
    await expect(row).to_contain_text("Tempo de jogada: sem limite")
    await fits(bruno, "the open tables on a phone")
    await row.scroll_into_view_if_needed()
    await bruno.shot("quickmatch-4-open-tables-phone", full_page=False)

    await bruno.by(f"open-join-{table_id}").click()  # one tap: seated, at the table
    await expect(bruno.page).to_have_url(re.compile(rf"/m/{table_id}$"))
    await expect(bruno.by("seat-1")).to_contain_text("Bruno")
    await expect(bruno.by("seat-1").locator(".tag-me")).to_be_visible()
    await expect(bruno.by("waiting-start")).to_be_visible()
    await expect(ana.by("seat-1")).to_contain_text("Bruno")  # the creator sees the new player at once
    assert await bruno.cached_seat() == 1
    # a third device sees the one seat left
    carla = await players.open("Carla")
    await carla.page.goto("/")
    await carla.enter()
    await expect(carla.by(f"open-table-{table_id}")).to_contain_text("1 lugar livre", timeout=OPEN_LISTED_MS)
    # whoever sits there already is offered to open it, not to sit again
    await ana.by("home-link").click()
    await expect(ana.by(f"open-mine-{table_id}")).to_be_visible(timeout=OPEN_LISTED_MS)
    await expect(ana.by(f"open-join-{table_id}")).to_have_count(0)
    await ana.by(f"open-mine-{table_id}").click()
    await expect(ana.by("seat-0").locator(".tag-me")).to_be_visible()
