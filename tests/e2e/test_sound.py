"""The table's sounds in a real Chromium (issue 27): ZzFX plays them as the moves arrive.

The page announces every sound it plays (a ``mm-sound`` event on window, gateway/static/sfx.js);
``LISTEN`` writes them down in one list with the table frames as they arrive (a frame before the
sounds it made), and counts the buffers the library started in the audio (so the sound was
really sent to Web Audio, not only named).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.test_presence import one_move
from tests.e2e.ui import STEP_TIMEOUT_MS, Move, Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

# what Chromium itself logs while the network is away (the client's retries), nothing of the client's
OFFLINE = (r"WebSocket connection to '.*' failed: .*ERR_INTERNET_DISCONNECTED",)

LISTEN = """
(() => {
  const heard = window.__heard = [];
  window.__buffers = 0;
  addEventListener('mm-sound', (e) => heard.push({ sound: e.detail.name, volume: e.detail.volume }));
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) { window.__buffers += 1; return start.apply(this, args); };
  const Before = window.WebSocket;
  window.WebSocket = class extends Before {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (msg) => { // before the client's own handler: a frame, then its sounds
        try {
          const f = JSON.parse(msg.data);
          if (f.table) heard.push({ frame: f.type, seq: f.seq ?? null });
        } catch { /* not a frame */ }
      });
    }
  };
})();
"""


async def listening(players: Players, name: str, **args: Any) -> Player:
    player = await players.open(name, **args)
    await player.context.add_init_script(LISTEN)
    return player


async def heard(player: Player) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = await player.page.evaluate("() => window.__heard")
    return entries


async def sounds(player: Player) -> list[str]:
    return [e["sound"] for e in await heard(player) if "sound" in e]


async def wait_sounds(player: Player, more_than: int) -> list[str]:
    await player.page.wait_for_function(
        "n => window.__heard.filter((e) => e.sound).length > n", arg=more_than, timeout=STEP_TIMEOUT_MS)
    return await sounds(player)


async def move_and_listen(player: Player, move: Move) -> list[str]:
    """Make a move; the sounds that came from it and from the answers until this player may act again.

    A frame's sounds are played before it is drawn, so once the page offers a move again the
    sounds of the frames that led there are all written down.
    """
    before = len(await sounds(player))
    await player.do(move)
    await player.wait_actionable()
    return (await sounds(player))[before:]


async def test_a_bot_match_sounds_the_deal_the_draws_the_cards_and_my_turns_in_order(players: Players) -> None:
    ana = await listening(players, "Ana")
    await ana.host("classic32", seats=2, level="weak", target_points=5000)
    await ana.wait_actionable()
    opening = await wait_sounds(ana, 0)
    assert opening[0] == "shuffle", opening  # the deal
    await ana.page.wait_for_function("() => window.__heard.some((e) => e.sound === 'turn')", timeout=STEP_TIMEOUT_MS)

    drew = await move_and_listen(ana, ("draw", ""))
    assert drew[0] == "draw", drew
    s = await ana.snapshot()
    while True:  # a card the bot answers (not an Ace, which skips it): the card, the bot's move, my turn again
        move = shed_first(s)
        assert move is not None, s
        after = await move_and_listen(ana, move)
        if move[0] == "card" and len(after) > 1:
            break
        s = await ana.snapshot()
    assert after[0] == "card", after
    if after[-1] == "turn":
        assert len(after) >= 3 and set(after[1:-1]) & {"card", "draw", "penalty", "shuffle"}, after  # the bot's move
    else:  # the round ended with it
        assert after[-1] in {"round_won", "round_lost", "match_won", "match_lost"}, after
    assert await ana.page.evaluate("() => window.__buffers") > 0  # the library played them into the audio


async def test_nothing_sounds_before_the_pages_first_gesture(players: Players) -> None:
    ana = await listening(players, "Ana")
    requested: list[str] = []
    ana.page.on("request", lambda r: requested.append(r.url) if "/zzfx" in r.url else None)
    await ana.host("classic32", seats=3, level="weak", target_points=5000)
    await ana.wait_actionable()
    await ana.click_command(ana.by("btn-auto-on"))  # the system plays this seat: the match goes on by itself
    await ana.page.reload()
    await expect(ana.by("auto-notice")).to_be_visible()
    requested.clear()
    # the page follows the live table: its chat frame, then moves arriving, none of them heard
    await ana.page.wait_for_function(
        """() => { const h = window.__heard, c = h.findIndex((e) => e.frame === 'chat');
                   return c >= 0 && h.slice(c).filter((e) => e.frame === 'events').length >= 3; }""",
        timeout=STEP_TIMEOUT_MS)
    assert await sounds(ana) == []
    assert requested == []  # the library is not even loaded yet
    assert await ana.page.evaluate("() => window.__buffers") == 0

    await ana.by("scoreboard").click()  # the first gesture: the moves from now on are heard
    await ana.page.wait_for_function(
        """() => window.__heard.some((e) => e.sound) || document.querySelector('[data-testid="btn-next-round"]')""",
        timeout=STEP_TIMEOUT_MS)
    if not await sounds(ana):  # the round ended just then: the next one's deal sounds
        await ana.click_command(ana.by("btn-next-round"))
        await wait_sounds(ana, 0)
    assert any(re.search(r"/static/dist/zzfx-[A-Z0-9]{8}\.js$", u) for u in requested), requested


async def test_a_muted_table_plays_nothing(players: Players) -> None:
    ana = await listening(players, "Ana")
    await ana.host("classic32", seats=2, level="weak", target_points=5000)
    await ana.wait_actionable()
    await ana.by("btn-sound").click()
    await expect(ana.by("btn-sound")).to_have_attribute("aria-pressed", "false")
    await one_move(ana)  # a sound asked for just before the click has started by the time this move is seen
    buffers = await ana.page.evaluate("() => window.__buffers")
    muted_from = len(await heard(ana))

    for _ in range(3):  # three moves of mine, and the bot's answers
        await one_move(ana)
    await ana.wait_actionable()
    since = (await heard(ana))[muted_from:]
    assert [e for e in since if "frame" in e and e["frame"] == "events"], since  # moves came
    assert [e for e in since if "sound" in e] == [], since
    assert await ana.page.evaluate("() => window.__buffers") == buffers
    assert await ana.page.evaluate("() => localStorage.getItem('mm.sound')") == "off"

    await ana.by("btn-sound").click()  # on again: the next moves are heard
    await expect(ana.by("btn-sound")).to_have_attribute("aria-pressed", "true")
    unmuted = len(await sounds(ana))
    await until_heard(ana, unmuted)


async def until_heard(player: Player, more_than: int, moves: int = 10) -> None:
    """Play on (the bots answer) until a sound more than `more_than` is heard, in at most `moves` moves."""
    for _ in range(moves):
        if len(await sounds(player)) > more_than:
            return
        await one_move(player)
    assert len(await sounds(player)) > more_than, await heard(player)


async def test_the_volume_is_kept_on_the_device_across_a_reload(players: Players) -> None:
    ana = await listening(players, "Ana")
    await ana.host("classic32", seats=2, level="weak", target_points=5000)
    await ana.wait_actionable()
    await ana.by("btn-menu").click()
    slider = ana.by("menu-volume")
    await expect(slider).to_have_value("70")
    await slider.fill("30")
    await expect(slider).to_have_attribute("aria-valuetext", "30 %")
    await ana.shot("sound-1-menu-volume")
    await ana.by("menu-close").click()

    await ana.page.reload()
    await expect(ana.by("hand")).to_be_visible()
    await ana.by("btn-menu").click()
    await expect(ana.by("menu-volume")).to_have_value("30")
    await ana.by("menu-close").click()  # gestures: the page may sound now
    await until_heard(ana, 0)  # a move of mine (the call alone sends nothing), and the bot's answer
    played = [e for e in await heard(ana) if "sound" in e]
    assert played and {e["volume"] for e in played} == {30}, played


async def test_the_moves_a_reconnection_catches_up_make_no_sound(players: Players) -> None:
    ana = await listening(players, "Ana", allowed_console=OFFLINE)
    await ana.host("classic32", seats=3, level="weak", target_points=5000)
    await ana.wait_actionable()
    await ana.click_command(ana.by("btn-auto-on"))  # the match goes on by itself while the page is away
    await wait_sounds(ana, 0)
    seq = await ana.seq()
    await ana.drop_connection()
    await ana.page.wait_for_timeout(1_500)  # the table moves on meanwhile (bots think 0.2 s; this seat at once)
    back_from = len(await heard(ana))
    await ana.context.set_offline(False)
    await ana.page.wait_for_function(
        "n => window.__heard.slice(n).some((e) => e.frame === 'chat')", arg=back_from, timeout=20_000)
    back = (await heard(ana))[back_from:]
    chat = next(i for i, e in enumerate(back) if e.get("frame") == "chat")
    caught_up = back[:chat]
    assert [e for e in caught_up if e.get("frame") == "events" and e["seq"] > seq], back  # the missed moves came
    assert [e for e in caught_up if "sound" in e] == [], back
    await wait_sounds(ana, len(await sounds(ana)))  # and the moves made from then on are heard
