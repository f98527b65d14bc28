"""``decide_folding`` (the verifier's decide, on the copy its fold steps) decides exactly as ``decide``."""

from __future__ import annotations

import random

import pytest

from services.rules.actions import Action
from services.rules.decider import ActionTaken, deal, decide, decide_folding, evolve
from services.rules.engine import legal_actions, new_match
from services.rules.errors import RuleError
from services.rules.state import _SLOTS, State


def _snapshot(s: State) -> dict[str, str]:
    return {name: repr(getattr(s, name)) for name in _SLOTS}


@pytest.mark.parametrize("ruleset", ["classic32", "classic52", "candeias", "colors108"])
def test_every_action_of_random_games_is_decided_as_decide_does_and_folded_once(ruleset: str) -> None:
    rng = random.Random(ruleset)
    s = new_match(ruleset, 4)
    rounds = 0
    for _ in range(3000):
        if s.round_over:
            if s.match_over or rounds == 4:
                break
            s = evolve(s, deal(s, f"{rng.getrandbits(256):064x}", "t", rounds))
            rounds += 1
            continue
        action = rng.choice(list(legal_actions(s, s.turn)))
        before, folds = _snapshot(s), list[int]()

        def fold(s: State = s, action: Action = action, folds: list[int] = folds) -> State:
            folds.append(1)
            return evolve(s, ActionTaken(action))

        events = decide_folding(s, action, fold)
        assert events == decide(s, action) and len(folds) == 1
        assert _snapshot(s) == before  # the state it was given is as it was, its draw log too
        after = evolve(s, ActionTaken(action))
        s = after
    assert rounds >= 2


def test_a_refused_action_is_not_folded_and_a_fold_without_the_lent_log_is_decided_afresh() -> None:
    s = new_match("classic52", 3)
    s = evolve(s, deal(s, "cd" * 32, "t", 0))
    wrong_seat = next(iter(legal_actions(s, s.turn)))._replace(seat=(s.turn + 1) % 3)  # not on turn
    with pytest.raises(RuleError):
        decide_folding(s, wrong_seat, lambda: pytest.fail("folded a refused action"))
    for action in legal_actions(s, s.turn):
        fresh = evolve(s, ActionTaken(action))  # the state after, but not stepped with the lent log

        def fold(fresh: State = fresh) -> State:
            return fresh

        assert decide_folding(s, action, fold) == decide(s, action)
