"""End-to-end fixtures: the whole platform as ``make run`` starts it, and a real headless Chromium.

* ``gateway_url``: the client built (``make client``: again if a source changed), then every process of
  ``maumau up`` (embedded NATS and SQLite in a temporary directory, bots thinking 0.2 s, a stand-in
  after 6 s away) started once for the e2e tests, stopped after them.
  ``MAUMAU_E2E_VERBOSE=1`` shows the services' INFO logs in a failing test's output.
* ``browser``: Debian's ``/usr/bin/chromium`` (``make browser`` installs it), driven by
  Playwright; no browser is ever downloaded.
* ``players``: opens one browser context (one device, one person) per call; after the test,
  every page must have logged no console error and thrown nothing.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

playwright_api = pytest.importorskip("playwright.async_api")

from playwright.async_api import Browser, async_playwright  # noqa: E402

from services.runtime.supervisor import running_platform  # noqa: E402
from tests.e2e.ui import DESKTOP, INSTRUMENT, PHONE, Player  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
# a seat away at a timed table is played for after 6 s, not a minute (test_presence.py waits for it)
PLATFORM_ENV = {"MAUMAU_BOT_THINK_SECONDS": "0.2", "MAUMAU_BOT_BUDGET_MS": "20", "MAUMAU_STANDIN_SECONDS": "6"}
PLATFORM_UNSET = ("NATS_URL", "DATABASE_URL", "MAUMAU_GATEWAY_PORT")
ADDRESSES: dict[str, str] = {}  # the running platform's (nats_url, …): for tools a test runs, e.g. `maumau staff`


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def gateway_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    # the pages are the client's build (docs/client.md): never a build older than its sources
    subprocess.run(["make", "-s", "client"], cwd=ROOT, check=True)
    async with contextlib.AsyncExitStack() as stack:
        saved = {k: os.environ.get(k) for k in (*PLATFORM_ENV, *PLATFORM_UNSET)}
        os.environ.update(PLATFORM_ENV)
        for k in PLATFORM_UNSET:
            os.environ.pop(k, None)
        try:  # the children take the environment when they start; the other tests keep theirs
            addresses, _ = await stack.enter_async_context(running_platform(
                tmp_path_factory.mktemp("e2e-platform"), quiet=os.environ.get("MAUMAU_E2E_VERBOSE") != "1"))
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        ADDRESSES.update(addresses)
        yield addresses["gateway_url"]


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        await b.close()


class Players:
    """Opens people: each a fresh browser context (its own localStorage, so its own device token)."""

    def __init__(self, browser: Browser, base_url: str):
        self.browser = browser
        self.base_url = base_url
        self.made: list[Player] = []

    async def open(self, name: str, *, phone: bool = False, allowed_console: tuple[str, ...] = (),
                   **context_args: Any) -> Player:
        args: dict[str, Any] = {"viewport": PHONE if phone else DESKTOP, "locale": "pt-BR", "base_url": self.base_url}
        if phone:
            args.update(is_mobile=True, has_touch=True, device_scale_factor=2)
        args.update(context_args)
        context = await self.browser.new_context(**args)
        context.set_default_timeout(15_000)
        await context.add_init_script(INSTRUMENT)
        page = await context.new_page()
        player = Player(name, context, page, allowed_console)
        player.watch_console()
        self.made.append(player)
        return player

    def console_errors(self) -> list[str]:
        """Every console error and uncaught exception of every page so far, with the failed requests."""
        errors = [e for p in self.made for e in p.console_errors]
        if errors:
            errors += [e for p in self.made for e in p.http_errors]
        return errors

    def assert_no_console_errors(self) -> None:
        errors = self.console_errors()
        for p in self.made:  # reported here: not again after the test
            p.console_errors.clear()
        assert errors == [], "console errors:\n" + "\n".join(errors)

    async def close(self) -> None:
        for p in self.made:
            with contextlib.suppress(Exception):
                await p.context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def players(browser: Browser, gateway_url: str) -> AsyncIterator[Players]:
    made = Players(browser, gateway_url)
    try:
        yield made
    finally:
        await made.close()
    made.assert_no_console_errors()
