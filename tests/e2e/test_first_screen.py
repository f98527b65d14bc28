"""The lobby's first screen, on a phone that never saw the game: at most 150 KB over the network
(issue 27's floor; the sounds, the table and the other screens come later, when asked)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Response, expect

from tests.e2e.conftest import Players

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIRST_SCREEN_BYTES = 150 * 1024


async def test_the_lobbys_first_screen_is_at_most_150_kb(players: Players) -> None:
    ana = await players.open("Ana", phone=True)
    responses: list[Response] = []
    ana.page.on("response", lambda r: responses.append(r))
    await ana.page.goto("/", wait_until="networkidle")
    await expect(ana.by("name-input")).to_be_visible()
    sizes = [await r.request.sizes() for r in responses]
    sent = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes)  # as sent: compressed
    print(f"the lobby's first screen: {sent / 1024:.1f} KB in {len(responses)} responses")
    assert not any("/zzfx" in r.url for r in responses)  # the sounds wait for the first gesture
    each = [(r.url, s["responseBodySize"]) for r, s in zip(responses, sizes, strict=True)]
    assert 0 < sent <= FIRST_SCREEN_BYTES, each


async def test_an_invitations_first_screen_asks_only_the_shells_scripts_before_the_name_form(players: Players) -> None:
    """A stranger opening an invitation sees the name form as soon as a lobby would: the table screen's
    code is fetched behind it (issue 27's LCP floor, measured on this page)."""
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    link = await ana.create_table("classic32", seats=4)

    bruno = await players.open("Bruno", phone=True)
    await bruno.page.add_init_script("""new MutationObserver((_, o) => {
        if (document.querySelector('[data-testid="name-form"]')) {
          window.nameFormAt = performance.now();
          o.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });""")
    shell = await (await bruno.page.request.get("/")).text()
    own = set(re.findall(r'/static/dist/([^"]+\.js)', shell))
    await bruno.page.goto(link, wait_until="networkidle")
    await expect(bruno.by("name-form")).to_contain_text("Para entrar na mesa, diga seu nome.")
    scripts = await bruno.page.evaluate("""() => performance.getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js')).map((e) => [e.name.split('/').pop(), e.startTime])""")
    shown = await bruno.page.evaluate("() => window.nameFormAt")
    before = {name for name, start in scripts if start < shown}
    after = {name for name, start in scripts if start >= shown}
    assert before <= own, before - own
    assert after, "the table screen's code was not fetched behind the name form"  # the seat is one tap away

    await bruno.enter()
    await expect(bruno.by("join-offer")).to_be_visible()
