"""The table a player loves (issue 27): seats around an oval felt, motion that tells what happened, one phone screen.

* Every seat count from 2 to 10 sits around the felt: one's own seat at the bottom, the others
  around the rim in play order (clockwise or not, as the ruleset's catalog says), no two seats
  on top of each other; a spectator sees the table from seat 0's place.
* The hand stays in full colour out of turn; on one's turn the playable cards lift, the rest dim.
* A card dragged with the mouse onto the pile is played.
* Motion: the deal flies a back to every seat, a played card slides onto the pile from its seat,
  a draw comes from the stock; each starts away from its place, ends in it, takes ≤ 400 ms and
  leaves nothing behind. With prefers-reduced-motion nothing moves at all.
* On a phone (390×844, and turned: 844×390) the felt, the hand and the action buttons are on the
  first screen at every ruleset, the buttons in one row and at least 44 px, no word cut.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.e2e.conftest import Players
from tests.e2e.ui import Move, Player, overlaps, shed_first

pytestmark = pytest.mark.asyncio(loop_scope="session")

# Where every seat of the felt is, in one reading of the page (viewport pixels).
SEATS = """
() => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2,
             left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  const seats = {};
  for (const n of document.querySelectorAll('[data-testid="felt"] [data-seat]')) seats[n.dataset.seat] = box(n);
  return { felt: box(document.querySelector('.felt')), seats, width: innerWidth };
}
"""

# Watches the page from now on: every animation started on an element (what it is, its first and
# last transform, its delay + duration), and every flying copy of a card added, even one never moved.
RECORD_MOTION = """
() => {
  const rec = window.__motion = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, timing) {
    const kf = Array.isArray(frames) ? frames : [];
    rec.push({ fly: this.dataset.fly || '', testid: this.dataset.testid || '', card: this.dataset.card || '',
               from: kf[0]?.transform || '', to: kf[kf.length - 1]?.transform || '',
               ms: (timing?.duration || 0) + (timing?.delay || 0) });
    return animate.call(this, frames, timing);
  };
  new MutationObserver((ms) => {
    for (const m of ms) for (const n of m.addedNodes) {
      if (n.nodeType === 1 && n.classList.contains('fly-card')) rec.push({ added: n.dataset.fly });
    }
  }).observe(document.body, { childList: true });
}
"""


# Every move over: no finite animation running (the turn ring's glow runs for ever).
LANDED = """() => document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)"""


def angle(felt: dict[str, float], seat: dict[str, float]) -> float:
    """The seat's angle around the felt's centre from the bottom, turning left, up, then right (0 ≤ a < 2π)."""
    return math.atan2(-(seat["x"] - felt["x"]), seat["y"] - felt["y"]) % (2 * math.pi)


async def host_ready(player: Player, ruleset: str, seats: int) -> None:
    """A started table with bots in the other seats, its felt drawn with every seat, seen from the page's top."""
    await player.host(ruleset, seats=seats)
    await expect(player.by("felt").locator("[data-seat]")).to_have_count(seats)
    await player.page.evaluate("() => scrollTo(0, 0)")  # the start button's click scrolled down to it


def assert_around_the_felt(layout: dict[str, Any], bottom: int, clockwise: bool) -> None:
    felt, seats = layout["felt"], layout["seats"]
    n = len(seats)
    assert max(seats, key=lambda s: seats[s]["y"]) == str(bottom), f"the bottom seat is not {bottom}: {seats}"
    assert abs(seats[str(bottom)]["x"] - felt["x"]) < 2, "one's own seat is not in the middle of the bottom"
    # from the seat after the bottom one, in play order, the angle grows (clockwise) or shrinks
    order = [(bottom + k) % n for k in range(1, n)]
    angles = [angle(felt, seats[str(s)]) for s in order]
    if not clockwise:
        angles.reverse()
    assert angles == sorted(angles) and len(set(angles)) == len(angles), f"not in play order: {order} {angles}"
    if n > 2:
        assert seats[str(order[0])]["x"] < felt["x"] if clockwise else seats[str(order[0])]["x"] > felt["x"]
    else:
        assert seats[str(order[0])]["y"] < felt["y"], "the only opponent does not sit across the table"
    keys = sorted(seats)
    for i, a in enumerate(keys):
        assert seats[a]["left"] >= 0 and seats[a]["right"] <= layout["width"], f"seat {a} is out of the screen"
        for b in keys[i + 1:]:
            assert not overlaps(seats[a], seats[b]), f"seats {a} and {b} overlap"


@pytest.mark.parametrize(("ruleset", "seats", "phone"), [
    ("classic52", 2, False), ("classic32", 4, False), ("classic52", 6, False), ("colors108", 10, False),
    ("classic52", 10, True), ("classic32", 6, True),
])
async def test_the_seats_sit_around_the_felt_in_play_order(players: Players, ruleset: str, seats: int,
                                                           phone: bool) -> None:
    ana = await players.open("Ana", phone=phone)
    await host_ready(ana, ruleset, seats)
    clockwise = await ana.by("opponents").get_attribute("data-seating") == "cw"
    catalog = await ana.page.evaluate("() => fetch('/api/rulesets').then((r) => r.json())")
    rs = next(r for r in catalog["rulesets"] if r["name"] == ruleset)
    assert clockwise == (rs["turns"] != "counter_clockwise")  # the catalog's, not the ruleset's name
    await ana.shot(f"felt-{ruleset}-{seats}-{'phone' if phone else 'desktop'}", full_page=False)
    assert_around_the_felt(await ana.page.evaluate(SEATS), bottom=0, clockwise=clockwise)
    await expect(ana.by("my-seat")).to_contain_text("Você")
    # the bots' seats show a robot, hers a person
    await expect(ana.by("opponents").locator('.avatar[data-avatar="robot"]')).to_have_count(seats - 1)
    await expect(ana.by("my-seat").locator(".avatar")).to_have_attribute("data-avatar", "")


async def test_a_spectator_sees_the_table_from_seat_0(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    link = await ana.create_table("classic52", seats=3)
    await ana.fill_bots(3)
    vera = await players.open("Vera")
    await vera.page.goto(link)
    await vera.enter()
    await ana.start()
    await expect(vera.by("felt").locator("[data-seat]")).to_have_count(3)
    await expect(vera.by("my-seat")).to_have_count(0)
    assert_around_the_felt(await vera.page.evaluate(SEATS), bottom=0, clockwise=True)
    dealer = vera.page.get_by_role("img", name="deu as cartas")  # a little deck, not an English "D"
    await expect(dealer).to_have_count(1)
    await expect(dealer).to_have_text("")


async def test_the_hand_keeps_its_colour_out_of_turn_and_lifts_what_plays_on_turn(players: Players) -> None:
    ana = await players.open("Ana")
    await host_ready(ana, "classic32", 4)
    looks = """(mine) => {
      const turn = document.querySelector('[data-testid="turn-indicator"]')?.dataset.turn;
      const cards = [...document.querySelectorAll('[data-testid="hand"] .hand-card')];
      const some = cards.some((c) => c.classList.contains('playable'));
      if (!cards.length || (turn === '0') !== mine || (mine && !some)) return null;
      return cards.map((c) => { const s = getComputedStyle(c);
        return { cls: c.className, opacity: s.opacity, filter: s.filter, lift: new DOMMatrix(s.transform).m42 }; });
    }"""
    seen: dict[bool, list[dict[str, Any]]] = {}
    for _ in range(20):  # a reading on one's turn with a card to play, and one out of turn
        if len(seen) == 2:
            break
        s = await ana.wait_actionable()
        if s["playable"] and True not in seen:
            seen[True] = await ana.page.evaluate(looks, True)
        await ana.do(shed_first(s) or ("pass", ""))
        theirs = await ana.page.evaluate(looks, False)  # the move answered: the turn went on
        if theirs is not None:
            seen[False] = theirs
    assert all(c["cls"] == "hand-card" and c["opacity"] == "1" and c["filter"] == "none" for c in seen[False]), seen
    for c in seen[True]:
        if "playable" in c["cls"]:
            assert c["lift"] < 0 and c["opacity"] == "1", c
        else:
            assert "dimmed" in c["cls"] and "brightness" in c["filter"], c


async def test_a_card_dragged_onto_the_pile_is_played(players: Players) -> None:
    ana = await players.open("Ana")
    await host_ready(ana, "classic52", 2)
    s = await ana.wait_actionable()
    while not s["playable"]:  # nothing to play: draw (or pass) until a card fits; a suit asked of the dealer first
        await ana.do(("choose", s["chooser"][0]) if s["chooser"] else ("draw", "") if s["draw"] else ("pass", ""))
        s = await ana.wait_actionable()
    card = s["playable"][0]
    count = s["hand"].count(card)
    await ana.page.wait_for_function(LANDED)  # a card just drawn has landed in the hand (it flies from the stock)
    start = await ana.card(card).bounding_box()
    pile = await ana.by("pile-top").bounding_box()
    assert start and pile
    before = await ana.acks()
    await ana.page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    await ana.page.mouse.down()
    await ana.page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    await ana.page.mouse.up()
    if await ana.by("suit-chooser").count():  # a Jack asks its suit first
        await ana.by("suit-chooser").locator(".choose-btn").first.click()
    ack = await ana.wait_ack(before)
    assert ack["ok"], ack
    await ana.wait_seq(max(ack["seqs"]))
    played = next(e for f in await ana.frames() for e in f["events"]
                  if e["type"] == "ActionTaken" and e["action"]["seat"] == 0 and e["action"]["do"] == "play")
    assert played["action"]["card"] == card
    assert (await ana.snapshot())["hand"].count(card) == count - 1  # played once, not twice by the click after


async def started_recording_motion(player: Player) -> None:
    """A three-seat table with bots, every motion recorded (``RECORD_MOTION``) from before its start."""
    await player.page.goto("/")
    await player.enter()
    await player.create_table("classic32", seats=3)
    await player.fill_bots(3)
    await player.page.evaluate(RECORD_MOTION)
    await player.start()


async def test_the_deal_a_play_and_a_draw_move_from_their_place_to_where_they_land(players: Players) -> None:
    ana = await players.open("Ana")
    await started_recording_motion(ana)
    s = await ana.wait_actionable()
    motion: list[dict[str, Any]] = await ana.page.evaluate("() => window.__motion")
    deal = [m for m in motion if m.get("fly") == "deal" and "from" in m]
    assert len(deal) == 2, motion  # a back to each other seat
    dealt = [m for m in motion if m.get("testid", "").startswith("card-")]
    assert dealt, "the dealt hand did not come in"
    for m in deal + dealt:
        assert m["from"].startswith("translate(") and m["to"] == "none" and m["ms"] <= 400, m
    await expect(ana.page.locator(".fly-card")).to_have_count(0)  # gone once landed

    await ana.page.evaluate("() => { window.__motion.length = 0; }")
    if s["playable"]:
        card = s["playable"][0]
        await ana.do(("card", card))
        if s["chooser"] or await ana.by("suit-chooser").count():
            await ana.do(("choose", "suit-H"))
        slid = [m for m in await ana.page.evaluate("() => window.__motion") if m.get("testid") == "pile-top"]
        assert slid and slid[0]["card"] == card, slid
        assert slid[0]["from"].startswith("translate(") and slid[0]["to"] == "none", slid
    else:
        await ana.do(("draw", ""))
        came = [m for m in await ana.page.evaluate("() => window.__motion") if m.get("testid", "").startswith("card-")]
        assert came and all(m["from"].startswith("translate(") and m["ms"] <= 400 for m in came), came
    await expect(ana.page.locator(".fly-card")).to_have_count(0)


async def test_nothing_moves_with_reduced_motion(players: Players) -> None:
    ana = await players.open("Ana", reduced_motion="reduce")
    await started_recording_motion(ana)
    for _ in range(6):  # until a bot has moved too
        if await ana.page.evaluate(
                "() => window.__e2e.frames.some((f) => f.events.some((e) => e.action && e.action.seat !== 0))"):
            break
        await ana.do(shed_first(await ana.wait_actionable()) or ("pass", ""))
    assert await ana.page.evaluate("() => window.__motion") == []
    assert await ana.page.evaluate("() => document.getAnimations().length") == 0


async def phone_screen(player: Player) -> dict[str, Any] | None:
    """The boxes that must be on the first screen, read at once (None: the round ended meanwhile, no hand)."""
    await player.page.wait_for_function(LANDED)  # where things rest
    boxes: dict[str, Any] | None = await player.page.evaluate("""() => {
      const b = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      const q = (s) => [...document.querySelectorAll(s)];
      const felt = document.querySelector('[data-testid="felt"]');
      const hand = document.querySelector('[data-testid="hand"]');
      if (!felt || !hand) return null;
      return { scroll: scrollY, w: innerWidth, h: innerHeight, felt: b(felt), hand: b(hand),
        cards: q('[data-testid="hand"] .hand-card').map(b),
        buttons: q('[data-testid="actions"] > .btn').map((n) => ({ box: b(n), cut: n.scrollWidth > n.clientWidth,
          text: n.textContent })) };
    }""")
    return boxes


def assert_one_screen(s: dict[str, Any], where: str) -> None:
    def inside(box: list[float]) -> bool:
        return box[0] >= 0 and box[1] >= 0 and box[2] <= s["w"] + 0.5 and box[3] <= s["h"] + 0.5

    assert s["scroll"] == 0, where
    assert inside(s["felt"]) and inside(s["hand"]), f"{where}: {s}"
    tops = {round(b["box"][1]) for b in s["buttons"]}
    assert len(tops) <= 1, f"{where}: the actions are not in one row: {s['buttons']}"
    for b in s["buttons"]:
        assert inside(b["box"]) and not b["cut"], f"{where}: {b}"
        assert b["box"][2] - b["box"][0] >= 44 and b["box"][3] - b["box"][1] >= 44, f"{where}: a small target {b}"
    lefts = [c[0] for c in s["cards"]]
    assert all(b - a >= 43.5 for a, b in itertools.pairwise(lefts)), f"{where}: cards under 44 px apart: {lefts}"
    if len(s["cards"]) <= 8:
        assert all(inside(c) for c in s["cards"]), f"{where}: a card off the screen {s['cards']}"


def grow_the_hand(s: dict[str, Any]) -> Move | None:
    """Draw whenever allowed (a fuller hand), else play, choose or pass."""
    if s["chooser"]:
        return ("choose", s["chooser"][0])
    if s["draw"]:
        return ("draw", "")
    if s["playable"]:
        return ("card", s["playable"][0])
    return ("pass", "") if s["pass"] else None


@pytest.mark.parametrize("ruleset", ["classic32", "classic52", "candeias", "colors108"])
async def test_the_phone_shows_the_table_the_hand_and_the_actions_on_one_screen(players: Players, ruleset: str) -> None:
    ana = await players.open("Ana", phone=True)
    await host_ready(ana, ruleset, 4)
    buttons = 0
    most = 0
    for turn in range(40):  # turns with buttons and without, the hand growing towards 8 cards
        s = await ana.wait_actionable()
        if buttons and (most >= 8 or turn >= 14 or s["review"]):
            break
        if s["review"]:  # the bots ended the round before a button showed: the next one
            await ana.click_command(ana.by("btn-next-round"))
            continue
        screen = await phone_screen(ana)
        if screen is None:
            continue
        assert_one_screen(screen, f"{ruleset}, {len(s['hand'])} cards")
        buttons += len(screen["buttons"])
        if len(s["hand"]) > most:
            most = len(s["hand"])
            await ana.shot(f"felt-phone-{ruleset}", full_page=False)
        # what is playable now, not before the boxes were read: at candeias a bot may burn or cut in meanwhile
        s = await ana.wait_actionable()
        if s["review"]:
            continue
        move = grow_the_hand(s)
        if move:
            await ana.do(move)
    assert buttons, "no action button was ever shown"


def hoard(s: dict[str, Any]) -> Move | None:
    """Keep every card: as ``grow_the_hand``, but pass where it would play."""
    keep = s["pass"] and not s["chooser"] and not s["draw"]
    return ("pass", "") if keep else grow_the_hand(s)


async def test_a_hand_wider_than_the_phone_shades_the_ends_that_hide_cards(players: Players) -> None:
    # the narrowest phones: a hand overflows there after a draw or two, before a bot can end the round
    ana = await players.open("Ana", phone=True, viewport={"width": 320, "height": 640})
    await host_ready(ana, "classic32", 2)
    while True:
        s = await ana.wait_actionable()
        assert not s["review"], f"the round ended before the hand overflowed: {s['hand']}"
        if await ana.by("hand").evaluate("h => h.scrollWidth > h.clientWidth"):
            break
        move = hoard(s)
        assert move, s
        await ana.do(move)
    hand, wrap = ana.by("hand"), ana.page.locator(".hand-wrap")
    await expect(wrap).to_have_class(re.compile(r"\bmore-right\b"))  # as dealt: from the first card
    await expect(wrap).not_to_have_class(re.compile(r"\bmore-left\b"))
    await ana.shot("felt-phone-hand-scrolls", full_page=False)
    await hand.evaluate("h => h.scrollTo({ left: h.scrollWidth })")
    await expect(wrap).to_have_class(re.compile(r"\bmore-left\b"))
    await expect(wrap).not_to_have_class(re.compile(r"\bmore-right\b"))


async def test_the_phone_turned_sideways_shows_the_felt_and_the_hand(players: Players) -> None:
    ana = await players.open("Ana", phone=True, viewport={"width": 844, "height": 390})
    await host_ready(ana, "classic32", 4)
    await ana.wait_actionable()
    layout = await ana.page.evaluate(SEATS)
    assert_around_the_felt(layout, bottom=0, clockwise=False)
    widths = await ana.page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1]
    await ana.shot("felt-phone-landscape", full_page=False)


async def test_at_a_timed_table_the_ring_of_the_seat_on_turn_empties(players: Players) -> None:
    ana = await players.open("Ana")
    await ana.page.goto("/")
    await ana.enter()
    await ana.by("ruleset-classic32").click()
    await ana.open_house_rules()
    timer = ana.by("opt-turn_seconds")
    values = await timer.locator("option").evaluate_all("(os) => os.map((o) => o.value).filter((v) => v && v !== '0')")
    await timer.select_option(values[-1])  # the longest: the turn is not played for Ana while this looks
    await ana.by("btn-create").click()
    await expect(ana.by("seat-0")).to_contain_text("Ana")
    await ana.fill_bots(2)
    await ana.start()
    await ana.wait_actionable()
    ring = ana.by("my-seat").locator(".seat-ring.lit")
    await expect(ring).to_be_visible()
    await expect(ana.by("turn-timer")).to_have_text(re.compile(r"^⏱ \d+s$"))
    first = float(await ring.evaluate("(r) => r.style.getPropertyValue('--left')"))
    assert 0 < first <= 1
    await ana.page.wait_for_function(  # the next second's tick takes its share of the ring
        "(f) => parseFloat(document.querySelector('[data-testid=\"my-seat\"] .seat-ring.lit')"
        "?.style.getPropertyValue('--left')) < f", arg=first)
    assert "conic-gradient" in await ring.evaluate("(r) => getComputedStyle(r).backgroundImage")


@pytest.mark.parametrize("seats", [4, 6])
async def test_on_the_narrowest_phone_no_seat_covers_the_piles_or_the_last_move(players: Players, seats: int) -> None:
    ana = await players.open("Ana", phone=True, viewport={"width": 320, "height": 640})
    await host_ready(ana, "classic32", seats)
    await ana.wait_actionable()
    await expect(ana.by("last-event")).to_be_visible()
    boxes = await ana.page.evaluate("""() => {
      const box = (e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const seat = (e) => [...e.children].filter((c) => !c.matches('.seat-body')).map(box)  // the name and the marks
        .concat([...e.querySelectorAll('.seat-ring')].map(box));
      return {
        centre: [...document.querySelectorAll('.piles > *, [data-testid="last-event"]')].map(box),
        seats: [...document.querySelectorAll('.opponent, .my-seat')].flatMap(seat),
      };
    }""")
    await ana.shot(f"felt-320-{seats}", full_page=False)
    hits = [(s, c) for s in boxes["seats"] for c in boxes["centre"] if overlaps(s, c)]
    assert len(boxes["centre"]) == 3 and len(boxes["seats"]) >= 2 * seats and not hits, hits
