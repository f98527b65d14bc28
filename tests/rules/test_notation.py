"""The move notation: every legal action of every ruleset round-trips, and malformed text is refused.

The examples the client's JS mirror is tested against (``gateway/static/tests/moves.json``) are
this module's: ``python -m tests.rules.test_notation`` writes them again, and
``test_the_clients_examples_are_pythons`` fails while the file and the Python side differ.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.rules.actions import KINDS, Action, MoveError, format_move, move_fields, move_text, parse_move
from services.rules.decider import deal, decide, evolve
from services.rules.engine import legal_actions, new_match
from services.rules.errors import BadRequest
from services.rules.rulesets import RULESETS
from services.rules.state import State

EXAMPLES = Path(__file__).parents[2] / "gateway/static/tests/moves.json"
TABLES = [(name, seats, options) for name in sorted(RULESETS) for seats in (2, 4)
          for options in ({}, {"ace_with_company": True}) if not options or name.startswith("classic")]

# Spellings a tab, a stored event or a hand-typed command might bring: each refused with MoveError.
MALFORMED = ["", "play", "7H ", " 7H", "play 7H", "7H=", "=S", "7H&", "&JC", "burn:", "burn", "double:7H",
             "double:7H,", "challenge:", "challenge:x", "challenge:-1", "challenge:123", "challenge:02",
             "choose:", "draw:7H",
             "7H!!!", "!", "pass?", "x" * 40, "7H=S=S:"]


def _playout(name: str, seats: int, options: dict[str, Any], seed: int) -> list[tuple[State, Action]]:
    """Every (state, legal action) of one random round of a table."""
    s = new_match(name, seats, options)
    s = evolve(s, deal(s, hashlib.sha256(str(seed).encode()).hexdigest(), "notation", 0))
    rng, seen = random.Random(seed), list[tuple[State, Action]]()
    for _ in range(400):
        if s.round_over:
            break
        legal = [a for seat in range(s.n) for a in legal_actions(s, seat)]
        seen.extend((s, a) for a in legal)
        for event in decide(s, rng.choice(legal)):
            s = evolve(s, event)
    return seen


@pytest.mark.parametrize(("name", "seats", "options"), TABLES)
def test_every_legal_action_round_trips(name: str, seats: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        for s, a in _playout(name, seats, options, seed):
            text = format_move(a, s.rs.family)
            assert parse_move(text, a.seat, s.rs.family) == a, text
            assert ":" in text or a.kind == "play" or text.rstrip("!") == a.kind


def test_every_kind_has_a_spelling() -> None:
    assert {move_fields(e["move"])["do"] for e in _examples()["moves"]} == set(KINDS)


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_text_is_refused_with_move_error(text: str) -> None:
    with pytest.raises(MoveError):
        move_fields(text)


@pytest.mark.parametrize("text", ["ZZ", "7H=S", "JH=R", "AH&ZZ=S", "double:7H,QQ", "choose:X", "draw!"])
def test_a_well_formed_move_the_deck_refuses_is_a_move_error_too(text: str) -> None:
    with pytest.raises(MoveError):
        parse_move(text, 0, new_match("classic32", 2).rs.family)


def test_a_move_error_is_a_bad_request() -> None:
    assert issubclass(MoveError, BadRequest)  # the table service and the gateway refuse it as bad_request


@given(st.one_of(st.text(max_size=40), st.integers(), st.none(), st.lists(st.text(max_size=3))))
def test_any_input_is_read_or_refused_never_a_crash(text: Any) -> None:
    try:
        fields = move_fields(text)
    except MoveError:
        return
    assert move_text(fields) == text


def _examples() -> dict[str, Any]:
    """One move of each shape both families have, from the rules' own legal actions, and the malformed ones."""
    moves: dict[str, dict[str, Any]] = {}
    for name, seats, options in TABLES:
        for s, a in _playout(name, seats, options, 0):
            text = format_move(a, s.rs.family)
            shape = (a.kind, a.card2 >= 0, a.choose >= 0, a.announce)
            moves.setdefault(repr(shape), {"move": text, "fields": move_fields(text)})
    for text in ("quick:7H", "challenge:2", "challenge_wild", "choose:S", "double:7H,7H!!", "burn:R+2!", "W+4=G!"):
        moves.setdefault(text, {"move": text, "fields": move_fields(text)})
    return {"moves": sorted(moves.values(), key=lambda e: e["move"]), "malformed": MALFORMED}


def test_the_clients_examples_are_pythons() -> None:
    assert json.loads(EXAMPLES.read_text()) == _examples(), "run: .venv/bin/python -m tests.rules.test_notation"


if __name__ == "__main__":
    EXAMPLES.write_text(json.dumps(_examples(), indent=1) + "\n")
