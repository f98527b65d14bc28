"""The game as an installed app (docs/client.md): its manifest linked and valid, its service worker
keeping the client's files and answering "Sem conexão" when the device is offline."""

from __future__ import annotations

import struct

import aiohttp
import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk, always first
    return width, height


async def test_the_manifest_is_linked_and_names_the_game_with_its_icons(players: Players, gateway_url: str) -> None:
    ana = await players.open("Ana", phone=True)
    await ana.page.goto("/")
    href = await ana.page.locator('link[rel="manifest"]').get_attribute("href")
    assert href
    async with aiohttp.ClientSession() as http:
        async with http.get(gateway_url + href) as r:
            assert r.headers["Content-Type"].startswith("application/manifest+json")
            manifest = await r.json(content_type=None)
        assert manifest["name"] == "Mau-Mau Online"
        assert manifest["lang"] == "pt-BR"
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        sizes = set()
        for icon in (i for i in manifest["icons"] if i["type"] == "image/png"):
            async with http.get(gateway_url + icon["src"]) as r:
                size = png_size(await r.read())
            assert icon["sizes"] == f"{size[0]}x{size[1]}"
            sizes.add(size)
        assert {(192, 192), (512, 512)} <= sizes  # what browsers ask of an installable app


async def test_offline_the_service_worker_shows_sem_conexao(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    await ana.page.goto("/")
    await expect(ana.by("name-input")).to_be_visible()
    await ana.page.evaluate("() => navigator.serviceWorker.ready")
    await ana.page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # clients.claim()
    await ana.context.set_offline(True)
    await ana.page.reload()
    await expect(ana.by("offline-page")).to_be_visible()
    await expect(ana.page.get_by_role("heading", level=1)).to_have_text("Sem conexão")
    # the styles came from the worker's cache: the page is drawn, not bare text
    assert await ana.page.evaluate("() => document.styleSheets.length") >= 2
    await ana.shot("offline-phone", full_page=False)

    await ana.context.set_offline(False)
    await ana.by("offline-retry").click()  # "Tentar de novo": back to the game
    await expect(ana.by("name-input")).to_be_visible()
