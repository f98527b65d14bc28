"""Seeded deals: replayable, committed to, checkable, and fair."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

import services.rules.shuffle
from services.rules.cards import FRENCH
from services.rules.decider import RoundDealt, deal, decide, evolve, verify_deal
from services.rules.engine import legal_actions, new_match, start_round
from services.rules.shuffle import (
    _below,
    _first_words,
    _shuffled_by_rejection,
    _words,
    choice_index,
    commitment,
    shuffled,
)
from services.rules.state import State
from tests.interpreted import interpreted

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


def _reference(items: list[int], seed: str, label: str) -> list[int]:
    """docs/shuffle.md read literally: SHA-256 of seed, label and counter, 32-bit words, rejection, Fisher-Yates."""
    words: list[int] = []
    block = 0

    def below(n: int) -> int:
        nonlocal block
        while True:
            if not words:
                digest = hashlib.sha256(bytes.fromhex(seed) + f"|{label}|".encode() + block.to_bytes(8, "big")).digest()
                words.extend(int.from_bytes(digest[k:k + 4], "big") for k in range(0, 32, 4))
                block += 1
            w = words.pop(0)
            if w < 2**32 - 2**32 % n:
                return w % n

    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffles_are_the_documented_ones() -> None:
    for i in range(200):
        seed = hashlib.sha256(str(i).encode()).hexdigest()
        items = list(range(i % 110))
        assert shuffled(items, seed, f"reshuffle:{i}") == _reference(items, seed, f"reshuffle:{i}")
    assert shuffled(list(range(8)), SEED, "deal") == [4, 6, 5, 0, 1, 3, 7, 2]  # as before issue 18


def test_the_word_by_word_shuffle_is_the_same_shuffle() -> None:
    """``shuffled`` draws each position's first word at once; where one is rejected it shuffles word by word."""
    for i in range(100):
        seed = hashlib.sha256(str(i).encode()).hexdigest()
        items = list(range(i % 110))
        assert _shuffled_by_rejection(list(items), seed, "deal") == shuffled(items, seed, "deal")
        assert _shuffled_by_rejection(list(items), seed, "deal") == _reference(items, seed, "deal")


def test_the_first_words_are_the_stream_s_first_words() -> None:
    for k in (1, 7, 8, 9, 51, 107):
        words = _words(SEED, "deal")
        assert list(_first_words(SEED, "deal", k)) == [next(words) for _ in range(k)]


def test_a_rejected_first_word_shuffles_word_by_word() -> None:
    """Where a position's first word is one ``_below`` rejects (once in 2**32 / n: no seed of a test meets one),
    ``shuffled`` draws the whole shuffle word by word, from the items as given. A compiled module's calls cannot
    be replaced: there the check runs in a process of its own on the sources (``MAUMAU_PURE=1``)."""
    if services.rules.shuffle.__file__.endswith(".py"):
        rejected_first_word_shuffles_word_by_word()
        return
    interpreted("from tests.rules.test_shuffle import rejected_first_word_shuffles_word_by_word as c; c()")


def rejected_first_word_shuffles_word_by_word() -> None:
    module = services.rules.shuffle
    assert module.__file__.endswith(".py"), "run on the sources"
    real = module._first_words
    # 2**32 - 1 is rejected below 3 (2**32 % 3 == 1): the first position's word of three items
    module._first_words = lambda seed, label, k: (2**32 - 1, *real(seed, label, k)[1:])  # type: ignore[assignment]
    try:
        items = ["a", "b", "c"]
        expected = _reference(items, SEED, "deal")
        assert shuffled(items, SEED, "deal") == _shuffled_by_rejection(list(items), SEED, "deal") == expected
        assert items == ["a", "b", "c"]
    finally:
        module._first_words = real  # type: ignore[assignment]


def test_a_deal_s_numbers_and_a_script_s_names_lay_the_same_round_out() -> None:
    by_name, by_number, mixed = (new_match("classic52", 2) for _ in range(3))
    names = [["7H", "9S"], ["8H", "KD"]], "9H", ["AC", "2D"]
    start_round(by_name, 1, 0, *names)
    start_round(by_number, 1, 0, [[FRENCH.parse(c) for c in h] for h in names[0]], FRENCH.parse(names[1]),
                [FRENCH.parse(c) for c in names[2]])
    start_round(mixed, 1, 0, [["7H", FRENCH.parse("9S")], [FRENCH.parse("8H"), "KD"]], "9H",
                [FRENCH.parse("AC"), "2D"])
    assert (by_name.hands, by_name.stock, by_name.discard) == (by_number.hands, by_number.stock, by_number.discard)
    assert (by_name.hands, by_name.stock, by_name.discard) == (mixed.hands, mixed.stock, mixed.discard)


def _dealt_card_by_card(s: State, seed: str, round_no: int) -> tuple[int, tuple[tuple[int, ...], ...], int]:
    """docs/shuffle.md's deal: one card at a time from the top, from the first player on; then the starter."""
    seats = [i for i in range(s.n) if not s.tiebreak or s.match_over or i in s.tiebreak]
    dealer = round_no % s.n
    first = min(seats, key=lambda i: (i - dealer - 1) % s.n)
    deck = shuffled(s.rs.deck(s.n), seed, "deal")
    hands: list[list[int]] = [[] for _ in range(s.n)]
    order = seats[seats.index(first):] + seats[:seats.index(first)]
    for _ in range(s.rs.hand_size):
        for seat in order:
            hands[seat].append(deck.pop())
    return first, tuple(tuple(h) for h in hands), deck.pop()


@pytest.mark.parametrize(("ruleset", "seats", "tiebreak"), [
    ("classic32", 3, []), ("classic32", 8, []), ("classic52", 4, []), ("classic52", 10, []), ("candeias", 5, []),
    ("classic52", 4, [1, 3]), ("classic32", 4, [0, 2, 3]), ("classic52", 3, [2, 0]),
])
def test_a_deal_is_the_one_dealt_card_by_card(ruleset: str, seats: int, tiebreak: list[int]) -> None:
    s = new_match(ruleset, seats)
    s.tiebreak = tiebreak
    for r in range(2 * seats):
        d = deal(s, hashlib.sha256(f"{r}".encode()).hexdigest(), "t", r)
        assert (d.first, d.hands, d.starter) == _dealt_card_by_card(s, d.seed or "", r)
        dealt = [c for h in d.hands for c in h] + [d.starter, *d.stock]
        assert Counter(dealt) == Counter(s.rs.deck(seats))


def test_a_word_at_or_above_the_last_whole_multiple_is_drawn_again() -> None:
    assert _below(iter([2**32 - 1, 7]), 3) == 1  # 2**32 % 3 == 1: the top word would favour 0
    assert _below(iter([2**32 - 2, 7]), 3) == (2**32 - 2) % 3


def test_card_names_round_trip() -> None:
    assert all(FRENCH.parse(FRENCH.name(c)) == c for c in new_match("classic52", 2).rs.deck(2))
