"""The benchmark's outside anchor: our engine as an OpenSpiel game (``bench/openspiel_maumau.py``) and
OpenSpiel's ISMCTS seated by ``maumau bench bots --anchor ismcts``.

They need the ``anchor`` extra, which ``make test`` installs (``make bench-bots`` too).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

from services.rules.decider import deal, evolve
from services.rules.engine import legal_actions, new_match
from services.rules.state import State
from tools.bench.bots import BENCH_DIR

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the 'anchor' extra) is not installed: make bench-bots")
sys.path.insert(0, str(BENCH_DIR))
from ismcts_anchor import IsmctsAnchor  # noqa: E402
from openspiel_maumau import GAME_NAME, MauMauGame, MauMauState  # noqa: E402

RULESETS = ["classic32", "classic52", "candeias", "colors108"]


def dealt(ruleset: str, players: int, seed: int) -> State:
    s0 = new_match(ruleset, players)
    return evolve(s0, deal(s0, f"{seed:064x}", "t", 0))


def random_states(game: MauMauGame, seed: int, every: int = 7) -> Iterator[MauMauState]:
    """States along a round played at random through the OpenSpiel API, one in ``every`` decisions."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.apply_action(seed % game.deals)
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1


def test_the_game_is_registered_and_plays_to_a_winner_through_openspiel() -> None:
    game = pyspiel.load_game(GAME_NAME, {"ruleset": "colors108", "players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(5)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_legal_action_has_a_stable_code_that_decodes_to_it(ruleset: str) -> None:
    game = MauMauGame({"ruleset": ruleset, "players": 4})
    for state in random_states(game, 3, every=1):
        seat = state.current_player()
        codes = state.legal_actions()
        assert codes == sorted(set(codes)) and all(0 <= c < game.num_distinct_actions() for c in codes)
        assert [game.code.encode(game.code.decode(c, seat)) for c in codes] == codes


def test_a_seats_information_state_does_not_change_with_the_other_seats_hidden_cards() -> None:
    game = MauMauGame({"ruleset": "classic52", "players": 4})
    s = dealt("classic52", 4, 9)
    other = s.copy()  # seats 1 and 2 swap their hands, seat 3 swaps a card with the stock; seat 0 keeps its own
    other.hands[1], other.hands[2] = other.hands[2], other.hands[1]
    other.hands[3][0], other.stock[0] = other.stock[0], other.hands[3][0]
    a, b = MauMauState.at(game, s, s.turn), MauMauState.at(game, other, s.turn)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)  # seat 1 does see its own hand


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resampling_keeps_the_seats_hand_the_public_cards_and_its_information_state(ruleset: str) -> None:
    game = MauMauGame({"ruleset": ruleset, "players": 4})
    rng = random.Random(2)
    moved = 0
    for state in random_states(game, 4):
        seat = state.current_player()
        s = state.engine
        assert s is not None
        for _ in range(3):
            world = state.resampled(seat, rng)
            w = world.engine
            assert w is not None and w is not s
            assert sorted(w.hands[seat]) == sorted(s.hands[seat])
            assert w.discard == s.discard and [len(h) for h in w.hands] == [len(h) for h in s.hands]
            assert len(w.stock) == len(s.stock)
            assert world.current_player() == seat
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.legal_actions() == state.legal_actions()
            moved += any(sorted(a) != sorted(b) for a, b in zip(w.hands, s.hands, strict=True))
    assert moved > 0, "the other hands are dealt anew"


def test_openspiels_own_resampling_entry_point_is_consistent_too() -> None:
    game = MauMauGame({"ruleset": "candeias", "players": 3})
    for state in random_states(game, 6, every=11):
        seat = state.current_player()
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(seat) == state.information_state_string(seat)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_ismcts_anchor_takes_a_legal_action_and_leaves_the_state_alone(ruleset: str) -> None:
    anchor = IsmctsAnchor(ruleset, 3, budget_ms=2)
    s = dealt(ruleset, 3, 11)
    before = s.copy()
    a = anchor.decide(s, s.turn, random.Random(0))
    assert a in set(legal_actions(s, s.turn))
    assert (s.hands, s.stock, s.discard, s.turn) == (before.hands, before.stock, before.discard, before.turn)
    assert anchor.simulations >= 2


def test_the_command_pairs_strong_and_the_anchor_on_the_same_deals() -> None:
    proc = subprocess.run([sys.executable, "-m", "cli.main", "bench", "bots", "--ruleset", "classic52",
                           "--players", "4", "--games", "4", "--ms", "2", "--anchor", "ismcts", "--workers", "1"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["anchor"], out["games"], out["games_played"]) == ("ismcts", 4, 8)
    assert out["strong_minus_anchor"] == round(out["strong_rate"] - out["anchor_rate"], 4)
    lo, hi = out["strong_minus_anchor_ci95"]
    assert lo <= out["strong_minus_anchor"] <= hi
    assert out["anchor_ms_used"] > 0.0 and out["strong_ms_used"] > 0.0
    assert out["anchor_simulations"] >= 2  # ISMCTS's least: the root, then one move
