"""Oito Maluco (crazy8, issue 26) from the browser: the fifth ruleset needs nothing of the client.

The lobby offers "Oito Maluco" with its own words (the description, the special cards option); a
table of it against bots is created and played to its end from the page: a draw on the first turn
(crazy8 lets a turn draw even holding a play), an 8 played naming a suit through QUAL NAIPE? (the 8,
not the Jack, opens the chooser, and the suit shows as the one in force), and the match — one
deal — ends on the match-end screen with the hands' points against. Screenshots in
``.data/e2e-screenshots/crazy8-*.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import STEP_TIMEOUT_MS, Move, Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

ATTEMPTS = 3  # a deal where no 8 ever reaches our hand is played out, and another table made


class ToAnEight:
    """Draw on the first turn; then hunt for an 8 (draw while drawing is allowed) and play it; stop
    when QUAL NAIPE? shows (the test names the suit); after that, shed as fast as possible to the end."""

    def __init__(self) -> None:
        self.drew = False
        self.eight: str | None = None
        self.named = False

    def __call__(self, s: dict[str, Any]) -> Move | None:
        if s["chooser"] and not self.named:
            return ("stop", "")
        if not self.drew and s["draw"]:
            self.drew = True
            return ("draw", "")
        if self.eight is None:
            eights = [c for c in s["playable"] if c.startswith("8")]
            if eights:
                self.eight = eights[0]
                return ("card", self.eight)
            if s["draw"]:
                return ("draw", "")
        return shed_first(s)


async def one_match(ana: Player, first: bool) -> ToAnEight:
    """A table of crazy8 for 3 against bots, created from the lobby, played to its end."""
    await ana.page.goto("/")
    if first:
        await ana.enter()
    offered = ana.by("ruleset-crazy8")
    await expect(offered).to_contain_text("Oito Maluco")
    await offered.click()
    await expect(ana.page.locator(".ruleset-desc")).to_contain_text("o 8 vale sobre qualquer carta e escolhe o naipe")
    await ana.open_house_rules()
    await expect(ana.by("house-rules")).to_contain_text("Cartas especiais: a dama pula, o ás inverte")
    await expect(ana.by("house-rules")).not_to_contain_text("special_cards")
    await expect(ana.by("opt-special_cards")).not_to_be_checked()
    if first:
        await ana.shot("crazy8-1-lobby")
    await ana.by("opt-seats").select_option("3")
    await ana.by("btn-create").click()
    await expect(ana.by("seat-0")).to_contain_text(ana.name, timeout=STEP_TIMEOUT_MS)
    await ana.fill_bots(3, "weak")
    await ana.start()

    policy = ToAnEight()
    s = await ana.play(policy, seconds=150)
    if s["chooser"]:  # our 8 is on its way: QUAL NAIPE?
        assert policy.eight and s["chooser"] == ["suit-C", "suit-D", "suit-H", "suit-S"], s
        assert re.search(r"naipe", s["chooserTitle"], re.I), s["chooserTitle"]
        await ana.shot("crazy8-2-which-suit")
        suit = "S" if policy.eight.endswith("H") else "H"
        ack = await ana.do(("choose", f"suit-{suit}"))
        assert ack and ack.get("ok"), ack
        policy.named = True
        # the frame of our play: the 8 on the pile, the suit named in force
        views = [f["view"] for f in await ana.frames() if f.get("view")]
        assert any(v.get("top") == policy.eight and v.get("follow") == suit for v in views), \
            [(v.get("top"), v.get("follow")) for v in views[-3:]]
        await ana.shot("crazy8-3-after-the-eight")
        s = await ana.play(policy, seconds=150)
    assert s["review"], s
    return policy


async def test_oito_maluco_from_the_lobby_to_the_end_of_its_match(players: Players) -> None:
    ana = await players.open("Ana")
    policy = ToAnEight()
    for attempt in range(ATTEMPTS):
        policy = await one_match(ana, first=attempt == 0)
        if policy.eight:
            break
    assert policy.drew, "no draw was offered on our first turn"
    assert policy.eight, f"no 8 reached our hand in {ATTEMPTS} deals"

    review = ana.by("round-review")
    await expect(review).to_be_visible()
    # one deal is the match: its end is the match-end screen, lowest total first, no next round
    await expect(ana.by("btn-next-round")).to_have_count(0)
    await expect(ana.by("standings").locator("li")).to_have_count(3)
    scores = await ana.by("standings").locator('[data-testid="standing-score"]').evaluate_all(
        "els => els.map((e) => Number(e.dataset.score))")
    assert scores == sorted(scores), scores
    await expect(review).not_to_contain_text("crazy8")
    await ana.shot("crazy8-4-match-end")


async def test_its_learning_page_and_its_tutorial_on_a_phone(players: Players) -> None:
    bia = await players.open("Bia", phone=True)
    for path, title, rules in (("/static/aprenda/crazy8.html", "Oito Maluco", "O 8 é o curinga"),
                               ("/static/aprenda/en/crazy8.html", "Crazy Eights", "The 8 is wild")):
        await bia.page.goto(path)
        await expect(bia.page.get_by_role("heading", level=1)).to_have_text(title)
        await expect(bia.page.locator("#regras")).to_contain_text(rules)
        assert not re.search(r"\{(seats|points|goal|rulesets)", await bia.page.content()), "a placeholder left"
        overflow = await bia.page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} is {overflow}px wider than the phone"
        await bia.shot(f"crazy8-learn-{'en' if '/en/' in path else 'pt'}-phone", full_page=False)

    # "?" from the lobby with Oito Maluco chosen: its nine steps, the 8's suit chooser, the catalog's points
    await bia.page.goto("/")
    await bia.enter()
    await bia.by("ruleset-crazy8").click()
    await bia.by("btn-help").click()
    tutorial = bia.by("tutorial")
    await expect(bia.by("tutorial-ruleset")).to_have_value("crazy8")
    await expect(bia.by("tutorial-step")).to_have_text("Passo 1 de 9")
    await bia.by("tutorial-next").click()
    await expect(bia.by("tutorial-title")).to_have_text("O 8 é o curinga")
    await expect(tutorial.locator(".tut-choose")).to_contain_text("QUAL NAIPE?")
    await bia.shot("crazy8-tutorial-2-phone", full_page=False)
    for _ in range(7):
        await bia.by("tutorial-next").click()
    await expect(bia.by("tutorial-title")).to_have_text("Pontos contra")
    await expect(tutorial).to_contain_text("O 8 vale 50")
    await expect(tutorial.locator(".tut-point strong")).to_have_text(["50", "10", "7", "3"])
    await bia.shot("crazy8-tutorial-9-phone", full_page=False)
