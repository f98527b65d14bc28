"""The bots play the seeds' table options well, not merely legally: an Ace with company, a plain 7."""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.bots.knowledge import knowledge_from
from services.bots.play import decide as bot_decide
from services.bots.strategy import medium, strong
from services.rules.actions import PLAY, Action
from services.rules.cards import FRENCH
from services.rules.decider import deal, decide, evolve
from services.rules.engine import legal_actions, new_match, start_round
from services.rules.state import State

ACE = {"ace_with_company": True}


def _table(hands: list[list[str]], starter: str, stock: list[str], ruleset: str = "classic32",
           options: dict[str, Any] | None = None) -> State:
    s = new_match(ruleset, len(hands), options)
    start_round(s, dealer=len(hands) - 1, first=0, hands=hands, starter=starter, stock=stock)
    return s


def _names(a: Action | None) -> tuple[str, str | None]:
    assert a is not None and a.kind == PLAY
    return FRENCH.name(a.card), FRENCH.name(a.card2) if a.card2 >= 0 else None


def test_medium_sheds_an_ace_with_company_before_a_card_alone() -> None:
    s = _table([["AD", "10D", "9C", "QS"], ["8H", "KC", "9H"]], "8D", ["7C", "7S"], options=ACE)
    assert _names(medium(knowledge_from(s, 0), random.Random(1))) == ("AD", "10D")


def test_medium_gives_an_ace_the_company_worth_most() -> None:
    s = _table([["AD", "9D", "KD", "7S", "8S"], ["8H", "KC", "9H"]], "10D", ["7C", "7S"], options=ACE)
    assert _names(medium(knowledge_from(s, 0), random.Random(1))) == ("AD", "KD")


def test_medium_keeps_its_jack_as_company_while_a_plain_card_fits() -> None:
    s = _table([["AD", "JC", "9D", "7S", "8S"], ["8H", "KC", "9H"]], "10D", ["7C", "7S"], options=ACE)
    assert _names(medium(knowledge_from(s, 0), random.Random(1))) == ("AD", "9D")


@pytest.mark.parametrize("seed", range(3))
def test_strong_goes_out_with_an_ace_and_its_company(seed: int) -> None:
    s = _table([["AD", "10D"], ["8H", "KC", "9H"]], "8D", ["7C", "7S", "QC"], options=ACE)
    a = strong(knowledge_from(s, 0), random.Random(seed), budget_ms=1000.0, max_worlds=4)
    assert _names(a) == ("AD", "10D")


def test_the_bots_never_offer_an_ace_alone() -> None:
    s = _table([["AD", "AS", "10D", "KS"], ["8H", "KC", "9H"]], "8D", ["7C", "7S"], options=ACE)
    plays = [a for a in legal_actions(s, 0) if a.kind == PLAY]
    assert all(a.card2 >= 0 for a in plays if FRENCH.name(a.card)[0] == "A")
    assert {_names(a) for a in plays if a.card2 >= 0} == {("AD", "AS"), ("AD", "10D")}


def test_medium_values_a_plain_seven_as_a_plain_card() -> None:
    hands = [["7H", "9H", "KC"], ["8D", "KD", "9D"]]
    attack = _table(hands, "2H", ["3C"], "classic52")
    plain = _table(hands, "2H", ["3C"], "classic52", {"seven_draws": 0})
    assert FRENCH.name(medium(knowledge_from(attack, 0), random.Random(1)).card) == "7H"  # type: ignore[union-attr]
    assert FRENCH.name(medium(knowledge_from(plain, 0), random.Random(1)).card) == "9H"  # type: ignore[union-attr]


def test_the_bots_play_a_two_deck_classic32_table_to_its_end() -> None:
    s = new_match("classic32", 7, {"scoring": "against"})
    s = evolve(s, deal(s, "ab" * 32, "t", 0))
    rng = random.Random(5)
    for _ in range(3000):
        if s.round_over:
            break
        a = bot_decide(s, s.turn, "medium", rng, 1.0)
        assert a is not None
        for e in decide(s, a):
            s = evolve(s, e)
    assert s.round_over and s.round_points is not None and s.round_points[s.round_winner] == 0


@pytest.mark.parametrize("seed", range(3))
def test_strong_sheds_an_ace_with_company_against_a_player_about_to_go_out(seed: int) -> None:
    s = _table([["AD", "10D", "9C", "KS"], ["8H"]], "8D", ["7C", "7S", "QC", "KC"], options=ACE)
    a = strong(knowledge_from(s, 0), random.Random(seed), budget_ms=5000.0, max_worlds=60)
    assert a is not None and a.card2 >= 0 and FRENCH.name(a.card) == "AD"
