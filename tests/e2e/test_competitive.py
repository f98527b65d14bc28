"""Competitive tables (⚔, docs/rankings.md) in the web client, end to end in Chromium.

* Two accounts at a competitive table (⚔ 50 fichas, no bots, a guest refused a seat): one gives
  up, the other votes to penalise ("Penalizar quem saiu?"); the log says the vote and the
  penalty; the XP ranking (Vitórias / XP) lists both, the winner's +20 XP and the leaver's −20;
  both profiles show their chips and XP, and the match's XP and chips in the history.

A match is played for its stake only when no two seats share an address, and every browser here
comes from 127.0.0.1: this module starts a platform of its own whose gateway trusts one proxy
(``MAUMAU_TRUSTED_PROXIES=1``), and each person's browser says where it comes from in
``X-Forwarded-For``, as a proxy would.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, expect

from services.readmodels.rankings.fairplay import MIN_MOVES
from services.runtime.supervisor import running_platform
from tests.e2e.conftest import PLATFORM_ENV, PLATFORM_UNSET, Players
from tests.e2e.test_rankings import fits, ranking_row_until, register
from tests.e2e.ui import STEP_TIMEOUT_MS, Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def gateway_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    """The platform as conftest's, but behind one trusted proxy: each browser's address is its own."""
    async with contextlib.AsyncExitStack() as stack:
        saved = {k: os.environ.pop(k, None) for k in PLATFORM_UNSET}
        try:
            addresses, _ = await stack.enter_async_context(running_platform(
                tmp_path_factory.mktemp("e2e-competitive"), quiet=os.environ.get("MAUMAU_E2E_VERBOSE") != "1",
                settings={**PLATFORM_ENV, "MAUMAU_TRUSTED_PROXIES": "1"}))
        finally:
            for k, v in saved.items():
                if v is not None:
                    os.environ[k] = v
        yield addresses["gateway_url"]


def from_address(address: str) -> dict[str, Any]:
    return {"extra_http_headers": {"X-Forwarded-For": address}}


async def shows_after_projection(player: Player, target: Locator, text: str | re.Pattern[str]) -> None:
    """``target`` shows ``text``, the page loaded again until the projection has it."""
    async def shown() -> bool:
        try:
            await expect(target).to_have_text(text, timeout=2_000)
        except AssertionError:
            return False
        return True

    await player.reload_until(shown, str(text))


async def contest(people: list[Player]) -> None:
    """Whoever may act acts, until ``MIN_MOVES`` moves are made: a match given up sooner settles for
    nothing (fair play, docs/rankings.md)."""
    made = 0
    while made < MIN_MOVES:
        for x in people:
            move = shed_first(await x.snapshot())
            if move is not None and move[0] != "mau":
                with contextlib.suppress(PlaywrightError):  # a re-render swapped the element: read again
                    ack = await x.do(move)
                    made += bool(ack and ack.get("ok"))
                break
        else:
            await people[0].page.wait_for_timeout(100)


async def test_a_competitive_match_given_up_penalises_the_leaver_and_moves_xp_and_chips(players: Players) -> None:
    tag = secrets.token_hex(3)
    vera = await players.open(f"Vera {tag}", **from_address("198.51.100.7"))
    davi = await players.open(f"Davi {tag}", phone=True, **from_address("203.0.113.9"))
    gil = await players.open(f"Gil {tag}", phone=True, **from_address("192.0.2.44"))
    await register(vera)
    await register(davi)

    # a guest's create form says why not, and offers the account
    await gil.page.goto("/")
    await gil.enter()
    await expect(gil.by("opt-competitive")).to_be_disabled()
    await expect(gil.by("competitive-guest")).to_contain_text("só para quem tem conta")
    await gil.open_house_rules()  # the competitive block is among the folded options
    await expect(gil.by("btn-competitive-register")).to_be_visible()
    await fits(gil, "the home screen")

    # an account's: Mesa competitiva ⚔, the stake in chips, explained
    await vera.page.goto("/")
    await vera.by("ruleset-classic32").click()
    await vera.by("opt-seats").select_option("2")
    await vera.open_house_rules()
    competitive = vera.by("competitive")
    await expect(competitive).to_contain_text("Mesa competitiva ⚔")
    await expect(competitive).to_contain_text("nenhum robô")
    await expect(vera.by("opt-stake")).to_have_count(0)
    await vera.by("opt-competitive").check()
    await expect(vera.by("opt-stake")).to_have_value("50")
    await expect(vera.by("opt-stake").locator("option:checked")).to_have_text("50 fichas")
    await vera.shot("competitive-1-create-desktop")
    await vera.by("btn-create").click()
    link_box = vera.by("invite-link")
    await expect(link_box).to_have_value(re.compile(r"/m/[A-Za-z0-9-]+\?c=."))
    link = await link_box.input_value()
    table_id = vera.table_id
    await expect(vera.by("table-category")).to_have_text("👥 OFICIAL")
    await expect(vera.by("table-stake")).to_have_text("⚔ 50 fichas")
    await expect(vera.by("stake-note")).to_contain_text("cada lugar aposta 50 fichas")
    await expect(vera.by("btn-bots")).to_be_disabled()  # people only
    await expect(vera.by("stake-no-bots")).to_be_visible()

    # a guest is refused the seat, and told why in Portuguese
    await gil.page.goto(link)
    await expect(gil.by("table-stake")).to_have_text("⚔ 50 fichas")
    await expect(gil.by("stake-join")).to_contain_text("sentar custa 50 fichas")
    ack = await gil.click_command(gil.by("btn-join"))
    assert ack is not None and ack["code"] == "account_needed", ack
    await expect(gil.by("seat-refused")).to_contain_text("Mesas competitivas são só para quem tem conta")
    await expect(gil.by("btn-seat-register")).to_be_visible()
    await expect(gil.by("toasts")).to_contain_text("Mesas competitivas são só para quem tem conta")
    await expect(vera.by("seat-1")).to_have_class(re.compile(r"\bseat-empty\b"))
    await fits(gil, "the refused seat")
    await gil.shot("competitive-2-guest-refused-phone")

    # an account with chips sits, on a phone
    await davi.page.goto(link)
    await expect(davi.by("table-stake")).to_have_text("⚔ 50 fichas")
    await davi.click_command(davi.by("btn-join"))
    await expect(davi.by("seat-1")).to_contain_text(davi.name)
    await expect(vera.by("seat-1")).to_contain_text(davi.name)
    await vera.start()
    await expect(davi.by("hand")).to_be_visible()
    await expect(davi.by("table-stake")).to_have_text("⚔ 50 fichas")

    # the one who gives up, a few moves in: the other is asked "Penalizar quem saiu?"
    await contest([vera, davi])
    await davi.by("btn-giveup").click()
    await davi.click_command(davi.by("btn-giveup-confirm"))
    await expect(vera.by("match-winner")).to_contain_text("Você venceu")
    await expect(vera.by("match-stake")).to_have_text("⚔ O pote de 100 fichas é seu!")
    # the final standings say what each one's chips and XP did
    await expect(vera.by("standing-0").get_by_test_id("standing-change")).to_have_text("+50 fichas · +20 XP")
    await expect(vera.by("standing-1").get_by_test_id("standing-change")).to_have_text("−50 fichas · −10 XP")
    vote = vera.by("penalty-vote")
    await expect(vote).to_contain_text("Penalizar quem saiu?")
    await expect(vote).to_contain_text(f"{davi.name} saiu da partida competitiva")
    await expect(vera.by("btn-penalise-yes")).to_have_text("SIM")
    await expect(vera.by("btn-penalise-no")).to_have_text("NÃO")
    await expect(davi.by("penalty-waiting")).to_contain_text("Os outros jogadores estão votando")
    await expect(davi.by("btn-penalise-yes")).to_have_count(0)  # the one who left does not vote
    await vera.shot("competitive-3-vote-desktop")

    await vera.click_command(vera.by("btn-penalise-yes"))
    await expect(vera.by("penalty-outcome")).to_have_text(f"{davi.name} foi penalizado: perdeu mais 10 XP.")
    await expect(vera.by("penalty-votes")).to_contain_text("Sim: Você")
    await expect(vera.by("btn-penalise-yes")).to_have_count(0)
    await expect(vera.by("event-log")).to_contain_text("Você votou para penalizar quem saiu.")
    await expect(vera.by("event-log")).to_contain_text(f"{davi.name} foi penalizado: menos 10 XP.")
    await expect(davi.by("penalty-outcome")).to_have_text("Você foi penalizado por ter saído: perdeu mais 10 XP.")
    await expect(davi.by("standing-1").get_by_test_id("standing-change")).to_have_text("−50 fichas · −20 XP")
    await expect(davi.by("event-log")).to_contain_text(f"{vera.name} votou para penalizar quem saiu.")
    await expect(davi.by("event-log")).to_contain_text("Você foi penalizado: menos 10 XP.")
    await fits(davi, "the table after the vote")
    await davi.shot("competitive-4-penalised-phone")

    # the ranking: Vitórias / XP, the XP kept in the address; both rows, the leaver's below zero
    await (await vera.header("ranking-link")).click()
    await expect(vera.by("ranking-by-wins")).to_have_attribute("aria-current", "page")
    await expect(vera.by("ranking-by")).to_have_text(re.compile("Vitórias.*XP"))
    await vera.by("ranking-by-xp").click()
    await expect(vera.page).to_have_url(re.compile(r"/ranking\?regra=classic32&modo=oficial&periodo=hoje&por=xp$"))
    await expect(vera.by("ranking-by-xp")).to_have_attribute("aria-current", "page")
    await ranking_row_until(vera, vera.name)
    await ranking_row_until(vera, davi.name)
    row = vera.by("ranking-row").filter(has=vera.page.get_by_role("link", name=vera.name, exact=True))
    await expect(row.get_by_test_id("ranking-xp")).to_have_text("+20 XP")
    low = vera.by("ranking-row").filter(has=vera.page.get_by_role("link", name=davi.name, exact=True))
    await shows_after_projection(vera, low.get_by_test_id("ranking-xp"), "−20 XP")
    await vera.by("ranking-period-week").click()  # another tab keeps the XP
    await expect(vera.page).to_have_url(re.compile(r"periodo=semana&por=xp$"))
    await expect(row.get_by_test_id("ranking-xp")).to_have_text("+20 XP")
    await vera.shot("competitive-5-xp-ranking-desktop")

    # the profiles: chips, XP per ruleset, the match's XP and chips
    await vera.by("profile-link").click()
    await expect(vera.by("profile-name-title")).to_have_text(vera.name)
    await shows_after_projection(vera, vera.by("profile-chips"), "🪙 1.050 fichas")
    stats = vera.by("stats-classic32-official")
    await expect(stats.get_by_test_id("stats-xp")).to_have_text("+20")
    match = vera.by(f"history-{table_id}-1")
    await expect(match.get_by_test_id("history-xp")).to_have_text("+20 XP")
    await expect(match.get_by_test_id("history-chips")).to_have_text("+50 fichas")

    await davi.by("profile-link").click()
    await expect(davi.by("profile-name-title")).to_have_text(davi.name)
    await shows_after_projection(davi, davi.by("profile-chips"), "🪙 950 fichas")
    stats = davi.by("stats-classic32-official")
    await shows_after_projection(davi, stats.get_by_test_id("stats-xp"), "−20")
    match = davi.by(f"history-{table_id}-1")
    await expect(match.get_by_test_id("history-xp")).to_have_text("−20 XP")
    await expect(match.get_by_test_id("history-chips")).to_have_text("−50 fichas")
    await expect(match.get_by_test_id("history-end")).to_have_text("desistiu")
    await fits(davi, "the profile")
    await davi.shot("competitive-6-profile-phone")

    # the XP ranking's address, opened on a phone: the tabs fit, the leaver's XP below zero
    await davi.page.goto("/ranking?regra=classic32&modo=oficial&periodo=hoje&por=xp")
    await expect(davi.by("ranking-by-xp")).to_have_attribute("aria-current", "page")
    mine = davi.by("ranking-row").filter(has=davi.page.get_by_role("link", name=davi.name, exact=True))
    await expect(mine.get_by_test_id("ranking-xp")).to_have_text("−20 XP")
    await expect(davi.by("ranking-page")).to_contain_text("Pode ficar negativo")
    await fits(davi, "the XP ranking")
    await davi.shot("competitive-7-xp-ranking-phone")
    await davi.by("ranking-by-wins").click()  # back to the wins: no word in the address
    await expect(davi.page).to_have_url(re.compile(r"/ranking\?regra=classic32&modo=oficial&periodo=hoje$"))
    await davi.page.go_back()  # each tab is an address of the history
    await expect(davi.page).to_have_url(re.compile(r"periodo=hoje&por=xp$"))
    await expect(davi.by("ranking-by-xp")).to_have_attribute("aria-current", "page")
    await davi.by("profile-link").click()
    await expect(davi.by("profile-name-title")).to_have_text(davi.name)

    # in English too
    await (await davi.header("btn-lang")).click()
    await expect(davi.by("profile-chips")).to_have_text("🪙 950 chips")
    await expect(match.get_by_test_id("history-chips")).to_have_text("−50 chips")
    await davi.page.goto(f"/m/{table_id}")
    await expect(davi.by("table-stake")).to_have_text("⚔ 50 chips", timeout=STEP_TIMEOUT_MS)
    await expect(davi.by("penalty-outcome")).to_have_text("You were penalised for leaving: 10 XP more lost.")
    await (await davi.header("btn-lang")).click()
    players.assert_no_console_errors()
