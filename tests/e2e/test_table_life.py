"""The table's life around the game, in Chromium: the rematch declined, automatic mode, the seat move of duplas.

* A rematch stays open until everyone answers: "Não, obrigado" closes it, for the player and
  for whoever watches.
* Automatic mode: "Modo automático" puts the seat in it, the system plays its turns at once,
  everyone sees the robot mark, "Voltar a jogar" takes it back.
* Duplas (colors108 teams): the lobby shows who partners whom, and the creator moves a player
  to the seat opposite theirs before the start.
"""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def create_with(player: Player, ruleset: str, options: list[str], seats: int) -> str:
    """Home → name → a table with these options ticked; returns its invitation link."""
    await player.page.goto("/")
    await player.enter()
    await player.by(f"ruleset-{ruleset}").click()
    if options:  # folded behind "Regras da casa"
        await player.open_house_rules()
    for name in options:
        box = player.by(f"opt-{name}")
        await box.check()
        await expect(box).to_be_checked()
    if not await player.by("opt-seats").is_disabled():
        await player.by("opt-seats").select_option(str(seats))
    await player.by("btn-create").click()
    await expect(player.by("seat-0")).to_contain_text(player.name)
    return await player.by("invite-link").input_value()


async def test_a_declined_rematch_is_closed_for_everyone(players: Players) -> None:
    ana = await players.open("Ana")
    link = await create_with(ana, "colors108", ["quick"], seats=2)  # the first out wins the match
    await ana.fill_bots(2)
    await ana.start()
    bia = await players.open("Bia")  # the table is under way: she watches
    await bia.page.goto(link)
    await bia.enter()
    await expect(bia.by("spectator-hand")).to_be_visible()

    await ana.play_round()
    await expect(ana.by("match-winner")).to_be_visible()
    await expect(ana.by("btn-rematch")).to_be_visible()
    await ana.click_command(ana.by("btn-rematch-no"))
    await expect(ana.by("rematch-closed")).to_have_text("A revanche não aconteceu.")
    await expect(ana.by("btn-rematch")).to_have_count(0)
    await expect(bia.by("rematch-closed")).to_be_visible()
    await expect(ana.by("event-log")).to_contain_text("Você não quer revanche.")


async def test_automatic_mode_plays_at_once_and_everyone_sees_it(players: Players) -> None:
    ana = await players.open("Ana")
    link = await create_with(ana, "classic32", [], seats=2)
    await ana.fill_bots(2)
    await ana.start()
    bia = await players.open("Bia")  # watching
    await bia.page.goto(link)
    await bia.enter()
    await expect(bia.by("opponent-0")).to_be_visible()

    seq = await ana.seq()
    await ana.click_command(ana.by("btn-auto-on"))
    await expect(ana.by("auto-notice")).to_contain_text("Modo automático ligado")
    await expect(ana.by("scoreboard").get_by_test_id("auto-mark-0")).to_be_visible()
    await expect(bia.by("opponent-0").get_by_test_id("auto-mark-0")).to_contain_text("automático")
    # the system plays Ana's turns at once: no turn timer at this table, nobody clicks
    await ana.page.wait_for_function(
        """s => window.__e2e.frames.some((f) => f.seq > s && f.events.some(
             (e) => e.type === 'ActionTaken' && e.action.seat === 0))""", arg=seq, timeout=15_000)
    await expect(ana.by("event-log")).to_contain_text("Você ligou o modo automático")

    await ana.click_command(ana.by("btn-auto-off"))  # "Voltar a jogar"
    await expect(ana.by("auto-notice")).to_have_count(0)
    await expect(ana.by("btn-auto-on")).to_be_visible()
    await expect(bia.by("opponent-0").get_by_test_id("auto-mark-0")).to_have_count(0)
    await expect(ana.by("event-log")).to_contain_text("Você voltou a jogar.")


async def test_the_creator_makes_the_teams_by_moving_players(players: Players) -> None:
    ana = await players.open("Ana")
    link = await create_with(ana, "colors108", ["teams"], seats=4)
    bia = await players.open("Bia")
    await bia.page.goto(link)
    await bia.enter()
    await bia.by("btn-join").click()
    await expect(bia.by("seat-1")).to_contain_text("Bia")
    await ana.fill_bots(4)
    bot_2 = await ana.by("seat-2").locator(".seat-name").evaluate("(el) => el.firstChild.textContent")

    await expect(ana.by("team-0")).to_contain_text(f"Ana e {bot_2}")
    await expect(bia.by("team-1")).to_contain_text("Bia e")
    await expect(bia.by("move-seat-1")).to_have_count(0)  # only the creator moves players
    await ana.shot("teams-1-lobby")

    before = await ana.acks()
    await ana.by("move-seat-1").select_option("2")  # Bia goes opposite Ana
    await ana.wait_ack(before)
    await expect(ana.by("team-0")).to_contain_text("Ana e Bia")
    await expect(bia.by("team-0")).to_contain_text("Ana e Bia")
    await expect(bia.by("seat-2")).to_contain_text("Bia")
    await expect(bia.by("seat-2").get_by_test_id("seat-team-2")).to_contain_text("Dupla 1")
    await expect(ana.by("team-1")).to_contain_text(bot_2)
    await ana.shot("teams-2-moved")

    await ana.start()
    await expect(bia.by("hand")).to_be_visible()
    await expect(ana.by("opponent-2")).to_contain_text("Bia")
