"""Reading the others' hands from the round's public actions: public only, true of Tito, kept in the worlds."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from services.bots.knowledge import knowledge_from
from services.bots.reading import Group, Reading, fitting, observe, sync, tito_played
from services.bots.worlds import World, sample_world
from services.rules.actions import DRAW, PLAY, Action
from services.rules.cards import FRENCH, Card
from services.rules.decider import deal, evolve
from services.rules.engine import apply, new_match, start_round
from services.rules.phases import DRAWN
from services.rules.state import State
from tests.bots.rounds import TABLES, table_id
from tools.bench.bots import _out_of_turn, decider

Table = tuple[str, int, dict[str, Any]]


def _medium_round(table: Table, seed: int) -> Iterator[tuple[State, Action, Reading]]:
    """(state before, action, reading before it) along one round of four medium bots, as the bench plays it."""
    name, seats, options = table
    s0 = new_match(name, seats, options)
    s = evolve(s0, deal(s0, hashlib.sha256(f"read:{seed}".encode()).hexdigest(), "t", 0))
    players = [decider("medium", 1.0)] * seats
    rngs = [random.Random(i) for i in range(seats)]
    cell = [Reading.start(s)]
    record: list[tuple[State, Action, Reading]] = []

    def noting(seat: int) -> Any:
        def act(st: State, at: int, rng: random.Random, r: Reading) -> Action | None:
            a = players[seat](st, at, rng, r)
            if a is not None:
                record.append((st.copy(), a, r))
            return a
        return act

    watched = [noting(i) for i in range(seats)]
    for _ in range(2000):
        if s.round_over:
            break
        if not _out_of_turn(s, watched, rngs, cell) and not s.round_over:
            a = watched[s.turn](s, s.turn, rngs[s.turn], cell[0])
            assert a is not None
            cell[0] = observe(cell[0], s, a)
            apply(s, a)
        yield from record
        record.clear()


def _hide_differently(s: State, rng: random.Random) -> State:
    """The same public table with every hidden card (all hands, the stock) dealt another way."""
    t = s.copy()
    pool = [c for h in t.hands for c in h] + t.stock
    rng.shuffle(pool)
    for i in range(t.n):
        n = len(t.hands[i])
        t.hands[i], pool = pool[:n], pool[n:]
    t.stock = pool
    if t.drawn_card >= 0 and t.hands[t.turn]:
        t.drawn_card = t.hands[t.turn][-1]
    return t


def _meets(hand: list[Card], groups: tuple[Group, ...]) -> bool:
    """Whether the cards of ``hand`` can be put into ``groups`` (a matching of cards to the groups' places)."""
    places = [g for g in groups for _ in range(g.size)]
    if len(places) != len(hand):
        return False
    owner = [-1] * len(places)

    def place(card: int, tried: set[int]) -> bool:
        for p, g in enumerate(places):
            if p in tried or hand[card] in g.excluded:
                continue
            tried.add(p)
            if owner[p] < 0 or place(owner[p], tried):
                owner[p] = card
                return True
        return False

    return all(place(c, set()) for c in range(len(hand)))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_reading_is_the_same_however_the_hidden_cards_lie(table: Table) -> None:
    rng = random.Random(5)
    for s, a, r in _medium_round(table, 1):
        assert observe(r, _hide_differently(s, rng), a) == observe(r, s, a)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_medium_bots_hands_always_meet_the_reading(table: Table) -> None:
    """The medium bot draws only when nothing fits and always burns what it can: what is read of it is true."""
    constrained = 0
    for seed in (1, 2):
        for s, _, r in _medium_round(table, seed):
            read = sync(r, [len(h) for h in s.hands], s.turn, s.phase is DRAWN)
            for i in range(s.n):
                assert _meets(s.hands[i], read.groups[i]), (i, s.hands[i], read.groups[i])
                constrained += r.constrained(i)
                play = read.last[i]
                assert play is None or tito_played(s.rs, play, s.hands[i]), (i, s.hands[i], play)
    assert constrained > 0


def test_a_seat_that_drew_with_nothing_fitting_is_dealt_none_of_what_fitted() -> None:
    s = new_match("classic32", 3)
    start_round(s, dealer=2, first=0, hands=[["8S", "KD", "10C"], ["7C", "AS", "QD"], ["8C", "KC", "9D"]],
                starter="9H", stock=["AC", "QS", "10H", "7D", "KS", "8D"])
    fitted = fitting(s)
    assert {FRENCH.name(c) for c in fitted} >= {"7H", "AH", "9S", "JC"} and FRENCH.parse("KD") not in fitted
    r = observe(Reading.start(s), s, Action(DRAW, 0))
    apply(s, Action(DRAW, 0))  # the ace of clubs does not fit either: the turn ends at once
    assert s.turn == 1
    k = knowledge_from(s, 1, reading=r)
    world, rng = World.prepare(k), random.Random(2)
    drawn_fitted = 0
    for _ in range(200):
        w = sample_world(k, rng, world)
        old, drawn = w.hands[0][:3], w.hands[0][3]
        assert not fitted & set(old)
        assert drawn not in fitted  # the turn ended with the draw: the drawn card did not fit either
        drawn_fitted += any(c in fitted for c in w.hands[2])
    assert drawn_fitted > 0  # seat 2 did nothing: it may hold them


def test_a_card_played_against_the_reading_comes_from_the_cards_drawn_since() -> None:
    s = new_match("classic32", 2)
    start_round(s, dealer=1, first=0, hands=[["8S", "KD"], ["8C", "KC", "QC"]], starter="9H",
                stock=["9C", "QS", "10H", "7D", "AC"])
    r = observe(Reading.start(s), s, Action(DRAW, 0))
    apply(s, Action(DRAW, 0))  # draws 9C, which fits: plays it
    nine = FRENCH.parse("9C")
    r = observe(r, s, Action(PLAY, 0, nine))
    apply(s, Action(PLAY, 0, nine))
    (g,) = sync(r, [len(h) for h in s.hands]).groups[0]
    assert g.size == 2 and FRENCH.parse("9S") in g.excluded


def test_a_reading_no_deal_can_meet_falls_back_to_a_free_deal() -> None:
    s0 = new_match("classic52", 4)
    s = evolve(s0, deal(s0, "44" * 32, "t", 0))
    everything = frozenset(range(64))
    wrong = Reading(tuple((Group(len(h), everything),) for h in s.hands))  # no card may be anywhere
    k = knowledge_from(s, s.turn, reading=wrong)
    w = sample_world(k, random.Random(1), World.prepare(k))
    assert [len(h) for h in w.hands] == [len(h) for h in s.hands] and len(w.stock) == len(s.stock)


def test_a_seat_is_read_by_every_play_since_its_hand_last_grew_and_by_the_doubles_it_did_not_make() -> None:
    s = new_match("candeias", 2)
    start_round(s, dealer=1, first=0, hands=[["10H", "9S", "5H", "2C"], ["10S", "3D", "6D", "6C"]],
                starter="4H", stock=["2D", "3C", "5C", "6S"])
    r = Reading.start(s)
    for seat, card in ((0, "10H"), (1, "10S"), (0, "9S")):
        a = Action(PLAY, seat, FRENCH.parse(card))
        r = observe(r, s, a)
        apply(s, a)
    play = r.last[0]
    assert play is not None and [p.action.card for p in play.earlier] == [FRENCH.parse("10H")]

    def hand(*names: str) -> list[Card]:
        return [FRENCH.parse(c) for c in names]

    assert tito_played(s.rs, play, hand("5H", "2C"))  # the true hand
    assert not tito_played(s.rs, play, hand("KH", "2C"))  # he would have played the king of hearts first
    assert not tito_played(s.rs, play, hand("5H", "5H"))  # he would have doubled the fives of hearts first
