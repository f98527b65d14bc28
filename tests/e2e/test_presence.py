"""Presence, the stand-in and "Sua vez!" in the web client (issue 15).

Two devices meet at a timed table through "Jogar agora" (classic32, two seats, 2 min a turn: a
pool no other test uses):

* each sees the other's seat with a green dot (on-line);
* the one not on turn goes to the home page: its seat stays on-line there (the page follows its
  tables); it turns on "Avisar quando for minha vez" and its tab goes to the background (as the
  page believes: headless tabs never are); when the table turns to it, its tab says so wherever it
  is on the site — the title "(1) Sua vez! · Mau-Mau Online", a badge drawn on the tab's icon, the
  table marked in "Minhas mesas", a beep (WebAudio: its notes counted), a notification — and a chat
  line the other writes is marked unread;
* it goes back to the table and closes its page: the other's log says "… saiu." and the dot turns
  grey; after the stand-in time (the e2e platform's MAUMAU_STANDIN_SECONDS, 6 s) the seat is
  marked "🤖 jogando por …" and the stand-in plays its turns;
* it opens the table again: "… voltou.", the dot green, the stand-in gone, and it plays on.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.test_quickmatch import choose
from tests.e2e.test_screens import fits
from tests.e2e.ui import STEP_TIMEOUT_MS, Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

AWAY_MS = 45_000  # a closed page: its marks go at once, the clock looks every 3 s (a dead gateway's: 30 s)
STANDIN_MS = 40_000  # then 6 s away at this timed table (tests/e2e/conftest.py)

# Counts the notes the page plays (the beep is two) and keeps the notifications it shows, changing neither;
# `window.__hidden = true` makes the page believe its tab is in the background (headless tabs never are).
WATCH_ALERTS = """
(() => {
  window.__notes = 0;
  window.__notified = [];
  window.__hidden = false;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__notes += 1; return start.apply(this, args); };
  const Native = window.Notification;
  window.Notification = new Proxy(Native, {
    construct(target, args) {
      window.__notified.push({ title: args[0], ...(args[1] || {}) });
      return Reflect.construct(target, args);
    },
    get(target, key) { const v = Reflect.get(target, key); return typeof v === 'function' ? v.bind(target) : v; },
  });
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
})();
"""


async def last_view(player: Player, table: str) -> dict[str, Any]:
    frames = [f for f in await player.frames() if f["table"] == table and f["view"]]
    assert frames, f"{player.name} has no picture of {table}"
    view: dict[str, Any] = frames[-1]["view"]
    return view


async def one_move(player: Player) -> None:
    """The player's next move (the next round when a round ended)."""
    s = await player.wait_actionable()
    if s["review"]:
        await expect(player.by("btn-next-round")).to_be_visible()
        await player.click_command(player.by("btn-next-round"))
        return
    move = shed_first(s)
    assert move is not None, s
    await player.do(move)


async def test_presence_the_stand_in_and_sua_vez(players: Players) -> None:
    ana = await players.open("Ana", permissions=["notifications"])
    bruno = await players.open("Bruno", phone=True, permissions=["notifications"])
    for p in (ana, bruno):
        await p.context.add_init_script(WATCH_ALERTS)
        await p.page.goto("/")
        await p.enter()
        await expect(p.by("btn-sound")).to_have_attribute("aria-pressed", "true")  # the top bar's 🔊, one tap away
        await fits(p, "the home page with the top bar's sound button")
        await choose(p, "classic32", 2, 120)
    await ana.by("btn-quick").click()
    await expect(ana.by("quick-searching")).to_be_visible()
    await bruno.by("btn-quick").click()
    for p in (ana, bruno):
        await expect(p.page).to_have_url(re.compile(r"/m/[A-Za-z0-9-]+$"), timeout=STEP_TIMEOUT_MS)
        await expect(p.by("hand")).to_be_visible()
    table = ana.table_id
    seat = {ana.name: await ana.cached_seat(), bruno.name: await bruno.cached_seat()}

    # both on-line: a green dot on the other's seat
    for me, other in ((ana, bruno), (bruno, ana)):
        dot = me.by(f"presence-{seat[other.name]}")
        await expect(dot).to_have_attribute("data-presence", "here")
        await expect(dot).to_have_attribute("aria-label", f"{other.name} está on-line")

    # the one not on turn goes to the home page; the other plays until the table turns to it
    turn = (await last_view(ana, table))["turn"]
    mover, waiter = (ana, bruno) if turn == seat["Ana"] else (bruno, ana)
    await waiter.by("home-link").click()
    row = waiter.by(f"my-table-{table}")
    await expect(row).to_be_visible()
    await expect(row).to_have_attribute("data-my-turn", "false")
    await expect(row.get_by_test_id("my-table-turn")).to_have_text(f"Vez de {mover.name}")
    await expect(waiter.page).to_have_title("Mau-Mau Online")
    await waiter.page.wait_for_timeout(4_000)  # the clock looks at the marks every 3 s: nobody went away
    await expect(mover.by(f"presence-{seat[waiter.name]}")).to_have_attribute("data-presence", "here")
    assert await waiter.page.evaluate("() => window.__notes") == 0
    notify = waiter.by("btn-notify")
    await expect(notify).to_have_attribute("aria-pressed", "false")
    await notify.click()  # "Avisar quando for minha vez" (the browser's permission: granted to this context)
    await expect(notify).to_have_attribute("aria-pressed", "true")
    await waiter.page.evaluate("() => { window.__hidden = true; }")  # the tab goes to the background

    for _ in range(30):
        if (await last_view(mover, table))["turn"] == seat[waiter.name]:
            break
        await one_move(mover)
    assert (await last_view(mover, table))["turn"] == seat[waiter.name], "the table never turned to the waiter"
    await expect(waiter.page).to_have_title("(1) Sua vez! · Mau-Mau Online", timeout=STEP_TIMEOUT_MS)
    await expect(row).to_have_attribute("data-my-turn", "true")
    await expect(row.get_by_test_id("my-table-turn")).to_have_text("Sua vez!")
    await expect(waiter.by("mine-waiting")).to_have_text("1 espera por você")
    icon = waiter.page.locator('link[rel="icon"]')
    await expect(icon).to_have_attribute("data-waiting", "1")
    await expect(icon).to_have_attribute("href", re.compile(r"^data:image/png;base64,"))
    await waiter.page.wait_for_function("() => window.__notes >= 2")  # the beep (sound on by default)
    notified = await waiter.page.evaluate("() => window.__notified")
    assert [(n["title"], n["tag"]) for n in notified] == [("Sua vez!", f"mm-turn-{table}")], notified
    assert notified[0]["body"] == f"Clássico 32 com {mover.name}: a mesa espera por você.", notified
    await waiter.page.evaluate("() => { window.__hidden = false; }")
    await fits(waiter, "Minhas mesas with a table waiting")
    await waiter.shot(f"presence-1-sua-vez-{waiter.name}")

    # the mover writes; the waiter's list marks the line unread
    await mover.by("chat-input").fill("sua vez!")
    await mover.by("chat-send").click()
    await expect(mover.by("chat-input")).to_have_value("")
    await expect(row.get_by_test_id("my-table-unread")).to_contain_text("1")

    # back at the table (the line read there), the waiter closes its page: "saiu", the grey dot
    await row.locator("a").click()
    await expect(waiter.by("hand")).to_be_visible()
    await expect(waiter.page).to_have_title("(1) Sua vez! · Mau-Mau Online")
    await waiter.page.close()
    await expect(mover.by("event-log")).to_contain_text(f"{waiter.name} saiu.", timeout=AWAY_MS)
    dot = mover.by(f"presence-{seat[waiter.name]}")
    await expect(dot).to_have_attribute("data-presence", "away")
    await expect(dot).to_have_attribute("aria-label", f"{waiter.name} está fora")

    # the stand-in: marked on the seat, and it plays the waiter's turn at once
    mark = mover.by("opponents").get_by_test_id(f"auto-mark-{seat[waiter.name]}")
    await expect(mark).to_have_text(f"🤖 jogando por {waiter.name}", timeout=STANDIN_MS)
    await expect(mover.by("event-log")).to_contain_text(f"Um robô 🤖 joga por {waiter.name} até {waiter.name} voltar.")
    await mover.shot(f"presence-2-stand-in-seen-by-{mover.name}")

    async def stood_in_moves() -> int:
        frames = [f for f in await mover.frames() if f["table"] == table]
        on = [i for i, f in enumerate(frames) for e in f["events"]
              if e["type"] == "AutoModeChanged" and e.get("on") and e.get("reason") == "away"]
        return sum(1 for f in frames[on[0]:] for e in f["events"]
                   if e["type"] == "ActionTaken" and e["action"]["seat"] == seat[waiter.name]) if on else 0

    await one_move(mover)
    for _ in range(20):
        if await stood_in_moves():
            break
        await one_move(mover)
    assert await stood_in_moves() > 0, "the stand-in played nothing"

    # the waiter comes back: "voltou", the green dot, the stand-in gone; it plays on
    page = await waiter.context.new_page()
    back = Player(waiter.name, waiter.context, page)
    back.watch_console()
    players.made.append(back)
    await page.goto(f"/m/{table}")
    await expect(back.by("hand")).to_be_visible()
    await expect(mover.by("event-log")).to_contain_text(f"{waiter.name} voltou.", timeout=AWAY_MS)
    await expect(dot).to_have_attribute("data-presence", "here")
    await expect(mark).to_have_count(0)
    await expect(back.by("auto-notice")).to_have_count(0)
    played = 0
    for _ in range(40):
        if played >= 2:
            break
        me = back if (await last_view(mover, table))["turn"] == seat[waiter.name] else mover
        before = me.moves
        await one_move(me)
        if me is back and back.moves > before:
            played += 1
    assert played >= 2, "the one who came back did not play"
    assert not [r for r in back.refusals if r.get("code") != "not_your_turn"], back.refusals
    await back.shot(f"presence-3-back-{waiter.name}")
