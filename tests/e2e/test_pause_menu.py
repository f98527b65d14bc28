"""The pause menu during a match (seed 000) and the Ace played with company, in Chromium.

* On a phone: the menu opens over the table, shows this table's rules in plain words (its
  house rules included), changes the deck design, the sound and the language, and SAIR DO JOGO
  gives up only after a confirmation: the match ends. classic32's seats are drawn
  counter-clockwise ("o jogo anda para a direita").
* ``ace_with_company``, on a phone too: the player picks the Ace, then the card that goes with
  it (and a Jack's suit), and one ``play`` with ``with`` is sent.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Move, Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def host_with(player: Player, ruleset: str, options: list[str], *, seats: int = 2, level: str = "",
                    target_points: int | None = None, start: bool = True) -> None:
    """Home → name → a table with these house rules ticked, bots in the other seats, started."""
    await player.page.goto("/")
    await player.enter()
    await player.by(f"ruleset-{ruleset}").click()
    if options or target_points is not None:  # the options are folded behind "Regras da casa"
        await player.open_house_rules()
    for name in options:
        box = player.by(f"opt-{name}")
        await box.check()
        await expect(box).to_be_checked()
    await player.by("opt-seats").select_option(str(seats))
    if target_points is not None:
        await player.by("opt-target_points").fill(str(target_points))
    await player.by("btn-create").click()
    await expect(player.by("seat-0")).to_contain_text(player.name)
    await player.fill_bots(seats, level)
    if start:
        await player.start()


async def fits(player: Player, screen: str) -> None:
    widths = await player.page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"{screen}: the page is {widths[0]} px wide in a {widths[1]} px screen"


async def test_pause_menu_rules_settings_and_leaving(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    await host_with(ana, "classic32", ["nine_draws"], seats=3, start=False)
    # the table's lobby shows the same rules, folded
    rules = ana.by("table-rules")
    await rules.locator("summary").click()
    await expect(rules.locator(".rules-house")).to_contain_text("O 9 faz o próximo comprar 3")
    await expect(rules.locator(".rules-main")).to_contain_text("Meta: 300 pontos")
    await ana.start()

    # classic32 goes to the right: counter-clockwise, the next player on one's right
    await expect(ana.by("direction")).to_have_attribute("data-direction", "ccw")
    await expect(ana.by("direction")).to_contain_text("anti-horário")
    await expect(ana.by("opponents")).to_have_attribute("data-seating", "ccw")
    assert await ana.by("opponents").locator(".opponent").evaluate_all(
        "(tiles) => tiles.map((t) => t.dataset.seat)") == ["2", "1"]

    # the menu opens over the table
    await ana.by("btn-menu").click()
    dialog = ana.by("menu-dialog")
    await expect(dialog).to_be_visible()
    await expect(dialog.get_by_role("heading")).to_have_text("Menu")
    await expect(ana.by("btn-menu")).to_have_attribute("aria-expanded", "true")
    await fits(ana, "menu")
    await ana.shot("pause-1-menu", full_page=False)

    # the rules of this table, in plain words: the ruleset, the direction, the house rules
    await ana.by("menu-rules").click()
    rules = ana.by("menu-rules-text")
    await expect(rules).to_contain_text("Clássico 32")
    await expect(rules).to_contain_text("O jogo anda para a direita")
    await expect(rules).to_contain_text("Regras da casa")
    await expect(rules.locator(".rules-house")).to_contain_text("O 9 faz o próximo comprar 3")
    await expect(rules.locator(".rules-off")).to_contain_text("Valete sobre valete")
    await expect(rules).to_contain_text("Meta: 300 pontos")
    await fits(ana, "menu rules")
    await ana.shot("pause-2-rules", full_page=False)
    await ana.by("menu-back").click()
    await expect(ana.by("menu-rules")).to_be_visible()

    # the deck design, the sound and the language: kept on this device
    await ana.by("menu-deck").select_option("night")
    await expect(ana.by("deck-design")).to_have_value("night")
    assert await ana.page.evaluate("() => localStorage.getItem('mm.deck')") == "night"
    sound = ana.by("menu-sound")
    await expect(sound).to_have_attribute("aria-checked", "true")
    await sound.click()
    await expect(sound).to_have_attribute("aria-checked", "false")
    await expect(sound).to_have_text("desligado")
    assert await ana.page.evaluate("() => localStorage.getItem('mm.sound')") == "off"
    await ana.by("menu-lang-en").click()
    await expect(ana.by("menu-leave")).to_have_text("LEAVE THE GAME")
    await expect(ana.by("menu-lang-en")).to_have_attribute("aria-pressed", "true")
    await expect(ana.by("btn-lang")).to_have_text("PT")
    await ana.by("menu-lang-pt-BR").click()
    await expect(ana.by("menu-leave")).to_have_text("SAIR DO JOGO")

    # Escape closes it; the match went on meanwhile
    await ana.page.keyboard.press("Escape")
    await expect(ana.by("menu")).to_have_count(0)
    await expect(ana.by("table-status")).to_have_text("Em jogo")

    # SAIR DO JOGO asks first; "Cancelar" leaves everything as it was
    await ana.by("btn-menu").click()
    await ana.by("menu-leave").click()
    await expect(dialog).to_have_attribute("data-view", "leave")
    await expect(dialog).to_contain_text("Sair do jogo é desistir")
    await ana.shot("pause-3-confirm", full_page=False)
    await ana.by("menu-leave-cancel").click()
    await expect(ana.by("menu-leave")).to_be_visible()
    await expect(ana.by("table-status")).to_have_text("Em jogo")
    await ana.by("menu-leave").click()
    ack = await ana.click_command(ana.by("menu-leave-confirm"))
    assert ack is not None and ack["ok"], ack
    await expect(ana.by("menu")).to_have_count(0)
    await expect(ana.by("table-status")).to_have_text(re.compile("Partida terminada|Encerrada"))
    frame = next(f for f in reversed(await ana.frames()) if f["seq"] == max(ack["seqs"]))
    ended = next(e for e in frame["events"] if e["type"] == "MatchEnded")
    assert ended.get("reason") == "gave_up", ended
    await ana.shot("pause-4-ended", full_page=False)


def until_an_ace_may_go(s: dict[str, Any]) -> Move | None:
    """Play on (the first card that fits, else draw) until an Ace may be played, with company."""
    if any(c.startswith("A") for c in s["playable"]) and not s["chooser"]:
        return ("stop", "")
    return shed_first(s)


async def test_an_ace_played_with_company(players: Players) -> None:
    bia = await players.open("Bia", phone=True)
    await host_with(bia, "classic32", ["ace_with_company"], level="weak", target_points=5000)
    s = await bia.play(until_an_ace_may_go, seconds=240, next_rounds=True)
    ace = next(c for c in s["playable"] if c.startswith("A"))
    hand_before = s["hand"]

    # the Ace waits for its company: only the cards that fit it stand out
    await bia.card(ace).click()
    picker = bia.by("companion-picker")
    await expect(picker).to_be_visible()
    await expect(picker).to_have_attribute("data-card", ace)
    await expect(bia.card(ace)).to_have_attribute("aria-pressed", "true")
    companions = (await bia.snapshot())["playable"]
    assert companions and ace not in companions, companions
    for card in companions:
        assert card[0] in "AJ" or card[-1] == ace[-1], (ace, companions)
    await fits(bia, "the Ace's companion")
    await bia.shot("ace-1-companion")

    # the Ace again puts it back; then the Ace and a card that goes with it, in one play
    await bia.card(ace).click()
    await expect(picker).to_have_count(0)
    await bia.card(ace).click()
    await expect(picker).to_be_visible()
    jacks = [c for c in companions if c.startswith("J")]  # a Jack asks its suit too, when the hand has one
    companion = (jacks or companions)[0]
    before = await bia.acks()
    await bia.card(companion).click()
    if companion.startswith("J"):
        await expect(bia.by("suit-chooser")).to_be_visible()
        await expect(bia.by("suit-chooser").locator(".chooser-card")).to_be_visible()
        await bia.by("suit-chooser").get_by_test_id("suit-H").click()
    ack = await bia.wait_ack(before)
    assert ack["ok"], ack
    await bia.wait_seq(max(ack["seqs"]))
    frame = next(f for f in reversed(await bia.frames()) if f["seq"] == max(ack["seqs"]))
    played = next(e for e in frame["events"] if e["type"] == "ActionTaken")
    assert played["action"]["do"] == "play" and played["action"]["card"] == ace, played
    assert played["action"]["with"] == companion, played
    if companion.startswith("J"):
        assert played["action"]["choose"] == "H", played
    await expect(picker).to_have_count(0)
    hand_after = (await bia.snapshot())["hand"]
    assert ace not in hand_after and companion not in hand_after, (hand_before, hand_after)
    await expect(bia.by("event-log")).to_contain_text(re.compile(r"Você jogou A. com "))
    await bia.shot("ace-2-played")
