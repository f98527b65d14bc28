"""The match's end is its own screen, in Chromium at 1366×768 and on a phone (390×844).

A short match against bots (a goal of 1 point: the first round ends it) shows the final
standings in order (most points first where they are collected, fewest where they count
against; equal scores share a place), the winner and REVANCHE inside the screen without
scrolling, breaks no word across two lines, tells ``mm:match-end`` on the table's element, and
REVANCHE starts the next match. The winner's moment is animated, but not where the browser asks
for less motion.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import STEP_TIMEOUT_MS, Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAPTOP = {"width": 1366, "height": 768}

STANDINGS = """
() => [...document.querySelectorAll('[data-testid="standings"] li')].map((li) => ({
  seat: Number(li.dataset.seat), place: Number(li.dataset.place), winner: li.classList.contains('standing-winner'),
  score: Number(li.querySelector('[data-testid="standing-score"]')?.dataset.score ?? NaN) }))
"""

# the words of an element (not the shuffle's seed, a code) that the layout broke across two lines
BROKEN_WORDS = """
(root) => {
  const broken = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (node.parentElement.closest('code')) continue;
    for (const m of node.data.matchAll(/[^\\s\\-–—·]+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (range.getClientRects().length > 1) broken.push(m[0]);
    }
  }
  return broken;
}
"""

# where a thing is on the screen as the player sees it now: [top, bottom, the screen's height]
IN_VIEW = "(el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }"


async def in_view(player: Player, testid: str) -> None:
    top, bottom, height = await player.by(testid).evaluate(IN_VIEW)
    assert top >= 0 and bottom <= height, f"{testid} is at {top:.0f}–{bottom:.0f} px of a {height} px screen"


@pytest.mark.parametrize(("ruleset", "device"), [("classic52", "laptop"), ("classic32", "phone")])
async def test_a_short_match_ends_on_its_own_screen(players: Players, ruleset: str, device: str) -> None:
    phone = device == "phone"
    # the phone asks for less motion: the screen is the same, without its animations
    ana = await players.open("Ana", phone=phone, **({"reduced_motion": "reduce"} if phone else {"viewport": LAPTOP}))
    await ana.host(ruleset, seats=3, target_points=1)
    await ana.page.evaluate("() => document.addEventListener('mm:match-end', (e) => { window.__matchEnd = e.detail; })")
    await ana.play_round()

    await expect(ana.by("match-end")).to_be_visible()
    await expect(ana.by("match-end")).to_contain_text("Fim da partida")
    await expect(ana.by("match-end")).to_contain_text("Classificação final")
    await expect(ana.by("match-end")).to_contain_text("Última rodada")
    await in_view(ana, "match-winner")
    await in_view(ana, "btn-rematch")
    await expect(ana.by("btn-new-table")).to_have_attribute("href", f"/?regra={ruleset}")
    await ana.shot(f"match-end-{ruleset}-{device}", full_page=False)
    assert await ana.by("round-review").evaluate(BROKEN_WORDS) == []
    if phone:
        await expect(ana.by("match-hero")).not_to_have_class(re.compile(r"\bcelebrate\b"))
        assert await ana.page.evaluate("() => document.getAnimations().length") == 0
    else:
        await expect(ana.by("match-hero")).to_have_class(re.compile(r"\bcelebrate\b"))

    rows: list[dict[str, Any]] = await ana.page.evaluate(STANDINGS)
    scores = (await ana.frames())[-1]["view"]["scores"]
    assert sorted(r["seat"] for r in rows) == [0, 1, 2]
    assert [r["score"] for r in rows] == [scores[r["seat"]] for r in rows]
    lowest_wins = ruleset == "classic52"
    ordered = sorted((r["score"] for r in rows), reverse=not lowest_wins)
    assert [r["score"] for r in rows] == ordered, rows
    assert rows[0]["place"] == 1 and rows[0]["winner"], rows
    for i in range(1, len(rows)):  # equal scores share a place; the next one skips
        tied = rows[i]["score"] == rows[i - 1]["score"]
        assert rows[i]["place"] == (rows[i - 1]["place"] if tied else i + 1), rows
    winner = await ana.by(f"standing-{rows[0]['seat']}").locator(".standing-name").inner_text()
    await expect(ana.by("match-winner")).to_contain_text(winner)  # "Você venceu a partida!" / "Bot 2 venceu…"
    told = await ana.page.evaluate("() => window.__matchEnd")
    assert told["winners"] == [rows[0]["seat"]] and told["won"] == (rows[0]["seat"] == 0), told

    await ana.click_command(ana.by("btn-rematch"))
    await expect(ana.by("match-end")).to_have_count(0, timeout=STEP_TIMEOUT_MS)
    await expect(ana.by("hand")).to_be_visible()
    assert (await ana.frames())[-1]["view"]["rounds_played"] == 0
    players.assert_no_console_errors()
