"""The seeds' table options outside the scripts: seats and decks, refused combinations, scoring against."""

from __future__ import annotations

from collections import Counter

import pytest

from services.rules.catalog import catalog
from services.rules.engine import new_match
from services.rules.rulesets import OptionError, make_ruleset


@pytest.mark.parametrize(("seats", "cards", "copies"), [(2, 32, 1), (5, 32, 1), (6, 64, 2), (8, 64, 2)])
def test_classic32_takes_two_decks_from_six_seats(seats: int, cards: int, copies: int) -> None:
    deck = make_ruleset("classic32", {}).deck(seats)
    assert len(deck) == cards and set(Counter(deck).values()) == {copies}


@pytest.mark.parametrize("seats", [1, 9])
def test_classic32_seats_two_to_eight(seats: int) -> None:
    with pytest.raises(OptionError):
        new_match("classic32", seats)
    assert new_match("classic32", 8).n == 8


@pytest.mark.parametrize(("ruleset", "options"), [
    ("classic52", {"ace_with_company": True, "ace": "draw_one"}),
    ("classic52", {"ace_with_company": True, "ace": "skip_all"}),
    ("candeias", {"ace_with_company": True}),
    ("classic32", {"seven_draws": 1}),
    ("classic32", {"ace_with_company": 1}),
    ("classic32", {"scoring": "none"}),
    ("classic52", {"scoring": "against"}),
    ("colors108", {"ace_with_company": True}),
])
def test_refused_options(ruleset: str, options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        make_ruleset(ruleset, options)


def test_scoring_against_turns_the_goal_and_the_winner_around() -> None:
    collect, against = make_ruleset("classic32", {}), make_ruleset("classic32", {"scoring": "against"})
    assert not collect.lowest_wins and against.lowest_wins
    assert against.leaders([30, 10, 10], [0, 1, 2]) == [1, 2]
    s = new_match(against, 4, scores=[99, 10, 20, 30])
    against.end_match(s, 1)
    assert not s.match_over  # 100, not 100 per seat
    s.scores = [100, 10, 20, 10]
    against.end_match(s, 1)
    assert s.match_over and s.match_winners == [1, 3]


def test_the_catalog_offers_the_new_options_in_both_languages() -> None:
    rs = {r["name"]: r for r in catalog()["rulesets"]}
    c32 = {o["name"]: o for o in rs["classic32"]["options"]}
    assert c32["ace_with_company"]["kind"] == "flag" and c32["ace_with_company"]["default"] is False
    assert c32["seven_draws"]["kind"] == "flag" and (c32["seven_draws"]["on"], c32["seven_draws"]["off"]) == (2, 0)
    assert [v["value"] for v in c32["scoring"]["values"]] == ["collect", "against"]
    assert c32["scoring"]["default"] == "collect"
    for option in ("ace_with_company", "seven_draws", "scoring"):
        assert set(c32[option]["label"]) == {"pt-BR", "en"}
    assert all(set(v["label"]) == {"pt-BR", "en"} for v in c32["scoring"]["values"])
    assert rs["classic32"]["seats"] == {"min": 2, "max": 8}
    assert rs["classic32"]["goal"]["8"] == 800
    assert "ace_with_company" not in {o["name"] for o in rs["candeias"]["options"]}
    assert {name: rs[name]["turns"] for name in ("classic32", "classic52", "candeias", "colors108")} == {
        "classic32": "counter_clockwise", "classic52": "clockwise", "candeias": "counter_clockwise",
        "colors108": "counter_clockwise"}
