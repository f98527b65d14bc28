"""Accounts in the web client: a guest who plays makes an account and finds its seat on another device.

Names are unique across the platform the e2e tests share, so each test's names carry a suffix
of their own. The refusals a form shows come with a 4xx answer, which Chromium logs as a
failed resource: those answers alone are allowed in the console.
"""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")

PASSWORD = "baralho-de-32"
REFUSED = (r"status of 40[0139]",)  # the forms' refusals: bad credentials, a taken name, a weak password


async def fill_account(player: Player, name: str, password: str) -> None:
    await player.by("account-name").fill(name)
    await player.by("account-password").fill(password)
    await player.by("account-submit").click()


async def test_a_guest_keeps_its_seat_in_an_account_and_finds_it_on_another_device(players: Players) -> None:
    name = f"Rita {secrets.token_hex(3)}"
    rita = await players.open(name, allowed_console=REFUSED)
    await rita.host("classic32", seats=2)  # a guest at a table under way, seat 0
    table_id = rita.table_id
    await expect(rita.by("account-tools").get_by_role("button", name="Entrar")).to_be_visible()

    await (await rita.header("btn-register")).click()
    await expect(rita.by("account-dialog")).to_be_visible()
    await expect(rita.page.locator("#account-name")).to_have_value(name)  # the guest's name, offered
    await expect(rita.by("account-dialog")).to_contain_text("As mesas em que")
    await rita.page.locator("#account-password").fill("curta")
    await rita.by("account-submit").click()  # checked before asking the gateway
    await expect(rita.by("account-error")).to_have_text("A senha precisa ter de 8 a 256 caracteres")
    await expect(rita.page.locator("#account-password")).to_be_focused()
    await rita.page.locator("#account-password").fill("12345678")
    await rita.by("account-submit").click()  # how easy it is to guess, only the accounts service tells
    await expect(rita.by("account-error")).to_have_text(
        "Senha fácil de adivinhar: junte três ou quatro palavras que não costumam andar juntas")
    await expect(rita.page.locator("#account-password")).to_be_focused()
    await rita.page.locator("#account-password").fill(PASSWORD)
    await rita.by("account-submit").click()
    await expect(rita.by("account-dialog")).to_have_count(0)
    await expect(rita.by("account-tools").get_by_test_id("account-user")).to_have_text(name)
    await expect(rita.by("btn-logout")).to_have_text("Sair")
    await expect(rita.by("hand")).to_be_visible()  # the same seat, now the account's
    assert await rita.cached_seat() == 0
    await rita.shot("accounts-1-created")

    # another device: a taken name is refused, a wrong password too, then the account signs in
    phone = await players.open(f"{name} (celular)", phone=True, allowed_console=REFUSED)
    await phone.page.goto("/")
    await expect(phone.by("btn-login")).to_be_visible()
    await expect(phone.by("btn-register")).to_have_text("Criar conta")
    await (await phone.header("btn-register")).click()
    await fill_account(phone, name.upper(), PASSWORD)
    await expect(phone.by("account-error")).to_have_text("Esse nome já é de outra pessoa: escolha outro")
    await phone.by("account-switch").click()
    await expect(phone.by("account-form-login")).to_be_visible()
    await fill_account(phone, name, "not-the-password")
    await expect(phone.by("account-error")).to_have_text("Nome ou senha errados")
    await phone.shot("accounts-2-refused")
    await fill_account(phone, name, PASSWORD)
    await expect(phone.by("account-dialog")).to_have_count(0)
    await expect(phone.by("toasts")).to_contain_text(f"Você entrou como {name}")
    await expect(phone.by("account-tools").get_by_test_id("account-user")).to_have_text(name)
    await expect(phone.page.get_by_role("heading", name=f"Olá, {name}!")).to_be_visible()
    mine = phone.by(f"my-table-{table_id}")
    await expect(mine).to_contain_text("Em jogo")
    await phone.shot("accounts-3-signed-in-phone")
    await mine.get_by_role("link").click()
    await expect(phone.page).to_have_url(re.compile(f"/m/{table_id}$"))
    await expect(phone.by("hand").locator(".hand-card")).not_to_have_count(0)  # a seat, not a spectator's view
    assert await phone.cached_seat() == 0
    assert await phone.page.evaluate("() => localStorage.getItem('mm.token')") is None  # no guest made here

    # signing out: the header offers the ways in again, and this device is nobody
    await (await phone.header("btn-logout")).click()
    await expect(phone.by("btn-login")).to_have_text("Entrar")
    await expect(phone.by("account-tools").get_by_test_id("account-user")).to_have_count(0)
    await expect(phone.by("name-form")).to_be_visible()
    assert await phone.page.evaluate("() => fetch('/api/me').then((r) => r.status)") == 401
    players.assert_no_console_errors()


async def test_a_guest_is_offered_an_account_when_its_match_ends(players: Players) -> None:
    name = f"Tiago {secrets.token_hex(3)}"
    tiago = await players.open(name)
    await tiago.host("classic32", seats=2)
    await tiago.by("btn-giveup").click()
    await tiago.click_command(tiago.by("btn-giveup-confirm"))
    offer = tiago.by("account-offer")
    await expect(offer).to_be_visible()
    await tiago.shot("accounts-4-offer")
    await offer.get_by_role("button").click()
    await expect(tiago.by("account-form-register")).to_be_visible()
    await tiago.page.locator("#account-password").fill(PASSWORD)
    await tiago.by("account-submit").click()
    await expect(tiago.by("toasts")).to_contain_text("Conta criada")
    await expect(tiago.by("account-offer")).to_have_count(0)  # an account is not asked again
    await expect(tiago.by("account-tools").get_by_test_id("account-user")).to_have_text(name)

    # a reload asks the gateway, which knows the account by its cookie alone
    await tiago.page.reload()
    await expect(tiago.by("account-tools").get_by_test_id("account-user")).to_have_text(name)
    other_tab = await tiago.context.new_page()
    await other_tab.goto("/")
    await expect(other_tab.get_by_test_id("account-user")).to_have_text(name)
    await (await tiago.header("btn-logout")).click()
    await expect(tiago.by("btn-login")).to_have_text("Entrar")
    await expect(other_tab.get_by_test_id("btn-login")).to_have_text("Entrar")  # the cookie is the browser's
    await expect(tiago.by("account-offer")).to_be_visible()  # a guest again: this device's own
    players.assert_no_console_errors()


async def test_a_session_ended_elsewhere_returns_the_page_to_the_ways_in(players: Players) -> None:
    name = f"Caio {secrets.token_hex(3)}"
    gone = (r"status of 401",)  # GET /api/me, asked once the session is over
    caio = await players.open(name, allowed_console=gone)
    await caio.page.goto("/")
    await (await caio.header("btn-register")).click()  # from nothing: no guest on this device
    await fill_account(caio, name, PASSWORD)
    await expect(caio.by("account-user")).to_have_text(name)
    await caio.create_table("classic32", seats=2)

    elsewhere = await players.open(f"{name} (outro)", allowed_console=gone)  # its own socket's session ends too
    await elsewhere.page.goto("/")
    await elsewhere.by("btn-login").click()
    await fill_account(elsewhere, name, PASSWORD)
    await expect(elsewhere.by("account-user")).to_have_text(name)
    everywhere = await elsewhere.page.evaluate(
        "() => fetch('/api/logout?everywhere=1', {method: 'POST'}).then((r) => r.status)")
    assert everywhere == 200  # the client offers no such button yet: the API does it

    # the gateway closes the ended session's socket by itself: the page asks who it is, then says so
    await expect(caio.by("btn-login")).to_have_text("Entrar")
    await expect(caio.by("toasts")).to_contain_text("Sua sessão terminou")
    await expect(caio.by("name-form")).to_be_visible()
    await expect(elsewhere.by("btn-login")).to_have_text("Entrar")
    players.assert_no_console_errors()
