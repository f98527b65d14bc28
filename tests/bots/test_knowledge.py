"""A seat's knowledge: built from its view and the public pile only, with no way back to the state."""

from __future__ import annotations

import gc
import random
from collections import Counter
from typing import Any

import pytest

from services.bots.knowledge import SeatKnowledge, from_view, knowledge_from, unseen
from services.rules.actions import Action
from services.rules.state import State
from services.rules.views import view
from tests.bots.rounds import TABLES, random_states, table_id


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through the garbage collector's referents (types and modules excepted)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type) or type(obj).__name__ == "module":
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def _card_fields(k: SeatKnowledge) -> list[int]:
    cards = [*k.hand, *k.discard, k.top]
    for a in k.legal:
        cards += [c for c in (a.card, a.card2) if c >= 0]
    return cards


def _hide_differently(s: State, seat: int, rng: random.Random) -> State:
    """The same public table with the hidden cards (other hands, stock) dealt another way."""
    t = s.copy()
    others = [i for i in range(t.n) if i != seat]
    pool = [c for i in others for c in t.hands[i]] + t.stock
    rng.shuffle(pool)
    for i in others:
        n = len(t.hands[i])
        t.hands[i], pool = pool[:n], pool[n:]
    t.stock = pool
    return t


def _states(table: tuple[str, int, dict[str, Any]], rounds: int = 2) -> list[State]:
    name, seats, options = table
    return [s for s in random_states(name, seats, options, rounds, seed=5, every=7) if not s.round_over]


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_no_state_is_reachable_from_a_knowledge(table: tuple[str, int, dict[str, Any]]) -> None:
    for s in _states(table, rounds=1)[::5]:
        k = knowledge_from(s, s.turn)
        assert not any(isinstance(o, State) for o in _reachable(k))
        assert all(o is not s.hands and o is not s.stock for o in _reachable(k))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_knowledge_holds_no_card_of_another_hand_unless_public(table: tuple[str, int, dict[str, Any]]) -> None:
    for s in _states(table):
        for seat in range(s.n):
            k = knowledge_from(s, seat)
            assert Counter(k.hand) == Counter(s.hands[seat]) and k.discard == tuple(s.discard)
            assert set(_card_fields(k)) <= set(s.hands[seat]) | set(s.discard)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_knowledge_is_the_same_however_the_hidden_cards_lie(table: tuple[str, int, dict[str, Any]]) -> None:
    rng = random.Random(3)
    for s in _states(table):
        seat = rng.randrange(s.n)
        assert knowledge_from(_hide_differently(s, seat, rng), seat) == knowledge_from(s, seat)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_unseen_cards_are_the_other_hands_and_the_stock(table: tuple[str, int, dict[str, Any]]) -> None:
    for s in _states(table):
        k = knowledge_from(s, s.turn)
        hidden = [c for i, h in enumerate(s.hands) if i != s.turn for c in h] + s.stock
        assert Counter(unseen(k)) == Counter(hidden)


def test_the_knowledge_carries_the_view() -> None:
    s = next(x for x in random_states("classic32", 4, {}, 1, seed=2) if not x.round_over)
    k = knowledge_from(s, 2)
    v = view(s, 2)
    assert (k.seat, list(k.hand_sizes), k.stock, k.pending, k.phase) == (2, v["hand_sizes"], v["stock"],
                                                                         v["pending_draw"], v["phase"])
    assert sorted(k.hand) == sorted(s.hands[2]) and k.discard == tuple(s.discard)
    assert all(isinstance(a, Action) for a in k.legal) and len(k.legal) == len(v["legal_actions"])


def test_a_pile_that_does_not_match_the_view_is_refused() -> None:
    s = next(x for x in random_states("classic32", 4, {}, 1, seed=2) if not x.round_over)
    with pytest.raises(ValueError):
        from_view(view(s, 0), s.rs.options, s.discard[:-1])
