"""The strong bot's sampled worlds: cards conserved, the seat's own hand kept, sizes matched, the pile public."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from services.bots.knowledge import knowledge_from, rules
from services.bots.strategy import medium, score, suit_counts
from services.bots.worlds import World, greedy_action, out_of_turn, rollout, sample_world
from services.rules.actions import PLAY, Action
from services.rules.cards import FRENCH
from services.rules.engine import apply, legal_actions, new_match, start_round
from services.rules.state import State
from tests.bots.rounds import TABLES, random_states, table_id

Table = tuple[str, int, dict[str, Any]]


def _worlds(table: Table, per_state: int = 2) -> list[tuple[State, State]]:
    """(real state, sampled world of the seat on turn) pairs along random rounds."""
    name, seats, options = table
    rng = random.Random(8)
    pairs = []
    for s in random_states(name, seats, options, 2, seed=13, every=6):
        if s.round_over:
            continue
        k = knowledge_from(s, s.turn)
        world = World.prepare(k)
        pairs += [(s, sample_world(k, rng, world)) for _ in range(per_state)]
    return pairs


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sampled_world_conserves_the_cards(table: Table) -> None:
    for real, w in _worlds(table):
        everything = [c for h in w.hands for c in h] + w.stock + w.discard
        assert Counter(everything) == Counter(rules(knowledge_from(real, real.turn)).deck(real.n))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sampled_world_keeps_the_seats_own_hand(table: Table) -> None:
    for real, w in _worlds(table):
        assert sorted(w.hands[real.turn]) == sorted(real.hands[real.turn])


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sampled_world_matches_every_hand_size_and_the_stock(table: Table) -> None:
    for real, w in _worlds(table):
        assert [len(h) for h in w.hands] == [len(h) for h in real.hands]
        assert len(w.stock) == len(real.stock) and w.discard == real.discard


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sampled_world_never_puts_a_played_card_back_in_a_hand(table: Table) -> None:
    for real, w in _worlds(table):
        hidden = Counter(c for i, h in enumerate(w.hands) if i != real.turn for c in h) + Counter(w.stock)
        real_hidden = Counter(c for i, h in enumerate(real.hands) if i != real.turn for c in h) + Counter(real.stock)
        assert hidden == real_hidden  # the unseen cards, however dealt: none from the pile, none from the own hand


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sampled_world_allows_the_seat_what_the_view_allows(table: Table) -> None:
    for real, w in _worlds(table, per_state=1):
        assert set(legal_actions(w, real.turn)) == set(legal_actions(real, real.turn))


def test_sampled_worlds_differ_from_each_other() -> None:
    s = next(x for x in random_states("colors108", 4, {}, 1, seed=3) if not x.round_over)
    k = knowledge_from(s, s.turn)
    world, rng = World.prepare(k), random.Random(1)
    assert len({tuple(map(tuple, sample_world(k, rng, world).hands)) for _ in range(5)}) > 1


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_rollout_ends_the_round_or_values_it_between_0_and_1(table: Table) -> None:
    rng = random.Random(4)
    for _real, w in _worlds(table, per_state=1)[::4]:
        assert 0.0 <= rollout(w, _real.turn, rng, max_steps=30) <= 1.0


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_rollouts_tito_likes_what_the_medium_bot_likes(table: Table) -> None:
    """In the real state, a seat's greedy rollout choice is one of the medium bot's best choices."""
    name, seats, options = table
    rng = random.Random(6)
    for s in random_states(name, seats, options, 2, seed=17, every=5):
        for seat in range(s.n):
            k = knowledge_from(s, seat)
            if s.round_over or not k.on_turn:
                continue
            counts = suit_counts(k)
            a, b = greedy_action(s, seat, rng), medium(k, rng)
            assert a is not None and b is not None and score(k, a, counts) == score(k, b, counts)


def test_a_rollout_takes_a_chance_out_of_turn() -> None:
    s = new_match("classic52", 3)
    start_round(s, dealer=2, first=0, hands=[["8H", "9H", "KC"], ["7C", "9C", "10S"], ["QH", "QC", "2S"]],
                starter="10H", stock=["AD", "AS", "3C", "4C"])
    apply(s, Action(PLAY, 0, FRENCH.parse("9H")))  # two cards left: no call was due
    apply(s, Action(PLAY, 1, FRENCH.parse("9C")))
    apply(s, Action(PLAY, 2, FRENCH.parse("QC")))
    apply(s, Action(PLAY, 0, FRENCH.parse("KC")))  # one card left without "Mau": seat 1 and 2 may challenge
    assert out_of_turn(s, random.Random(1)) and len(s.hands[0]) == 3 and s.mau_offender == -1


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_card_another_seat_drew_is_one_of_its_own_in_the_sampled_world(table: Table) -> None:
    name, seats, options = table
    rng, seen = random.Random(4), 0
    for s in random_states(name, seats, options, 3, seed=21, every=1):
        if s.round_over or s.drawn_card < 0:
            continue
        for seat in range(s.n):
            if seat == s.turn or not s.active[seat]:
                continue
            k = knowledge_from(s, seat)
            w = sample_world(k, rng, World.prepare(k))
            assert w.drawn_card in w.hands[s.turn]  # (not this seat's own card: decks may hold twins)
            seen += 1
    assert seen  # the rounds had a seat on turn holding a card it drew
