"""The Aprenda pages in a real Chromium: reached from the header, a quiz answer revealed with a tap, "Jogar
esta regra" landing on the create form with that ruleset chosen, the tutorial link, English, a phone; no
console error anywhere (the ``players`` fixture checks every page)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_from_the_header_to_a_page_its_quiz_and_its_table(players: Players) -> None:
    ana = await players.open("Ana")
    page = ana.page
    await page.goto("/")
    await expect(ana.by("name-form")).to_be_visible()
    await (await ana.header("learn-link")).click()  # the header's "Aprenda"
    await expect(ana.by("aprenda-index")).to_be_visible()
    await expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    await ana.by("learn-candeias").click()
    await expect(page.get_by_role("heading", level=1)).to_have_text("Candeias")
    await expect(page.get_by_role("heading", level=2, name="As regras", exact=True)).to_be_visible()

    # a quiz answer: hidden until its question is tapped
    question = ana.by("quiz-3")
    answer = question.locator(".answer")
    await expect(answer).to_be_hidden()
    await question.locator("summary").click()
    await expect(answer).to_be_visible()
    await expect(answer).to_contain_text("anterior")

    # "Jogar esta regra": the home screen, then the create form with Candeias chosen
    await ana.by("play-ruleset").first.click()
    await ana.enter()
    await expect(ana.by("ruleset-candeias").locator("input")).to_be_checked()
    assert urlpath(page.url) == "/"  # asked once: the query is gone
    await expect(ana.by("lobby-learn")).to_have_attribute("href", "/static/aprenda/candeias.html")

    # the page's tutorial link opens the step-by-step help of that ruleset
    await ana.by("lobby-learn").click()
    await ana.by("tutorial-link").first.click()
    await expect(ana.by("tutorial")).to_be_visible()
    await expect(ana.by("tutorial-ruleset")).to_have_value("candeias")
    await ana.by("tutorial-close").click()
    await expect(ana.by("tutorial")).to_have_count(0)

    # the English page: its twin, and its table in English
    await page.goto("/static/aprenda/colors108.html")
    await ana.by("other-lang").click()
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Colours 108")
    await ana.by("play-ruleset").last.click()
    await expect(ana.by("btn-create")).to_have_text("CREATE TABLE")
    await expect(ana.by("ruleset-colors108").locator("input")).to_be_checked()
    await expect(ana.by("learn-link")).to_have_attribute("href", "/static/aprenda/en/index.html")


async def test_the_pages_fit_a_phone(players: Players) -> None:
    bia = await players.open("Bia", phone=True)
    for path in ("/static/aprenda/index.html", "/static/aprenda/classic32.html", "/static/aprenda/en/candeias.html"):
        await bia.page.goto(path)
        await expect(bia.page.get_by_role("heading", level=1)).to_be_visible()
        overflow = await bia.page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} is {overflow}px wider than the phone"


def urlpath(url: str) -> str:
    m = re.match(r"https?://[^/]+(/[^#]*)", url)
    return m.group(1) if m else url
