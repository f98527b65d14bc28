"""Seeded deals: replayable, committed to, checkable, and fair."""

from __future__ import annotations

import hashlib
from collections import Counter

from services.rules.cards import FRENCH
from services.rules.decider import RoundDealt, deal, decide, evolve, verify_deal
from services.rules.engine import legal_actions, new_match
from services.rules.shuffle import choice_index, commitment, shuffled

SEED = "a1" * 32


def test_the_same_seed_deals_the_same_round() -> None:
    s = new_match("candeias", 4)
    assert deal(s, SEED, "t", 0) == deal(s, SEED, "t", 0)
    assert deal(s, SEED, "t", 0).hands != deal(s, "b2" * 32, "t", 0).hands


def test_a_deal_uses_the_whole_deck_once() -> None:
    s = new_match("colors108", 5)
    d = deal(s, SEED, "t", 0)
    dealt = [c for h in d.hands for c in h] + [d.starter, *d.stock]
    assert Counter(dealt) == Counter(s.rs.deck(5))
    assert all(len(h) == 7 for h in d.hands)


def test_the_commitment_binds_seed_table_and_round() -> None:
    s = new_match("classic32", 3)
    d = deal(s, SEED, "table-9", 4)
    assert d.commitment == hashlib.sha256(f"table-9|4|{SEED}".encode()).hexdigest()
    assert d.commitment != commitment("table-9", 5, SEED)


def test_a_revealed_seed_verifies_the_recorded_deal() -> None:
    s = new_match("classic52", 4)
    d = deal(s, SEED, "t", 2)
    assert verify_deal(s, d, "t", SEED)
    assert not verify_deal(s, d, "t", "00" * 32)
    forged = RoundDealt(d.round_no, d.dealer, d.first, (d.hands[1], d.hands[0], *d.hands[2:]), d.starter,
                        d.stock, d.seed, d.commitment)
    assert not verify_deal(s, forged, "t", SEED)


def test_the_dealer_moves_and_the_first_player_follows_the_dealer() -> None:
    s = new_match("classic32", 3)
    assert [(deal(s, SEED, "t", r).dealer, deal(s, SEED, "t", r).first) for r in range(4)] == [
        (0, 1), (1, 2), (2, 0), (0, 1)]


def test_reshuffles_replay_from_the_seed() -> None:
    s = new_match("classic52", 2)
    s = evolve(s, deal(s, SEED, "t", 0))
    a, b = s, s.copy()
    for _ in range(400):
        if a.round_over:
            break
        action = next(iter(legal_actions(a, a.turn)))
        a = evolve(a, decide(a, action)[0])
        b = evolve(b, decide(b, action)[0])
        assert a.hands == b.hands and a.stock == b.stock
    assert a.reshuffles == b.reshuffles


def test_shuffles_are_close_to_uniform() -> None:
    positions: Counter[tuple[int, int]] = Counter()
    for i in range(3000):
        for pos, card in enumerate(shuffled(list(range(4)), hashlib.sha256(str(i).encode()).hexdigest(), "deal")):
            positions[(card, pos)] += 1
    assert all(600 < n < 900 for n in positions.values()), positions  # 750 expected each
    picks = Counter(choice_index(3, hashlib.sha256(str(i).encode()).hexdigest(), "first") for i in range(3000))
    assert all(850 < n < 1150 for n in picks.values())


def test_card_names_round_trip() -> None:
    assert all(FRENCH.parse(FRENCH.name(c)) == c for c in new_match("classic52", 2).rs.deck(2))
