"""A person at the web client, driven through a real Chromium: what they see (``data-testid``s) and do.

The page is instrumented by one init script (``INSTRUMENT``) that only *watches* the tab's
WebSockets: it counts the frames the client has handled (acks, the last ``seq`` of each
table) so that a step can wait for the answer to its click instead of sleeping, and it keeps
the sockets so a test can drop them. Nothing the client does goes through it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, ConsoleMessage, Locator, Page, Response, expect
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from services.runtime.backoff import pauses

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".data" / "e2e-screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STEP_TIMEOUT_MS = 15_000  # one step of a person: a click answered, a screen shown
TURN_TIMEOUT_MS = 30_000  # the bots' turns between two of ours
# The projector runs at a lower CPU priority (services/runtime/supervisor.py): on two cores crowded by
# three browsers it writes a row seconds after its event, and a page loaded again every half second
# crowds it more; so the reloads space out and the wait is long.
PROJECTED_S = 60

# Runs before the client's own scripts in every page of a context. The listener is added in
# the constructor, before the client's `onmessage`; it records on a later task, so when a
# count moves the client has handled the frame, rendered, and settled its command's promise.
INSTRUMENT = """
(() => {
  const Native = window.WebSocket;
  const mm = window.__e2e = { sockets: [], acks: [], seqs: {}, frames: [], chat: [], welcomes: [] };
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      mm.sockets.push(this);
      this.addEventListener('message', (msg) => {
        let f;
        try { f = JSON.parse(msg.data); } catch { return; }
        setTimeout(() => {
          if (f.type === 'ack') mm.acks.push(f);
          else if (f.type === 'state' || f.type === 'events') {
            mm.seqs[f.table] = Math.max(mm.seqs[f.table] || 0, f.seq);
            mm.frames.push({ type: f.type, table: f.table, seq: f.seq, view: f.view, events: f.events || [],
                             my_seat: f.table_info && f.table_info.my_seat });
          } else if (f.type === 'chat') mm.chat.push(f);
          else if (f.type === 'welcome') mm.welcomes.push(f);
        }, 0);
      });
    }
  }
  window.WebSocket = Watched;
})();
"""

# What the table screen offers right now, read in one go (the DOM re-renders on every frame).
SNAPSHOT = """
() => {
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const on = (id) => { const b = q(id); return !!b && !b.disabled; };
  const cards = [...document.querySelectorAll('[data-testid="hand"] .hand-card')];
  const chooser = q('suit-chooser') || q('color-chooser');
  return {
    review: !!q('round-review') || !!q('btn-review-show'),
    chooser: chooser ? [...chooser.querySelectorAll('.choose-btn')].map((b) => b.dataset.testid) : [],
    chooserTitle: chooser ? (chooser.querySelector('h3')?.textContent || '') : '',
    hand: cards.map((c) => c.dataset.card),
    playable: cards.filter((c) => c.classList.contains('playable')).map((c) => c.dataset.card),
    draw: on('btn-draw'), pass: on('btn-pass'), mau: on('btn-mau'),
    mauPressed: q('btn-mau')?.getAttribute('aria-pressed') === 'true',
    turn: q('turn-indicator')?.textContent || '',
    top: q('pile-top')?.dataset.card || '',
    follow: q('follow')?.dataset.follow || '',
  };
}
"""

# Something for the player to do (or the round is over).
ACTIONABLE = """
() => {
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const on = (id) => { const b = q(id); return !!b && !b.disabled; };
  return !!(q('round-review') || q('btn-review-show') || q('suit-chooser') || q('color-chooser')
    || document.querySelector('[data-testid="hand"] .hand-card.playable') || on('btn-draw') || on('btn-pass'));
}
"""

Move = tuple[str, str]  # ("card", "JH") ("draw", "") ("pass", "") ("mau", "") ("choose", "suit-H")
Policy = Callable[[dict[str, Any]], Move | None]

WILDS = re.compile(r"^(J[CDHS]|W|W\+4)$")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two of the page's boxes (``getBoundingClientRect``'s left, right, top, bottom) share some area."""
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def shed_first(s: dict[str, Any]) -> Move | None:
    """Finish rounds: choose the first suit offered, say the call when offered, play, else draw, else pass."""
    if s["chooser"]:
        return ("choose", s["chooser"][0])
    if s["playable"]:
        if s["mau"] and not s["mauPressed"]:
            return ("mau", "")
        plain = [c for c in s["playable"] if not WILDS.match(c)]
        return ("card", (plain or s["playable"])[0])
    if s["draw"]:
        return ("draw", "")
    if s["pass"]:
        return ("pass", "")
    return None


@dataclass
class Player:
    """One browser context (its own device token) with one page."""

    name: str
    context: BrowserContext
    page: Page
    allowed_console: tuple[str, ...] = ()
    console_errors: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    refusals: list[dict[str, Any]] = field(default_factory=list)
    moves: int = 0

    def watch_console(self) -> None:
        def on_console(msg: ConsoleMessage) -> None:
            if msg.type == "error" and not any(re.search(p, msg.text) for p in self.allowed_console):
                self.console_errors.append(f"{self.name} {self.page.url}: console.error: {msg.text}")

        def on_error(err: Exception) -> None:
            self.console_errors.append(f"{self.name} {self.page.url}: uncaught: {err}")

        def on_response(response: Response) -> None:
            if response.status >= 400:  # the console says "Failed to load resource"; this says which
                self.http_errors.append(f"{self.name}: {response.request.method} {response.url} -> {response.status}")

        self.page.on("console", on_console)
        self.page.on("pageerror", on_error)
        self.page.on("response", on_response)

    def by(self, testid: str) -> Locator:
        return self.page.get_by_test_id(testid)

    # -- screens --------------------------------------------------------------------------

    async def enter(self, name: str | None = None) -> None:
        """Give a name on the first screen (home or a table's link) and wait for what follows."""
        await expect(self.by("name-input")).to_be_visible()
        await self.by("name-input").fill(name or self.name)
        await self.by("btn-name").click()
        await expect(self.by("name-form")).to_have_count(0)

    async def header(self, testid: str) -> Locator:
        """A tool of the top bar: on a phone the less used ones are behind its menu (☰), opened first."""
        item = self.by(testid)
        await expect(self.by("btn-help")).to_be_visible()  # the bar is drawn (its "?" is never folded)
        if not await item.is_visible() and await self.by("btn-more").is_visible():
            await self.by("btn-more").click()
            await expect(item).to_be_visible()
        return item

    async def open_house_rules(self) -> None:
        """The create form's options, folded behind "Regras da casa": opened (once)."""
        rules = self.by("house-rules")
        if await rules.get_attribute("open") is None:
            await self.by("house-rules-toggle").click()
        await expect(rules).to_have_attribute("open", "")

    async def create_table(self, ruleset: str = "classic32", seats: int = 2, target_points: int | None = None) -> str:
        """From the home screen: choose the ruleset, the seats (and the goal), create; returns the link shown."""
        await self.by(f"ruleset-{ruleset}").click()
        await expect(self.by(f"ruleset-{ruleset}").locator("input")).to_be_checked()
        await self.by("opt-seats").select_option(str(seats))
        if target_points is not None:
            await self.open_house_rules()
            await self.by("opt-target_points").fill(str(target_points))
        await self.by("btn-create").click()
        link = self.by("invite-link")
        await expect(link).to_have_value(re.compile(r"/m/[A-Za-z0-9-]+\?c=."))
        await expect(self.by("seat-0")).to_contain_text(self.name)
        return await link.input_value()

    @property
    def table_id(self) -> str:
        m = re.search(r"/m/([A-Za-z0-9-]+)", self.page.url)
        assert m, f"{self.name} is not at a table: {self.page.url}"
        return m.group(1)

    async def fill_bots(self, seats: int, level: str = "") -> None:
        if level:
            await self.by("bot-level").select_option(level)
        await self.by("btn-bots").click()
        await expect(self.by("seats").locator(".seat-empty")).to_have_count(0)
        await expect(self.by(f"seat-{seats - 1}").locator(".tag-bot")).to_be_visible()
        await expect(self.by("btn-bots")).to_be_disabled()

    async def start(self) -> None:
        await self.by("btn-start").click()
        await expect(self.by("hand")).to_be_visible(timeout=STEP_TIMEOUT_MS)

    async def host(self, ruleset: str = "classic32", seats: int = 2, *, level: str = "",
                   target_points: int | None = None) -> str:
        """Home → name → a table with bots in every other seat, started. Returns the invitation link."""
        await self.page.goto("/")
        await self.enter()
        link = await self.create_table(ruleset, seats, target_points)
        await self.fill_bots(seats, level)
        await self.start()
        return link

    async def shot(self, name: str, full_page: bool = True) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        await self.page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    async def reload_until(self, shown: Callable[[], Awaitable[bool]], what: str) -> None:
        """``shown()`` holds, the page loaded again, less and less often, until the projection has it.

        Each look comes a pause after a load, not at once: a screen asks the API for its list after it
        loads, and on a crowded machine a look right after the load always found the list not yet drawn
        (CI: the staff's closed reports "not shown" for 60 s, on a page that showed them)."""
        deadline = time.monotonic() + PROJECTED_S
        for pause in pauses(0.5, 4.0):
            if await shown():
                return
            if time.monotonic() > deadline:
                await self.shot(f"missing-{re.sub(r'[^0-9A-Za-z]+', '-', what)}-{self.name}")
                raise AssertionError(f"{self.name}: {what} not shown after {PROJECTED_S} s")
            await self.page.reload()
            await self.page.wait_for_timeout(pause * 1000)

    # -- the socket, as the client handled it ------------------------------------------------

    async def acks(self) -> int:
        return int(await self.page.evaluate("() => window.__e2e.acks.length"))

    async def wait_ack(self, after: int, timeout: float = STEP_TIMEOUT_MS) -> dict[str, Any]:
        await self.page.wait_for_function("n => window.__e2e.acks.length > n", arg=after, timeout=timeout)
        ack: dict[str, Any] = await self.page.evaluate("n => window.__e2e.acks[n]", after)
        return ack

    async def seq(self) -> int:
        return int(await self.page.evaluate("id => window.__e2e.seqs[id] || 0", self.table_id))

    async def wait_seq(self, seq: int, timeout: float = STEP_TIMEOUT_MS) -> None:
        await self.page.wait_for_function("([id, s]) => (window.__e2e.seqs[id] || 0) >= s",
                                          arg=[self.table_id, seq], timeout=timeout)

    async def frames(self) -> list[dict[str, Any]]:
        frames: list[dict[str, Any]] = await self.page.evaluate("() => window.__e2e.frames")
        return frames

    async def cached_seat(self) -> int:
        """``table_info.my_seat`` as the client last stored it for this table."""
        raw = await self.page.evaluate("id => sessionStorage.getItem(`mm.table.${id}`)", self.table_id)
        assert raw, "the client stored no picture of the table"
        return int(json.loads(raw)["table_info"]["my_seat"])

    async def drop_connection(self) -> None:
        """The connection drops, and the network stays away.

        The open socket is closed first (while the network is there, so the close is at once:
        closed offline, Chromium waits for a closing handshake that cannot come), then the
        context goes offline before the client's first retry (at least 250 ms later).
        """
        await self.page.evaluate("""() => Promise.all(window.__e2e.sockets.filter((s) => s.readyState < 2).map(
            (s) => new Promise((closed) => { s.addEventListener('close', closed); s.close(); })))""")
        await self.context.set_offline(True)

    # -- playing -----------------------------------------------------------------------------

    async def snapshot(self) -> dict[str, Any]:
        s: dict[str, Any] = await self.page.evaluate(SNAPSHOT)
        return s

    async def wait_actionable(self, timeout: float = TURN_TIMEOUT_MS) -> dict[str, Any]:
        await self.page.wait_for_function(ACTIONABLE, timeout=timeout)
        return await self.snapshot()

    async def click_command(self, target: Locator) -> dict[str, Any] | None:
        """Click something that sends a command; wait for its ack and for the table frame it stored.

        None when the click sent nothing that was answered (the client was still busy).
        """
        before = await self.acks()
        await target.click(timeout=STEP_TIMEOUT_MS)
        try:
            ack = await self.wait_ack(before, timeout=5_000)
        except PlaywrightTimeout:
            return None
        if ack.get("ok") and ack.get("seqs"):
            await self.wait_seq(max(ack["seqs"]))
        elif not ack.get("ok"):
            self.refusals.append(ack)
        return ack

    def card(self, name: str) -> Locator:
        return self.by("hand").locator(f'[data-card="{name}"]').first

    async def do(self, move: Move) -> dict[str, Any] | None:
        kind, arg = move
        self.moves += 1
        if kind == "mau":
            await self.by("btn-mau").click()
            await expect(self.by("btn-mau")).to_have_attribute("aria-pressed", "true")
            return None
        if kind == "card":
            before = await self.acks()
            await self.card(arg).click(timeout=STEP_TIMEOUT_MS)
            # a Jack or a wild opens the chooser (no command yet); anything else is sent
            await self.page.wait_for_function(
                """n => window.__e2e.acks.length > n || document.querySelector(
                     '[data-testid="suit-chooser"], [data-testid="color-chooser"]')""", arg=before,
                timeout=STEP_TIMEOUT_MS)
            if await self.acks() > before:
                ack = await self.wait_ack(before)
                if ack.get("ok") and ack.get("seqs"):
                    await self.wait_seq(max(ack["seqs"]))
                elif not ack.get("ok"):
                    self.refusals.append(ack)
                return ack
            return None
        if kind == "choose":
            return await self.click_command(self.by(arg))
        if kind in ("draw", "pass"):
            return await self.click_command(self.by(f"btn-{kind}"))
        raise ValueError(move)

    async def play(self, policy: Policy = shed_first, *, seconds: float = 150, next_rounds: bool = False
                   ) -> dict[str, Any]:
        """Play this seat (the bots play the others) until the round review shows, or the policy says stop.

        With ``next_rounds`` the review's "next round" is clicked and play goes on. Returns the
        last reading of the table.
        """
        deadline = time.monotonic() + seconds
        failures = 0
        while True:
            if time.monotonic() > deadline:
                await self.shot(f"stuck-{self.name}")
                raise AssertionError(f"{self.name}: not done within {seconds:.0f} s ({self.moves} moves, refused: "
                                     f"{self.refusals[-5:]}): {await self.snapshot()}")
            try:
                s = await self.wait_actionable()
            except PlaywrightTimeout as e:
                await self.shot(f"stuck-{self.name}")
                raise AssertionError(f"{self.name}: nothing to do for {TURN_TIMEOUT_MS / 1000:.0f} s: "
                                     f"{await self.snapshot()}") from e
            if s["review"]:
                if not next_rounds:
                    return s
                await expect(self.by("btn-next-round")).to_be_visible()
                await self.click_command(self.by("btn-next-round"))
                continue
            move = policy(s)
            if move is None:  # nothing this policy wants now: read the table again shortly
                await self.page.wait_for_timeout(100)
                continue
            if move[0] == "stop":
                return s
            refused = len(self.refusals)
            try:
                await self.do(move)
                failures = 0
                for r in self.refusals[refused:]:  # what was refused, and when
                    r.update(move=move, turn=s["turn"])
            except PlaywrightError as e:  # TimeoutError included
                # a re-render may swap the element under a click: read the table again, a few times
                failures += 1
                if failures > 5:
                    raise AssertionError(f"{self.name}: {move} kept failing: {e}") from e

    async def play_round(self, policy: Policy = shed_first, seconds: float = 150) -> None:
        """Play this seat until the round review shows."""
        await self.play(policy, seconds=seconds)
