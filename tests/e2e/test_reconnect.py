"""A dropped connection comes back by itself and the game goes on; a reload keeps the seat."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Player, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

# what Chromium itself logs while the network is away (the client's retries), nothing of the client's
OFFLINE = (r"WebSocket connection to '.*' failed: .*ERR_INTERNET_DISCONNECTED",)


async def my_turn(player: Player) -> None:
    s = await player.wait_actionable()
    assert not s["review"] and s["draw"], s


async def my_tables_seat(player: Player) -> int:
    """The seat the gateway's `GET /api/my-tables` gives this device at this table."""
    seat = await player.page.evaluate(
        """async (id) => {
             const headers = {Authorization: `Bearer ${localStorage.getItem('mm.token')}`};
             const res = await fetch('/api/my-tables', {headers});
             const row = (await res.json()).tables.find((r) => r.table_id === id);
             return row ? row.seat : null;
           }""", player.table_id)
    assert seat is not None
    return int(seat)


async def test_a_dropped_connection_reconnects_and_the_game_goes_on(players: Players) -> None:
    ana = await players.open("Ana", allowed_console=OFFLINE)
    link = await ana.host("classic32", seats=2, level="weak", target_points=5000)
    watcher = await players.open("Vera")  # a spectator who stays online: what the table really is
    await watcher.page.goto(link.split("?")[0])
    await watcher.enter()
    await expect(watcher.by("spectator-hand")).to_be_visible()
    await my_turn(ana)

    # the network goes away: the banner says so, and a move made meanwhile waits for the socket
    await ana.drop_connection()
    banner = ana.by("connection-banner")
    await expect(banner).to_be_visible()
    await expect(banner).to_have_text("Reconectando…")
    await ana.shot("reconnect-1-banner")
    acks = await ana.acks()
    await ana.by("btn-draw").click()
    # the client tries again (a new socket) in vain: nothing was answered, the banner stays
    tried = await ana.page.evaluate("() => window.__e2e.sockets.length")
    await ana.page.wait_for_function(
        "n => window.__e2e.sockets.length > n && window.__e2e.sockets.at(-1).readyState === 3", arg=tried,
        timeout=15_000)
    sockets = await ana.page.evaluate("() => window.__e2e.sockets.map((s) => s.readyState)")
    assert await ana.acks() == acks, f"answered while offline; sockets {sockets}"
    await expect(banner).to_be_visible()

    await ana.context.set_offline(False)
    await expect(banner).to_be_hidden(timeout=20_000)
    ack = await ana.wait_ack(acks, timeout=20_000)  # the queued draw, sent again on the new socket
    assert ack["ok"], ack
    await ana.wait_seq(max(ack["seqs"]))
    await expect(ana.by("event-log")).to_contain_text("Você comprou")
    await watcher.wait_seq(max(ack["seqs"]))

    # the connection drops again while the bot plays: back online, the page catches up by itself
    while True:  # until the bot is to play at or after `missed_from`: its move is still to come then
        missed_from = await ana.seq()  # read before the table, which may only be newer
        s = await ana.snapshot()
        if s["review"]:  # a round over waits for people, not for the bot
            await expect(ana.by("btn-next-round")).to_be_visible()
            await ana.click_command(ana.by("btn-next-round"))
            continue
        move = shed_first(s)
        if move is None:
            break
        await ana.do(move)
    await ana.drop_connection()
    await expect(banner).to_be_visible()
    await watcher.page.wait_for_function("([id, s]) => (window.__e2e.seqs[id] || 0) > s",
                                         arg=[watcher.table_id, missed_from], timeout=15_000)
    await ana.context.set_offline(False)
    await expect(banner).to_be_hidden(timeout=20_000)
    # the last move the watcher saw (presence lines are worded for their reader: "Ana saiu" / "Você saiu")
    seen = await watcher.by("event-log").locator("li").filter(has_not_text=re.compile(r"(saiu|voltou)\.$")).last \
        .inner_text()
    await ana.wait_seq(await watcher.seq())
    replayed = [f for f in await ana.frames() if f["seq"] > missed_from]
    assert replayed and all(f["type"] == "events" for f in replayed), replayed  # resumed with `since`
    await expect(ana.by("event-log")).to_contain_text(seen)
    assert (await ana.snapshot())["hand"] == (await ana.frames())[-1]["view"]["hand"]

    # and the game goes on from there
    await ana.wait_actionable()
    s = await ana.snapshot()
    if not s["review"]:
        move = shed_first(s)
        assert move is not None
        await ana.do(move)
    assert ana.refusals == []


async def test_a_reload_keeps_the_seat(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.host("classic32", seats=2, level="weak", target_points=5000)
    await my_turn(ana)
    before = await ana.snapshot()
    seat = await ana.cached_seat()
    assert seat == await my_tables_seat(ana) == 0

    await ana.page.reload()
    await expect(ana.by("hand").locator(".hand-card")).to_have_count(len(before["hand"]))
    after = await ana.wait_actionable()
    assert after["hand"] == before["hand"]
    assert after["top"] == before["top"]
    assert await ana.cached_seat() == seat
    assert await my_tables_seat(ana) == seat

    # a new tab of the same device has no cached picture: the gateway sends it, with the same seat
    tab = await ana.context.new_page()
    again = Player("Ana (tab)", ana.context, tab)
    again.watch_console()
    players.made.append(again)
    await tab.goto(f"/m/{ana.table_id}")
    await expect(again.by("hand").locator(".hand-card")).to_have_count(len(before["hand"]))
    state = next(f for f in await again.frames() if f["type"] == "state")
    assert state["my_seat"] == seat
    assert sorted(state["view"]["hand"]) == sorted(before["hand"])
    await tab.close()

    # the reloaded page still acts for the seat
    ack = await ana.click_command(ana.by("btn-draw"))
    assert ack is not None and ack["ok"], ack
    assert ack["seat"] == seat
