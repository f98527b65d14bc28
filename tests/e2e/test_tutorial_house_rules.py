"""The "?" tutorial at a table shows that table's house rules (issue 14): a classic32 table with the
9 that makes the next draw 3 and the Ace with company on adds exactly those two scenes, in pt-BR,
after the ruleset's usual nine steps; the home page's tutorial stays as it was. No console error."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

USUAL_STEPS = 9  # classic32's own steps (tutorial.js)


async def create_table(player: Player, ruleset: str, options: dict[str, object]) -> str:
    """A table with these options, made by the client's own API module (the create form is the lobby's test)."""
    link = await player.page.evaluate(
        """async ([ruleset, options]) => {
             const { api } = await import('/static/api.js');
             return (await api.createTable(ruleset, options, 2)).link;
           }""", [ruleset, options])
    assert isinstance(link, str) and "/m/" in link, link
    return link


async def steps_total(player: Player) -> int:
    return int(re.findall(r"\d+", await player.by("tutorial-step").inner_text())[-1])


async def test_the_tutorial_shows_the_house_rules_of_this_table(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()

    # away from a table: the usual nine steps
    await ana.by("btn-help").click()
    await expect(ana.by("tutorial")).to_be_visible()
    await expect(ana.by("tutorial-ruleset")).to_have_value("classic32")
    await expect(ana.by("tutorial-step")).to_have_text(f"Passo 1 de {USUAL_STEPS}")
    await ana.by("tutorial-close").click()
    await expect(ana.by("tutorial")).to_have_count(0)

    # a table with two house rules on (and one left at its default: nothing for it)
    link = await create_table(ana, "classic32", {"nine_draws": 3, "ace_with_company": True, "eight_bounce": False})
    await ana.page.goto(link)
    await expect(ana.by("seat-0")).to_contain_text("Ana")
    await ana.fill_bots(2)
    await ana.start()

    await ana.by("btn-help").click()
    await expect(ana.by("tutorial")).to_be_visible()
    await expect(ana.by("tutorial-step")).to_have_text(f"Passo 1 de {USUAL_STEPS + 2}")
    assert await steps_total(ana) == USUAL_STEPS + 2
    await expect(ana.by("tutorial-house")).to_have_count(0)  # the usual steps come first, unmarked
    for _ in range(USUAL_STEPS - 1):
        await ana.by("tutorial-next").click()
    await expect(ana.by("tutorial-step")).to_have_text(f"Passo {USUAL_STEPS} de {USUAL_STEPS + 2}")
    await expect(ana.by("tutorial-house")).to_have_count(0)
    await expect(ana.by("tutorial-next")).to_have_text("PRÓXIMO")

    # the 9: draw three
    await ana.by("tutorial-next").click()
    await expect(ana.by("tutorial-house")).to_have_attribute("data-option", "nine_draws:3")
    await expect(ana.by("tutorial-house")).to_have_text("Regra desta mesa")
    await expect(ana.by("tutorial-title")).to_have_text("O 9: compre 3")
    await expect(ana.by("tutorial-text")).to_contain_text("o 9 faz o próximo jogador comprar 3 cartas e perder a vez")
    scene = ana.by("tutorial").locator(".tut-scene")
    await expect(scene.locator(".tut-move [data-card='9C']")).to_have_count(1)  # drawn by cards.js, and moving
    await expect(scene.locator(".tut-badge")).to_have_text("+3")

    # the Ace with company: the Ace and its companion go together
    await ana.by("tutorial-next").click()
    await expect(ana.by("tutorial-house")).to_have_attribute("data-option", "ace_with_company:true")
    await expect(ana.by("tutorial-title")).to_have_text("O ás vai acompanhado")
    await expect(ana.by("tutorial-text")).to_contain_text("o ás só pode ser jogado junto com mais uma carta da mão")
    await expect(scene.locator(".tut-move")).to_have_count(2)
    await expect(scene.locator(".tut-move-then [data-card='KS']")).to_have_count(1)
    await expect(ana.by("tutorial-step")).to_have_text(f"Passo {USUAL_STEPS + 2} de {USUAL_STEPS + 2}")
    await ana.shot("tutorial-house-rules")

    # the last one, and no more: JOGAR! closes it
    await expect(ana.by("tutorial-next")).to_have_text("JOGAR!")
    await ana.by("tutorial-next").click()
    await expect(ana.by("tutorial")).to_have_count(0)

    # another ruleset picked in the tutorial has only its own steps
    await ana.by("btn-help").click()
    await expect(ana.by("tutorial-step")).to_have_text(f"Passo 1 de {USUAL_STEPS + 2}")
    await ana.by("tutorial-ruleset").select_option("candeias")
    await expect(ana.by("tutorial-step")).to_have_text("Passo 1 de 9")
    await ana.by("tutorial-close").click()
    await expect(ana.by("tutorial")).to_have_count(0)
