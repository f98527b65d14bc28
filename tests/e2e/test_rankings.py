"""The rankings and the profiles in the web client, over the real SQL projector.

* Two accounts finish an OFICIAL match (one gives up: the quickest end): both see the ranking
  move (the winner at position 1 under OFICIAL / Hoje), the loser's profile shows the match
  (the opponent, the result, how it ended, a link to its table); one's own profile picks an
  avatar, which the header and the ranking then show.
* A guest's training match (a bot seated: 🤖 TREINO) ends with a gentle offer of an account,
  which "Agora não" puts away.

Names are unique across the platform the e2e tests share, so each test's names carry a suffix
of their own; the ranking is shared too, so a row is looked for by its name (equal win counts
share a position: a winner with one win is first whoever else has one).
"""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import STEP_TIMEOUT_MS, Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

PASSWORD = "baralho-de-32"


async def register(player: Player) -> None:
    """From an empty device: Criar conta, name and password, signed in."""
    await player.page.goto("/")
    await (await player.header("btn-register")).click()
    await player.by("account-name").fill(player.name)
    await player.by("account-password").fill(PASSWORD)
    await player.by("account-submit").click()
    await expect(player.by("account-user")).to_have_text(player.name)


async def fits(player: Player, screen: str) -> None:
    widths = await player.page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"{screen} is {widths[0]} px wide in a {widths[1]} px screen"


async def ranking_row_until(player: Player, name: str, *, avatar: str | None = None) -> None:
    """The ranking shown lists ``name`` (with ``avatar``), loaded again until the projection has it."""
    row = player.by("ranking-row").filter(has=player.page.get_by_role("link", name=name, exact=True))

    async def shown() -> bool:
        await expect(player.by("ranking-page").locator("[data-testid=ranking-rows], [data-testid=ranking-empty]")
                     ).to_be_visible()
        if await row.count() != 1:
            return False
        return avatar is None or await row.locator(".avatar").get_attribute("data-avatar") == avatar

    await player.reload_until(shown, f"{name} in the ranking")


async def test_an_official_match_moves_the_ranking_and_shows_in_the_profiles(players: Players) -> None:
    tag = secrets.token_hex(3)
    vera = await players.open(f"Vera {tag}")
    davi = await players.open(f"Davi {tag}", phone=True)
    await register(vera)
    await register(davi)

    # before: the ranking, from the header on a phone (OFICIAL and Hoje unless asked otherwise)
    await (await davi.header("ranking-link")).click()
    await expect(davi.page).to_have_url(re.compile(r"/ranking\?regra=classic32&modo=oficial&periodo=hoje$"))
    await expect(davi.by("ranking-page").get_by_role("heading", name="Ranking", exact=True)).to_be_visible()
    await expect(davi.by("ranking-category-official")).to_have_attribute("aria-current", "page")
    await expect(davi.by("ranking-category-official")).to_have_text("👥 OFICIAL")
    await expect(davi.by("ranking-category-training")).to_have_text("🤖 TREINO")
    await expect(davi.by("ranking-period")).to_have_text(re.compile("Hoje.*Semana.*Mês.*Temporada.*Histórico"))
    await expect(davi.by("ranking-period-today")).to_have_attribute("aria-current", "page")
    await expect(davi.by("ranking-caption")).to_contain_text("Clássico 32")
    await expect(davi.by("ranking-rows").or_(davi.by("ranking-empty"))).to_be_visible()
    await expect(davi.page.get_by_role("link", name=vera.name, exact=True)).to_have_count(0)
    await davi.shot("rankings-1-before-phone")
    await fits(davi, "the ranking")

    # an official match: people only
    await vera.page.goto("/")
    link = await vera.create_table("classic32", seats=2)
    await expect(vera.by("table-category")).to_have_text("👥 OFICIAL")
    await davi.page.goto(link)
    await davi.by("btn-join").click()
    await expect(davi.by("seat-1")).to_contain_text(davi.name)
    await vera.start()
    table_id = vera.table_id
    await expect(davi.by("hand")).to_be_visible()
    await expect(davi.by("table-category")).to_have_text("👥 OFICIAL")
    await davi.by("btn-giveup").click()
    await davi.click_command(davi.by("btn-giveup-confirm"))
    await expect(vera.by("match-winner")).to_contain_text("Você venceu")
    await expect(davi.by("round-review")).to_be_visible()
    await expect(davi.by("account-offer")).to_have_count(0)  # accounts are not asked

    # the winner's own profile: the header's "Meu perfil"; an avatar chosen
    await vera.page.get_by_role("link", name=f"Meu perfil ({vera.name})").click()
    await expect(vera.page).to_have_url(re.compile(r"/jogador/Vera%20" + tag + "$"))
    await expect(vera.by("profile-name-title")).to_have_text(vera.name)
    await expect(vera.by("profile-head")).to_contain_text("Meu perfil")
    await expect(vera.by("avatar-picker").locator("input[type=radio]")).to_have_count(12)
    await vera.by("avatar-coroa").click()
    await expect(vera.by("toasts")).to_contain_text("Avatar salvo")
    await expect(vera.by("profile-link").locator(".avatar")).to_have_attribute("data-avatar", "coroa")
    await expect(vera.by("avatar-coroa")).to_have_class(re.compile(r"\bselected\b"))

    # the ranking moved: the winner first under OFICIAL / Hoje, with the avatar chosen, for both
    await (await vera.header("ranking-link")).click()
    await ranking_row_until(vera, vera.name, avatar="coroa")
    row = vera.by("ranking-row").filter(has=vera.page.get_by_role("link", name=vera.name, exact=True))
    await expect(row.get_by_test_id("ranking-position")).to_have_text("1º")
    await expect(row.get_by_test_id("ranking-wins")).to_have_text("1 vitória")
    await expect(row.locator(".tag-me")).to_have_text("você")
    await expect(vera.page).to_have_title("Ranking · Mau-Mau Online")
    await vera.shot("rankings-2-after-desktop")
    await vera.by("ranking-category-training").click()  # the same period's TREINO: not this match
    await expect(vera.page).to_have_url(re.compile(r"modo=treino&periodo=hoje$"))
    await expect(vera.page.get_by_role("link", name=vera.name, exact=True)).to_have_count(0)

    await davi.page.goto("/ranking")
    await ranking_row_until(davi, vera.name)
    row = davi.by("ranking-row").filter(has=davi.page.get_by_role("link", name=vera.name, exact=True))
    await expect(row.get_by_test_id("ranking-position")).to_have_text("1º")
    await expect(davi.page.get_by_role("link", name=davi.name, exact=True)).to_have_count(0)  # no win, no row
    await davi.shot("rankings-3-after-phone")

    # the winner's profile, from the ranking: its statistics
    await row.get_by_role("link").click()
    await expect(davi.by("profile-name-title")).to_have_text(vera.name)
    stats = davi.by("stats-classic32-official")
    await expect(stats.get_by_test_id("stats-played")).to_have_text("1")
    await expect(stats.get_by_test_id("stats-wins")).to_have_text("1")
    await expect(stats.get_by_test_id("stats-rate")).to_have_text(re.compile(r"100\s?%"))
    await expect(davi.by("profile-settings")).to_have_count(0)  # someone else's profile
    await expect(davi.page).to_have_title(f"{vera.name} · Mau-Mau Online")

    # the loser's own profile shows the match, how it ended, and leads to its table
    await davi.by("profile-link").click()
    await expect(davi.by("profile-name-title")).to_have_text(davi.name)
    await expect(davi.by("profile-settings")).to_be_visible()
    stats = davi.by("stats-classic32-official")
    await expect(stats.get_by_test_id("stats-played")).to_have_text("1")
    await expect(stats.get_by_test_id("stats-wins")).to_have_text("0")
    await expect(stats).to_contain_text("👥 OFICIAL")
    match = davi.by(f"history-{table_id}-1")
    await expect(match.get_by_test_id("history-result")).to_have_text("Derrota")
    await expect(match.get_by_test_id("history-opponents")).to_have_text(f"contra {vera.name}")
    await expect(match.get_by_test_id("history-end")).to_have_text("desistiu")
    await fits(davi, "the profile")
    await davi.shot("rankings-4-own-profile-phone")
    await expect(match.get_by_test_id("history-replay")).to_have_attribute("href", f"/m/{table_id}/rever?partida=1")
    await match.locator("a.history-link").click()  # the table (beside it, "Rever partida")
    await expect(davi.page).to_have_url(re.compile(f"/m/{table_id}$"))
    await expect(davi.by("round-review")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    await expect(davi.page).to_have_title("Mau-Mau Online")

    # the pages have addresses: a reload of a profile and of a ranking shows them again, in English too
    await vera.page.goto(f"/jogador/{vera.name.upper()}")
    await expect(vera.by("profile-name-title")).to_have_text(vera.name)  # the name as its account spells it
    await (await vera.header("btn-lang")).click()
    await expect(vera.by("profile-stats")).to_contain_text("Win rate")
    await expect(vera.by("stats-classic32-official")).to_contain_text("👥 OFFICIAL")
    await vera.shot("rankings-7-own-profile-desktop-en")
    await vera.page.goto("/ranking?regra=classic32&modo=oficial&periodo=historico")
    await expect(vera.by("ranking-period-all")).to_have_text("All time")
    await expect(vera.by("ranking-period-all")).to_have_attribute("aria-current", "page")
    await (await vera.header("btn-lang")).click()
    await expect(vera.by("ranking-period-all")).to_have_text("Histórico")
    players.assert_no_console_errors()


async def test_a_guest_training_match_offers_an_account_that_can_wait(players: Players) -> None:
    name = f"Lia {secrets.token_hex(3)}"
    lia = await players.open(name, phone=True)
    await lia.host("classic32", seats=2)
    await expect(lia.by("table-category")).to_have_text("🤖 TREINO")  # a bot is seated
    await lia.by("btn-giveup").click()
    await lia.click_command(lia.by("btn-giveup-confirm"))
    offer = lia.by("account-offer")
    await expect(offer).to_be_visible()
    await expect(offer).to_contain_text("Crie uma conta")
    await lia.shot("rankings-5-offer-phone")
    await fits(lia, "the table")
    await expect(lia.by("btn-offer-later")).to_have_text("Agora não")
    await lia.by("btn-offer-later").click()
    await expect(lia.by("account-offer")).to_have_count(0)
    await lia.page.reload()  # put away on this device, not only on this page
    await expect(lia.by("round-review")).to_be_visible()
    await expect(lia.by("account-offer")).to_have_count(0)

    # a guest is not ranked: the ranking says so and offers the account
    await (await lia.header("ranking-link")).click()
    await expect(lia.by("ranking-accounts-only")).to_contain_text("Só quem tem conta entra no ranking")
    await expect(lia.by("ranking-accounts-only").get_by_role("button", name="Criar conta")).to_be_visible()
    players.assert_no_console_errors()


async def test_ones_own_profile_changes_the_password_and_the_name_and_signs_out_everywhere(players: Players) -> None:
    tag = secrets.token_hex(3)
    # a wrong current password; the ended session's GET /api/me; and a 404 of GET /api/players/<name>
    # when the projection has not reached the account just made or renamed (the page asks again)
    refused = (r"status of 401", r"status of 404")
    nico = await players.open(f"Nico {tag}", allowed_console=refused)
    await register(nico)
    await nico.by("profile-link").click()
    await expect(nico.by("profile-name-title")).to_have_text(nico.name)
    await expect(nico.by("profile-stats")).to_contain_text("Nenhuma partida terminada ainda.")
    await expect(nico.by("profile-history")).to_contain_text("Nenhuma partida ainda.")
    await expect(nico.by("profile-since")).to_contain_text("Joga desde")

    # the avatar, by the keyboard too: the arrows walk the set, the last one is kept
    await nico.by("avatar-sapo").click()
    await expect(nico.by("profile-link").locator(".avatar")).to_have_attribute("data-avatar", "sapo")
    await expect(nico.by("avatar-sapo").locator("input")).to_be_focused()
    await nico.page.keyboard.press("ArrowRight")
    await nico.page.keyboard.press("ArrowRight")
    await expect(nico.by("profile-link").locator(".avatar")).to_have_attribute("data-avatar", "lua")
    await expect(nico.by("avatar-lua")).to_have_class(re.compile(r"\bselected\b"))
    assert await nico.page.evaluate("() => fetch('/api/me').then((r) => r.json()).then((me) => me.avatar)") == "lua"

    # the password: the current one is asked, the new one checked before asking
    await nico.by("profile-old-password").fill("not-the-password")
    await nico.by("profile-new-password").fill("outra-senha-boa")
    await nico.by("profile-password-save").click()
    await expect(nico.by("toasts")).to_contain_text("A senha atual está errada")
    await nico.by("profile-old-password").fill(PASSWORD)
    await nico.by("profile-new-password").fill("curta")
    await nico.by("profile-password-save").click()
    await expect(nico.by("toasts")).to_contain_text("A senha precisa ter de 8 a 256 caracteres")
    await expect(nico.by("profile-new-password")).to_be_focused()
    await nico.by("profile-new-password").fill("outra-senha-boa")
    await nico.by("profile-password-save").click()
    await expect(nico.by("toasts")).to_contain_text("Senha trocada")
    await expect(nico.by("profile-old-password")).to_have_value("")

    # the new password signs in elsewhere
    other = await players.open(f"{nico.name} (outro)", allowed_console=refused)
    await other.page.goto("/")
    await other.by("btn-login").click()
    await other.by("account-name").fill(nico.name)
    await other.by("account-password").fill("outra-senha-boa")
    await other.by("account-submit").click()
    await expect(other.by("account-user")).to_have_text(nico.name)

    # a new name: the profile's address follows, and the header
    renamed = f"Nicolau {tag}"
    await nico.by("profile-name").fill(renamed)
    await nico.by("profile-rename-save").click()
    await expect(nico.by("toasts")).to_contain_text(f"Agora você é {renamed}")
    await expect(nico.page).to_have_url(re.compile(r"/jogador/Nicolau%20" + tag + "$"))
    await expect(nico.by("profile-name-title")).to_have_text(renamed)
    await expect(nico.by("account-user")).to_have_text(renamed)
    await nico.shot("rankings-6-renamed")

    # signing out on every device: this one shows the ways in; the other's session is gone too
    await nico.by("btn-logout-everywhere").click()
    await expect(nico.by("btn-login")).to_have_text("Entrar")
    await expect(nico.by("toasts")).to_contain_text("Você saiu da conta em todos os aparelhos")
    assert await other.page.evaluate("() => fetch('/api/me').then((r) => r.status)") == 401
    players.assert_no_console_errors()
