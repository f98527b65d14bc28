"""A whole round of every ruleset, played by clicking what the table highlights, against bots."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")

REVIEW_TITLE = {"classic32": "Fim da rodada", "classic52": "Fim da rodada", "candeias": "Conferência da Rodada",
                "colors108": "Fim da rodada"}


@pytest.mark.parametrize(("ruleset", "seats"), [("classic32", 2), ("classic52", 3), ("candeias", 3), ("colors108", 2)])
async def test_a_round_is_played_to_its_end(players: Players, ruleset: str, seats: int) -> None:
    ana = await players.open("Ana")
    await ana.host(ruleset, seats=seats)
    await ana.play_round()

    review = ana.by("round-review")
    await expect(review).to_be_visible()
    await expect(review).to_contain_text(REVIEW_TITLE[ruleset])
    await expect(review).to_contain_text(re.compile(r"Você bateu!|bateu!|A MESA TRAVOU"))
    await expect(ana.by("review-table").locator("tbody tr")).to_have_count(seats)
    await expect(ana.by("actions")).to_have_count(0)  # nothing to play once the round is over
    await expect(ana.by("event-log")).to_contain_text(re.compile("venceu a rodada|A MESA TRAVOU"))
    # every card the round review shows was dealt by the server's view: the hands are revealed
    frames = await ana.frames()
    last = frames[-1]["view"]
    assert last["round_over"] is True
    assert "revealed_hands" in last
    # a quick action (candeias) races the bots and may come too late; a move on one's own turn may not
    on_turn = [r for r in ana.refusals if r.get("turn") == "Sua vez!"]
    assert on_turn == [], f"the server refused highlighted moves: {on_turn}"
    await ana.shot(f"round-{ruleset}-review")
