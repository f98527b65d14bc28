"""Disputes in the web client (docs/disputes.md): a player reports a problem from the pause menu during
a match; a staff account (granted with ``maumau staff grant``) opens it on /staff at that moment, with
the record's verification beside it, and upholds it, annulling the match; the player reads the note in
"Meus relatos". Over the real platform and its projector."""

from __future__ import annotations

import io
import re
import secrets

import pytest
from playwright.async_api import expect

from services.accounts.staff import staff_command
from tests.e2e.conftest import ADDRESSES, Players
from tests.e2e.test_rankings import register
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

async def reload_until(player: Player, testid: str, pattern: str) -> None:
    """The page shows ``pattern`` in ``testid``, loaded again until the projection has it."""
    target = player.by(testid).filter(has_text=re.compile(pattern))
    await player.reload_until(lambda: target.count(), f"{testid} with {pattern!r}")


async def test_a_report_is_upheld_by_staff_at_its_moment_and_the_player_reads_the_note(players: Players) -> None:
    tag = secrets.token_hex(3)
    vera = await players.open(f"Vera {tag}")
    davi = await players.open(f"Davi {tag}")
    sol = await players.open(f"Sol {tag}")
    for p in (vera, davi, sol):
        await register(p)
    out = io.StringIO()
    assert await staff_command(ADDRESSES["nats_url"], sol.name, True, out) == 0, out.getvalue()

    # a match of two accounts; Davi reports a problem from the pause menu while it is played
    await vera.page.goto("/")
    link = await vera.create_table("classic32", seats=2)
    await davi.page.goto(link)
    await davi.by("btn-join").click()
    await expect(davi.by("seat-1")).to_contain_text(davi.name)
    await vera.start()
    await expect(davi.by("hand")).to_be_visible()
    await davi.by("btn-menu").click()
    await davi.by("menu-report").click()
    await expect(davi.by("report-text")).to_be_focused()
    await davi.by("report-text").fill("Ela jogou duas cartas de uma vez!")
    await davi.by("report-send").click()
    await expect(davi.by("report-sent")).to_be_visible()
    await davi.shot("disputes-1-reported")
    await davi.by("report-done").click()
    await davi.by("btn-giveup").click()  # the match ends: it can be annulled
    await davi.click_command(davi.by("btn-giveup-confirm"))
    await expect(vera.by("match-winner")).to_contain_text("Você venceu")

    # only staff see the desk
    await vera.page.goto("/staff")
    await expect(vera.by("staff-only")).to_be_visible()

    # the staff's desk: the open report, opened at its moment, the record verified
    await sol.page.goto("/staff")
    await reload_until(sol, "staff-dispute", "duas cartas")
    await sol.by("staff-dispute").filter(has_text="duas cartas").get_by_test_id("staff-open").click()
    await expect(sol.page).to_have_url(re.compile(r"/staff\?relato=[0-9a-f]+$"))
    await expect(sol.by("staff-text")).to_have_text("Ela jogou duas cartas de uma vez!")
    await expect(sol.by("staff-verification")).to_have_attribute("data-ok", "true")
    await expect(sol.by("staff-verification")).to_contain_text("ok: ")
    await expect(sol.by("staff-moment")).to_be_visible()
    await expect(sol.by("staff-steps")).to_contain_text(f"{vera.name}:")  # every hand, as staff see it
    await expect(sol.by("staff-looks")).to_contain_text("1 vez")
    await sol.shot("disputes-2-desk")
    await sol.by("staff-verdict-upheld").check()
    await sol.by("staff-annul").check()
    await sol.by("staff-note").fill("Procede: a partida foi anulada.")
    await sol.by("staff-submit").click()
    await expect(sol.by("toasts")).to_contain_text("Relato encerrado")
    await expect(sol.page).to_have_url(re.compile(r"/staff$"))
    await sol.by("staff-tab-closed").click()  # the closed ones, with their verdicts
    await reload_until(sol, "staff-dispute", "Procede · partida anulada")
    await sol.by("staff-tab-looks").click()  # every staff look: Sol's, opened from the report
    await expect(sol.page).to_have_url(re.compile(r"/staff\?vistas=1$"))
    await reload_until(sol, "staff-look", f"{sol.name}.*aberta de um relato")

    # the match is annulled in the player's history; "Meus relatos" (from the own profile) has the answer
    await davi.page.get_by_role("link", name=f"Meu perfil ({davi.name})").click()
    await reload_until(davi, "profile-history", "ANULADA")
    await expect(davi.by("profile-history").get_by_test_id("history-annulled")).to_have_count(1)
    await davi.by("profile-reports").click()
    await expect(davi.page).to_have_url(re.compile(r"/relatos$"))
    await reload_until(davi, "my-report-status", "Procede · partida anulada")
    await expect(davi.by("my-report-note")).to_contain_text("Procede: a partida foi anulada.")
    await davi.shot("disputes-3-answer")
