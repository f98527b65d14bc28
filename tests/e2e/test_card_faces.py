"""What a card shows and says (issue 27, items 4, 9 and 10): the court cards' figures in every deck design,
what a special card does written on it (from the rulesets' catalog), and its spoken name in pt-BR."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

PT_NUMBERS = {"2": "Dois", "3": "Três", "4": "Quatro", "5": "Cinco", "6": "Seis", "7": "Sete", "8": "Oito",
              "9": "Nove", "10": "Dez", "J": "Valete", "Q": "Dama", "K": "Rei", "A": "Ás"}
PT_SUITS = {"C": "paus", "D": "ouros", "H": "copas", "S": "espadas"}


async def at_bot_table(player: Player, ruleset: str) -> None:
    await player.page.goto("/")
    await player.enter()
    await player.by("quick-ruleset").select_option(ruleset)
    await player.by("btn-play-bots").click()
    await expect(player.by("hand")).to_be_visible()


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_court_cards_show_a_figure_in_every_deck_design(players: Players, device: str) -> None:
    ana = await players.open("Ana", phone=device == "phone")
    await ana.page.goto("/")
    await ana.enter()
    designs = await ana.by("deck-design").locator("option").evaluate_all("os => os.map((o) => o.value)")
    assert len(designs) >= 4
    for design in designs:
        await (await ana.header("deck-design")).select_option(design)
        await ana.page.keyboard.press("Escape")  # the phone's menu closed again
        await ana.by("btn-help").click()  # the tutorial's first hand holds the King of hearts
        king = ana.by("tutorial").locator('svg[data-card="KH"]').first
        figure = king.locator("image.card-figure")
        await expect(figure).to_have_count(1)
        href = await figure.get_attribute("href")
        assert href and href.endswith("/KH.svg")
        picture = await ana.page.request.get(href)
        assert picture.ok and picture.headers["content-type"].startswith("image/svg+xml")
        await ana.by("tutorial-close").click()
    await ana.by("btn-help").click()
    await ana.shot(f"card-faces-court-{device}", full_page=False)


async def hand_with_a_special_card(player: Player, effects: dict[str, Any]) -> list[str]:
    """Play on (the bots play the others) until the hand holds a card that does something."""
    for _ in range(40):
        s = await player.wait_actionable()
        if any(re.sub(r"[CDHS]$", "", c) in effects for c in s["hand"]):
            return list(s["hand"])
        move = shed_first(s)
        assert move is not None
        await player.do(move)
    raise AssertionError("no special card came to the hand")


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_special_cards_show_what_they_do(players: Players, device: str) -> None:
    ana = await players.open("Ana", phone=device == "phone")
    await at_bot_table(ana, "candeias")
    catalog = await (await ana.page.request.get("/api/rulesets")).json()
    effects = next(r for r in catalog["rulesets"] if r["name"] == "candeias")["effects"]
    hand = await hand_with_a_special_card(ana, effects)
    await ana.shot(f"card-faces-effects-{device}", full_page=False)
    for name in set(hand):
        effect = effects.get(name[:-1])
        band = ana.card(name).locator(".card-effect")
        if effect:
            await expect(band).to_have_text(effect["pt-BR"])
            # the letters as a player reads them: the font's share of the card times the card's width on screen
            px = await band.locator("text").evaluate(
                "(t) => t.ownerSVGElement.getBoundingClientRect().width / 100 * Number(t.getAttribute('font-size'))")
            assert px >= 9, f"{name}'s effect printed {px:.1f} px high on the {device}"
        else:
            await expect(band).to_have_count(0)


async def test_the_cards_of_the_hand_are_named_in_pt_br(players: Players) -> None:
    ana = await players.open("Ana")
    await at_bot_table(ana, "classic52")
    hand = (await ana.snapshot())["hand"]
    assert hand
    for name in hand:
        spoken = f"{PT_NUMBERS[name[:-1]]} de {PT_SUITS[name[-1]]}"
        await expect(ana.card(name)).to_have_attribute("aria-label", spoken)


async def test_every_effect_the_catalog_prints_fits_inside_its_band(players: Players) -> None:
    """Each ruleset's effect words, in both languages, drawn as the client draws them: no letter past the band."""
    ana = await players.open("Ana")
    await ana.page.goto("/")
    catalog = await (await ana.page.request.get("/api/rulesets")).json()
    effects = [e for r in catalog["rulesets"] for e in r["effects"].values()]
    effects += [e for r in catalog["rulesets"] for by_value in r.get("option_effects", {}).values()
                for by_kind in by_value.values() for e in by_kind.values()]
    words = {label for effect in effects if effect for label in effect.values()}
    assert len(words) > 10, words
    overflowing = await ana.page.evaluate("""async (words) => {
        const { cardSVG } = await import('/static/cards.js');
        const out = [];
        for (const word of words) {
          const box = document.createElement('div');
          box.style.width = '100px';
          box.innerHTML = cardSVG('9H', 'classic', { effect: word });
          document.body.append(box);
          const band = box.querySelector('.card-effect rect').getBoundingClientRect();
          const text = box.querySelector('.card-effect text').getBoundingClientRect();
          if (text.left < band.left || text.right > band.right) out.push([word, text.width, band.width]);
          box.remove();
        }
        return out;
    }""", sorted(words))
    assert overflowing == [], overflowing
