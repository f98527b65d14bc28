"""The personalities: always a legal action, always the call, a few greedy habits, the strong bot's search."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from services.bots import strategy
from services.bots.knowledge import SeatKnowledge, knowledge_from
from services.bots.strategy import LEVELS, announced, decide, decide_out_of_turn, medium, search, strong, weak
from services.bots.worlds import World, sample_world
from services.rules.actions import ANNOUNCE_KINDS, BURN, CHALLENGE, DRAW, PLAY, QUICK, Action
from services.rules.cards import FRENCH, french_deck
from services.rules.engine import apply, new_match, start_round
from services.rules.state import State
from tests.bots.rounds import TABLES, random_states, table_id

Table = tuple[str, int, dict[str, Any]]


def _fast_strong(k: SeatKnowledge, rng: random.Random, budget_ms: float = 100.0) -> Action | None:
    return strong(k, rng, budget_ms=1000.0, max_worlds=2)


BOTS: dict[str, Callable[[SeatKnowledge, random.Random, float], Action | None]] = {
    "weak": weak, "medium": medium, "strong": _fast_strong}


def _knowledges(table: Table, every: int) -> list[SeatKnowledge]:
    """The knowledge of every seat that may act, at points along random rounds."""
    name, seats, options = table
    out = []
    for s in random_states(name, seats, options, 2, seed=21, every=every):
        out += [knowledge_from(s, seat) for seat in range(s.n) if not s.round_over]
    return [k for k in out if k.legal]


def _table(hands: list[list[str]], starter: str, stock: list[str], ruleset: str = "classic32",
           options: dict[str, Any] | None = None, first: int = 0) -> State:
    s = new_match(ruleset, len(hands), options)
    start_round(s, dealer=len(hands) - 1, first=first, hands=hands, starter=starter, stock=stock)
    return s


def _card(a: Action | None) -> str:
    assert a is not None
    return FRENCH.name(a.card)


@pytest.mark.parametrize("level", sorted(BOTS))
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_bot_on_turn_picks_a_legal_action(table: Table, level: str) -> None:
    rng = random.Random(2)
    for k in _knowledges(table, every=9 if level == "strong" else 3):
        if k.on_turn:
            assert BOTS[level](k, rng, 1.0) in k.legal


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_bot_out_of_turn_takes_a_legal_chance_or_none(table: Table, level: str) -> None:
    rng = random.Random(3)
    for k in _knowledges(table, every=50):
        if not k.on_turn:
            a = decide_out_of_turn(k, rng, level)
            assert a is None or a in k.legal


@pytest.mark.parametrize("level", sorted(BOTS))
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_bot_always_makes_the_call_a_play_needs(table: Table, level: str) -> None:
    rng = random.Random(4)
    for k in _knowledges(table, every=1 if level != "strong" else 4):
        if not any(a.announce for a in k.legal):
            continue
        a = BOTS[level](k, rng, 1.0) if k.on_turn else decide_out_of_turn(k, rng, level)
        if a is not None and a.kind in ANNOUNCE_KINDS:
            assert a.announce is not None or a._replace(announce="mau") not in k.legal
            assert a.announce is not None or a._replace(announce="maumau") not in k.legal


def test_announced_drops_only_the_silent_spelling() -> None:
    s = _table([["7H", "9S"], ["8H", "KD"]], "9H", ["AC"])
    k = knowledge_from(s, 0)
    assert sorted((a.kind, a.announce or "") for a in announced(k.legal)) == [
        ("draw", ""), ("play", "mau"), ("play", "mau")]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_announces_the_last_but_one_card(level: str) -> None:
    for seed in range(20):
        s = _table([["7H", "9S"], ["8H", "KD"]], "9H", ["AC"])
        a = decide(knowledge_from(s, 0), level, random.Random(seed), budget_ms=2)
        assert a is not None and (a.kind == DRAW or a.announce == "mau")


def test_medium_plays_rather_than_draws() -> None:
    s = _table([["7H", "QS", "10C"], ["8H", "KD", "9D"]], "QC", ["AD"])
    assert medium(knowledge_from(s, 0), random.Random(1)) != Action(DRAW, 0)


def test_medium_sheds_the_highest_points_first() -> None:
    s = _table([["9C", "AC", "8D"], ["8H", "KD", "9D"]], "10C", ["AD"])
    assert _card(medium(knowledge_from(s, 0), random.Random(1))) == "AC"


def test_medium_keeps_its_jack_while_another_card_fits() -> None:
    s = _table([["JC", "7D", "9H"], ["8H", "KD", "9D"]], "10D", ["AD"])
    assert _card(medium(knowledge_from(s, 0), random.Random(1))) == "7D"


def test_medium_chooses_the_suit_it_holds_most_of() -> None:
    s = _table([["JC", "7H", "9H", "AH", "8S"], ["8D", "KD", "9D"]], "10D", ["AD"])
    a = medium(knowledge_from(s, 0), random.Random(1))
    assert a is not None and _card(a) == "JC" and FRENCH.suit_name(a.choose) == "H"


def test_medium_answers_a_seven_with_a_seven() -> None:
    s = _table([["8H", "7H", "KD"], ["7C", "9C", "10S"]], "10C", ["AD", "AS", "QS"])
    apply(s, Action(PLAY, 0, FRENCH.parse("7H")))
    assert _card(medium(knowledge_from(s, 1), random.Random(1))) == "7C"


def test_medium_and_strong_challenge_a_missed_call() -> None:
    s = _table([["8H", "9H"], ["7C", "9C", "10S"], ["QH", "QC", "2S"]], "10H", ["AD", "AS"], ruleset="classic52")
    apply(s, Action(PLAY, 0, FRENCH.parse("9H")))  # one card left, without "Mau"
    assert decide_out_of_turn(knowledge_from(s, 2), random.Random(1)) == Action(CHALLENGE, 2, target=0)
    assert strong(knowledge_from(s, 1), random.Random(1), max_worlds=1) == Action(CHALLENGE, 1, target=0)


def test_out_of_turn_takes_a_quick_action_with_its_call() -> None:
    s = _table([["5H", "9C", "10S"], ["6C", "2S", "3S"], ["5H", "4D"], ["2C", "3C", "4C"]], "5D", ["AD", "AS"],
               ruleset="candeias")
    apply(s, Action(PLAY, 0, FRENCH.parse("5H")))
    a = decide_out_of_turn(knowledge_from(s, 2), random.Random(1))
    assert a == Action(QUICK, 2, FRENCH.parse("5H"), announce="mau")


def test_out_of_turn_takes_an_opening_burn() -> None:
    s = _table([["5H", "9C"], ["6C", "2S"], ["5D", "4D", "3D"]], "5D", ["AD", "AS"], ruleset="candeias")
    assert decide_out_of_turn(knowledge_from(s, 2), random.Random(1)) == Action(BURN, 2, FRENCH.parse("5D"))


def test_out_of_turn_is_none_without_a_chance() -> None:
    s = _table([["5H", "9C"], ["6C", "2S"]], "5D", ["AD", "AS"], ruleset="candeias")
    assert decide_out_of_turn(knowledge_from(s, 1), random.Random(1)) is None


def test_strong_goes_out_when_it_can() -> None:
    s = _table([["9S"], ["8H", "KD", "9D"], ["AC", "AD", "7D"]], "10S", ["KS", "QS"])
    assert strong(knowledge_from(s, 0), random.Random(1), max_worlds=3) == Action(PLAY, 0, FRENCH.parse("9S"))


def test_strong_searches_only_among_the_views_actions() -> None:
    s = _table([["9S", "JH", "7S", "KC"], ["8H", "KD", "9D"], ["AC", "AD", "7D"]], "10S", ["KS", "QS", "8C"])
    k = knowledge_from(s, 0)
    assert all(strong(k, random.Random(seed), max_worlds=2) in k.legal for seed in range(10))


def _diamonds_gone() -> SeatKnowledge:
    """Seat 0 on turn with a Jack as its only play, the other seat on one card, every other diamond on the pile."""
    mine = ["JH", "2C", "3C", "4C", "5D"]
    piled = [c for c in map(FRENCH.name, french_deck()) if c.endswith("D") and c not in mine]
    stock = [c for c in map(FRENCH.name, french_deck()) if c not in {*mine, *piled, "KC", "9S"}]
    s = _table([mine, ["KC"]], "9S", stock, ruleset="classic52")
    s.discard = [FRENCH.parse(c) for c in piled] + s.discard
    return knowledge_from(s, 0)


@pytest.mark.parametrize("seed", range(3))
def test_strong_names_the_suit_a_player_on_one_card_cannot_hold(seed: int) -> None:
    """Tito names the suit he holds most of (clubs); every other diamond is on the pile, so
    after diamonds the last card only goes out as a Jack: Carmen names diamonds."""
    k = _diamonds_gone()
    tito, carmen = medium(k, random.Random(seed)), strong(k, random.Random(seed), budget_ms=1e6, max_worlds=200)
    assert tito is not None and carmen is not None and _card(carmen) == _card(tito) == "JH"
    assert (FRENCH.suit_name(tito.choose), FRENCH.suit_name(carmen.choose)) == ("C", "D")


def test_the_search_stops_once_one_candidate_is_clearly_best() -> None:
    """Diamonds win far more often than any other suit: the search drops the others and ends
    long before the worlds it was allowed."""
    k = _diamonds_gone()
    acts = announced(k.legal)
    world, worlds = World.prepare(k), []

    def sample(rng: random.Random) -> State:
        worlds.append(sample_world(k, rng, world))
        return worlds[-1]

    gains = search(k, acts, 0, random.Random(1), budget_ms=1e6, max_worlds=5000, sample=sample)
    best = max(range(len(acts)), key=lambda i: gains[i][0])
    assert FRENCH.suit_name(acts[best].choose) == "D" and len(worlds) < 1000


def test_strong_never_weighs_keeping_her_cards_against_a_card_she_can_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """candeias lets her draw while a card fits; her worlds overvalue a draw or a pass there, so
    she searches only among the cards she can play."""
    s = _table([["9S", "5S", "KC", "2H"], ["8H", "KD", "9D"], ["AC", "AD", "7D"]], "10S",
               ["KS", "QS", "8C", "3D"], ruleset="candeias")
    k = knowledge_from(s, 0)
    assert Action(DRAW, 0) in k.legal
    searched: list[list[Action]] = []
    real = strategy.search

    def spy(k: SeatKnowledge, cands: list[Action], *args: Any, **kwargs: Any) -> list[tuple[float, float]]:
        searched.append(list(cands))
        return real(k, cands, *args, **kwargs)

    monkeypatch.setattr(strategy, "search", spy)
    assert strong(k, random.Random(1), budget_ms=1e6, max_worlds=32) in k.legal
    assert searched and {a.kind for a in searched[0]} == {PLAY}


def test_a_search_counts_a_rollout_per_candidate_and_world() -> None:
    """Below the first look at the contenders every candidate is rolled out in every world that allows it:
    the count is the worlds times the candidates, Tito's favourite once a world."""
    k = _diamonds_gone()
    acts = announced(k.legal)
    counted = strategy.Searched()
    search(k, acts, 0, random.Random(1), budget_ms=1e6, max_worlds=strategy.PRUNE_EVERY - 1, searched=counted)
    assert counted.worlds == [strategy.PRUNE_EVERY - 1]
    assert counted.rollouts == [(strategy.PRUNE_EVERY - 1) * len(acts)]


def test_strong_tells_what_her_searches_came_to_and_decides_as_without() -> None:
    k = _diamonds_gone()
    counted = strategy.Searched()
    assert strong(k, random.Random(3), budget_ms=1e6, max_worlds=40, searched=counted) == strong(
        k, random.Random(3), budget_ms=1e6, max_worlds=40)
    assert len(counted.rollouts) == 1 and counted.worlds[0] <= 40 < counted.rollouts[0]
