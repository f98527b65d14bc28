"""A whole round played with the keyboard alone: Tab to a control, the arrows along the hand, Enter to act.

Nothing is clicked once the table has started: every card played, every draw, pass, call and suit
chosen is reached by Tab and the arrow keys and pressed with Enter, and what has the focus shows it.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import Players
from tests.e2e.ui import Player

pytestmark = pytest.mark.asyncio(loop_scope="session")
TABS = 80  # at most this many Tabs to reach any control of the table screen

FOCUSED = """
() => {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  const style = getComputedStyle(a);
  return {testid: a.dataset.testid || '', card: a.dataset.card || '', inHand: !!a.closest('[data-testid="hand"]'),
          playable: a.classList.contains('playable'),
          ring: style.outlineStyle !== 'none' || style.boxShadow !== 'none'};
}
"""


async def focused(player: Player) -> dict[str, Any] | None:
    got: dict[str, Any] | None = await player.page.evaluate(FOCUSED)
    return got


async def tab_to(player: Player, wanted: str) -> dict[str, Any]:
    """Press Tab until the control ``wanted`` (a testid, or "hand" for any card of one's hand) has the focus."""
    for _ in range(TABS):
        await player.page.keyboard.press("Tab")
        now = await focused(player)
        if now and (now["inHand"] if wanted == "hand" else now["testid"] == wanted):
            return now
    raise AssertionError(f"Tab never reached {wanted}")


async def press(player: Player) -> None:
    """Enter on the focused control, waiting for the answer to the command it sent (if it sent one)."""
    before = await player.acks()
    await player.page.keyboard.press("Enter")
    try:
        ack = await player.wait_ack(before, timeout=5_000)
    except PlaywrightTimeout:
        return  # a control that sends nothing by itself (a card that asks its suit first)
    if ack.get("ok") and ack.get("seqs"):
        await player.wait_seq(max(ack["seqs"]))


async def play_a_card(player: Player) -> None:
    """Tab into the hand, arrow along it to a card that may be played, press Enter."""
    now = await tab_to(player, "hand")
    for _ in range(20):
        if now["playable"]:
            assert now["ring"], f"the focused card {now['card']} shows no focus"
            await press(player)
            return
        await player.page.keyboard.press("ArrowRight")
        now = await focused(player) or now
    raise AssertionError("no playable card reached with the arrows")


async def test_a_round_is_played_with_the_keyboard_alone(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.host("classic32", seats=2, level="weak", target_points=5000)
    moves = 0
    while moves < 200:  # a 2-seat round may reshuffle for long: the test is about the keys, not the length
        s = await ana.wait_actionable()
        if s["review"]:
            break
        if s["chooser"]:
            await tab_to(ana, s["chooser"][0])
            await press(ana)
        elif s["playable"]:
            if s["mau"] and not s["mauPressed"]:
                await tab_to(ana, "btn-mau")
                await press(ana)
            await play_a_card(ana)
        else:
            await tab_to(ana, "btn-draw" if s["draw"] else "btn-pass")
            await press(ana)
        moves += 1
    snap = await ana.snapshot()
    assert snap["review"], f"the round did not end in {moves} moves: {snap}"
    assert any(f.get("events") for f in await ana.frames()), "no move was stored"
