"""The replay viewer ("Rever partida", docs/record.md) in Chromium, over the real platform.

Rita plays a few moves against a bot and gives up; the match's review offers "Rever partida",
which opens /m/<table>/rever at the first deal, as she saw it (her hand, the bot's as a count):
one move forward and one back, the slider, then play at 4× to the end, where the match's review
shows again. Someone else opens the same address on a phone: a spectator's replay, no hand,
fitting the screen. A staff account (``maumau staff grant``) sees every hand from the first deal.
"""

from __future__ import annotations

import io
import re
import secrets
from typing import Any

import pytest
from playwright.async_api import expect

from services.accounts.staff import staff_command
from tests.e2e.conftest import ADDRESSES, Players
from tests.e2e.test_rankings import fits, register
from tests.e2e.ui import STEP_TIMEOUT_MS, Move, Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

POSITION = re.compile(r"^Lance (\d+) de (\d+)$")


async def position(player: Player) -> tuple[int, int]:
    m = POSITION.match(await player.by("replay-position").inner_text())
    assert m, await player.by("replay-position").inner_text()
    return int(m.group(1)), int(m.group(2))


async def test_a_finished_match_replays_step_by_step(players: Players) -> None:
    tag = secrets.token_hex(3)
    rita = await players.open(f"Rita {tag}")
    await rita.host("classic32", 2)

    def three_moves(s: dict[str, Any]) -> Move | None:
        return ("stop", "") if rita.moves >= 3 else shed_first(s)

    await rita.play(three_moves)
    await rita.by("btn-giveup").click()
    await rita.click_command(rita.by("btn-giveup-confirm"))
    await expect(rita.by("round-review")).to_be_visible()
    table_id = rita.table_id

    # "Rever partida" in the match's review
    await expect(rita.by("btn-replay")).to_have_text("⏪ Rever partida")
    await rita.by("btn-replay").click()
    await expect(rita.page).to_have_url(re.compile(rf"/m/{table_id}/rever\?partida=1$"))
    await expect(rita.by("replay-screen")).to_be_visible()
    await expect(rita.by("replay-who")).to_contain_text("Como você viu na mesa")
    await expect(rita.by("replay-position")).to_have_text(POSITION)
    start, total = await position(rita)
    assert 1 <= start < total and total >= 6, (start, total)
    await expect(rita.by("hand")).to_be_visible()  # her own hand, at the first deal
    await expect(rita.by("hand").locator(".hand-card")).to_have_count(5)
    await expect(rita.by("opponent-count-1")).to_have_text(re.compile(r"^5"))  # the bot's, as a count
    await expect(rita.by("replay-hands")).to_have_count(0)
    await expect(rita.by("replay-back")).to_be_enabled()
    first_line = await rita.by("replay-line").get_attribute("data-seq")
    await rita.shot("replay-1-start")

    # one move forward, one back
    await rita.by("replay-forward").click()
    await expect(rita.by("replay-position")).to_have_text(f"Lance {start + 1} de {total}")
    await expect(rita.by("replay-line")).not_to_have_attribute("data-seq", first_line or "")
    await expect(rita.by("replay-line")).to_contain_text(re.compile(r"Neste lance: .+"))
    await rita.by("replay-back").click()
    await expect(rita.by("replay-position")).to_have_text(f"Lance {start} de {total}")
    await expect(rita.by("replay-line")).to_have_attribute("data-seq", first_line or "")

    # the slider: any move
    await rita.by("replay-slider").evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }", start + 1)
    await expect(rita.by("replay-position")).to_have_text(f"Lance {start + 2} de {total}")

    # play at 4× to the end: the match's review again, without another "Rever partida"
    await rita.by("replay-speed-4").click()
    await expect(rita.by("replay-speed-4")).to_have_attribute("aria-pressed", "true")
    await expect(rita.by("replay-speed-1")).to_have_attribute("aria-pressed", "false")
    await rita.by("replay-play").click()
    await expect(rita.by("replay-play")).to_have_attribute("aria-pressed", "true")
    await expect(rita.by("replay-play")).to_contain_text("Pausar")
    await expect(rita.by("replay-position")).to_have_text(f"Lance {total} de {total}",
                                                          timeout=STEP_TIMEOUT_MS + total * 400)
    await expect(rita.by("replay-play")).to_have_attribute("aria-pressed", "false")
    await expect(rita.by("replay-forward")).to_be_disabled()
    await expect(rita.by("round-review")).to_be_visible()
    await expect(rita.by("round-review").get_by_test_id("btn-replay")).to_have_count(0)
    await expect(rita.by("event-log")).to_contain_text("desistiu")
    await rita.shot("replay-2-end")

    # in English
    await (await rita.header("btn-lang")).click()
    await expect(rita.by("replay-position")).to_have_text(f"Move {total} of {total}")
    await expect(rita.by("replay-play")).to_contain_text("Play")
    await (await rita.header("btn-lang")).click()

    # someone else, on a phone: a spectator's replay, no hand
    gil = await players.open(f"Gil {tag}", phone=True)
    await gil.page.goto(f"/m/{table_id}/rever")
    await gil.enter()
    await expect(gil.by("replay-screen")).to_be_visible()
    await expect(gil.by("replay-who")).to_contain_text("Como espectador")
    await expect(gil.by("replay-position")).to_have_text(POSITION)
    await expect(gil.by("hand")).to_have_count(0)
    await expect(gil.by("opponents")).to_be_visible()
    await gil.by("replay-forward").click()
    await expect(gil.by("replay-position")).to_have_text(f"Lance {start + 1} de {total}")
    await fits(gil, "the replay")
    await gil.shot("replay-3-phone-spectator", full_page=False)

    # a staff account: every hand, from the first deal (the look is recorded: tests/gateway/test_replay_api.py)
    sol = await players.open(f"Sol {tag}")
    await register(sol)
    out = io.StringIO()
    assert await staff_command(ADDRESSES["nats_url"], sol.name, True, out) == 0, out.getvalue()
    await sol.page.goto(f"/m/{table_id}/rever?partida=1")
    await expect(sol.by("replay-who")).to_contain_text("Equipe: todas as mãos")
    await expect(sol.by("replay-position")).to_have_text(f"Lance {start} de {total}")
    await expect(sol.by("replay-hands").locator(".replay-hand")).to_have_count(2)
    await expect(sol.by("replay-hand-0").locator(".mini-face")).to_have_count(5)
    await expect(sol.by("replay-hand-1").locator(".mini-face")).to_have_count(5)
    dealt = await sol.by("replay-hand-0").locator(".mini-face").evaluate_all("els => els.map((e) => e.dataset.card)")
    await rita.by("replay-slider").evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }", start - 1)
    rita_hand = await rita.by("hand").locator(".hand-card").evaluate_all("els => els.map((e) => e.dataset.card)")
    assert sorted(dealt) == sorted(rita_hand)  # the same deal, seen from her seat and by the staff
    await sol.shot("replay-4-staff")
