"""The "?" tutorial made from the rulesets' learning data (GET /api/tutorials) in a real Chromium: a ruleset
without steps gets none (never another ruleset's), another one may be picked; a points scene shows the
points the catalog gives. No console error (the ``players`` fixture checks every page)."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_ruleset_without_a_tutorial_gets_none_and_another_may_be_picked(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    # a ruleset the catalog might have before its learning data: opened as the "?" button would
    await ana.page.evaluate(
        """async () => {
             const { openTutorial } = await import('/static/tutorial.js');
             openTutorial('newcomer', 'classic', (id) => (id === 'newcomer' ? 'Regra nova' : id));
           }""")
    tutorial = ana.by("tutorial")
    await expect(ana.by("tutorial-none")).to_have_text(
        "Esta regra ainda não tem passo a passo animado: escolha outra acima.")
    await expect(ana.by("tutorial-ruleset")).to_have_value("newcomer")
    await expect(tutorial.locator(".tut-scene")).to_have_count(0)
    await expect(ana.by("tutorial-step")).to_have_count(0)
    options = ana.by("tutorial-ruleset").locator("option")
    await expect(options.first).to_have_text("Regra nova")  # named, but not to be picked
    await expect(options.first).to_be_disabled()
    await expect(options.nth(1)).to_have_attribute("value", "classic32")  # then the rulesets with steps

    # another ruleset's steps, once picked
    await ana.by("tutorial-ruleset").select_option("classic32")
    await expect(ana.by("tutorial-step")).to_have_text("Passo 1 de 9")
    await expect(ana.by("tutorial-title")).to_have_text("Mesmo naipe ou mesmo valor")
    await expect(options.and_(ana.page.locator("[value=newcomer]"))).to_have_count(0)  # the one without steps is gone
    for _ in range(8):
        await ana.by("tutorial-next").click()
    await expect(ana.by("tutorial-title")).to_have_text("Os pontos")
    # the points of the cards shown: the catalog's (services/rules/catalog.py), not restated in the data
    await expect(tutorial.locator(".tut-point strong")).to_have_text(["20", "11", "10", "9"])
    await ana.by("tutorial-close").click()
    await expect(tutorial).to_have_count(0)


async def test_without_the_tutorials_it_says_so_and_shows_no_steps(players: Players) -> None:
    # no service worker: once it controls the page, the page's requests pass it and no page route sees them
    # (CI rehearsal, crowded: the worker had claimed the page by the tap, and the real steps came)
    bia = await players.open("Bia", allowed_console=("503",), service_workers="block")
    await bia.page.goto("/")
    await bia.enter()
    await bia.page.route("**/api/tutorials", lambda route: route.fulfill(status=503, body="{}"))
    await bia.by("btn-help").click()
    # the tutorial's code is fetched on this first tap: on a crowded machine (CI) longer than expect's 5 s
    await expect(bia.by("tutorial")).to_be_visible(timeout=20_000)
    await expect(bia.by("tutorial-none")).to_have_text(
        "O passo a passo não carregou. Verifique a conexão e abra de novo.")
    await expect(bia.by("tutorial").locator(".tut-scene")).to_have_count(0)
    await bia.page.keyboard.press("Escape")
    await expect(bia.by("tutorial")).to_have_count(0)
