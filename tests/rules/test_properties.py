"""Properties of random legal playouts of every ruleset and seat count."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.actions import ANNOUNCEMENTS, KINDS, Action, parse_action
from services.rules.cards import RA, rank
from services.rules.decider import deal, decide, evolve
from services.rules.engine import check, legal_actions, new_match, required_call
from services.rules.errors import RuleError
from services.rules.phases import Pending
from services.rules.record import to_record
from services.rules.state import State
from services.rules.views import view

MAX_ACTIONS = 60_000  # random play is long-winded (half the calls are forgotten); real rounds are far shorter

ACE, SEVEN = {"ace_with_company": True}, {"seven_draws": 0}
games = st.sampled_from([
    ("classic32", 2, {}), ("classic32", 3, {}), ("classic32", 4, {}), ("classic52", 2, {}), ("classic52", 4, {}),
    ("classic52", 7, {}), ("candeias", 2, {}), ("candeias", 3, {}), ("candeias", 5, {}), ("colors108", 2, {}),
    ("colors108", 4, {}), ("colors108", 10, {}),
    ("classic32", 3, ACE), ("classic52", 4, {**ACE, **SEVEN}), ("classic32", 2, {**ACE, "hand_size": 7}),
    ("classic32", 4, SEVEN), ("candeias", 3, SEVEN), ("classic32", 6, {}), ("classic32", 8, {"scoring": "against"}),
    ("classic32", 3, {"scoring": "against"}),
])


def _dealt(ruleset: str, seats: int, seed: int, options: dict[str, Any]) -> State:
    s = new_match(ruleset, seats, options)
    hexseed = hashlib.sha256(str(seed).encode()).hexdigest()
    return evolve(s, deal(s, hexseed, "prop", 0))


def _deck_size(s: State) -> int:
    return len(s.rs.deck(s.n))


def _all_legal(s: State) -> list[Action]:
    return [a for seat in range(s.n) for a in legal_actions(s, seat)]


def _canonical(s: State, a: Action) -> Action:
    """The spelling legal_actions uses: no call where none is needed, no suit where none is asked."""
    hand = s.hands[a.seat]
    if a.kind == "play" and a.card2 >= 0:  # an Ace with company: the call is judged after both cards
        after = len(hand) - 2
        needed = required_call(s, a.seat, a.card2, after + 1, after)
        ok = needed is not None and (a.announce == needed or (a.announce is not None and s.rs.single_call))
        choose = a.choose if after > 0 and s.rs.chooses[a.card2] else -1
        return a._replace(announce=needed if ok else None, choose=choose)
    if a.kind == "double":
        before, after = len(hand), len(hand) - 2
    elif a.kind in ("play", "burn", "quick"):
        before, after = len(hand), len(hand) - 1
    else:
        return a
    needed = required_call(s, a.seat, a.card, before, after)
    if a.kind != "play" and after == 0:
        needed = "maumau" if s.rs.needs_mau_mau(a.card) else None
    ok = needed is not None and (a.announce == needed or (a.announce is not None and s.rs.single_call))
    choose = a.choose if a.kind == "play" and len(hand) > 1 and s.rs.chooses[a.card] else -1
    return a._replace(announce=needed if ok else None, choose=choose)


def _random_request(s: State, rng: random.Random) -> dict[str, Any]:
    """A request as a client could send it: often sensible, sometimes malformed."""
    fam = s.rs.family
    seat = rng.randrange(s.n)
    kind = rng.choice(KINDS)
    cards = s.rs.deck(s.n)
    card = fam.name(rng.choice(s.hands[seat] or cards) if rng.random() < 0.7 else rng.choice(cards))
    raw: dict[str, Any] = {"seat": seat, "do": kind}
    if kind in ("play", "burn", "quick") or rng.random() < 0.05:
        raw["card"] = card
    if kind == "double":
        raw["cards"] = [card, card]
    if kind == "play" and rng.random() < 0.3:
        raw["with"] = fam.name(rng.choice(s.hands[seat] or cards))
    if (kind in ("play", "choose") and rng.random() < 0.7) or rng.random() < 0.05:
        raw["choose"] = fam.suits[rng.randrange(4)]
    if rng.random() < 0.5:
        raw["announce"] = rng.choice(ANNOUNCEMENTS)
    if kind == "challenge":
        raw["target"] = rng.randrange(s.n)
    return raw


def _visible_cards(v: dict[str, Any], family_names: set[str]) -> set[str]:
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str) and x in family_names:
            found.add(x)
        elif isinstance(x, dict):
            for k, val in x.items():
                if k not in ("ruleset", "phase", "do", "announce", "follow", "choose"):
                    walk(val)
        elif isinstance(x, list):
            for val in x:
                walk(val)

    walk(v)
    return found


def _check_view(s: State, seat: int | None) -> None:
    fam = s.rs.family
    names = {fam.name(c) for c in s.rs.deck(s.n)}
    v = view(s, seat)
    allowed = {fam.name(s.discard[-1])}
    if seat is not None:
        allowed |= set(fam.names(s.hands[seat]))
        assert sorted(v["hand"]) == sorted(fam.names(s.hands[seat]))
    else:
        assert "hand" not in v
    if s.round_over:
        allowed |= {c for h in s.hands for c in fam.names(h)}
    assert _visible_cards(v, names) <= allowed
    assert "stock_cards" not in v and "seed" not in v


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 10**9))
def test_random_playouts_keep_every_invariant(game: tuple[str, int, dict[str, Any]], seed: int) -> None:
    ruleset, seats, options = game
    rng = random.Random(seed)
    s = _dealt(ruleset, seats, seed, options)
    total = _deck_size(s)
    steps = 0
    while not s.round_over:
        assert steps < MAX_ACTIONS, "the round did not end"
        legal = _all_legal(s)
        assert legal, "a round in play always offers someone an action"
        legal_set = set(legal)
        assert len(legal_set) == len(legal), "legal_actions lists an action twice"
        for a in legal:
            check(s, a)  # every listed action is accepted
            if a.kind == "play":  # an Ace goes with company exactly at the tables that say so
                assert (a.card2 >= 0) == (s.rs.ace_company and rank(a.card) == RA), a
        before = to_record(s)
        for _ in range(3):
            raw = _random_request(s, rng)
            try:
                candidate = parse_action(raw, s.rs.family)
                decide(s, candidate)
            except RuleError:
                assert to_record(s) == before, "a refused action changed the state"
            else:
                assert _canonical(s, candidate) in legal_set, f"accepted but not listed: {candidate}"
        if steps % 7 == 0:
            _check_view(s, rng.randrange(s.n))
            _check_view(s, None)
        on_turn = [a for a in legal if a.seat == s.turn]
        action = rng.choice(on_turn if on_turn and rng.random() < 0.9 else legal)
        for event in decide(s, action):
            s = evolve(s, event)
        assert sum(map(len, s.hands)) + len(s.stock) + len(s.discard) == total, "cards were not conserved"
        # the bots rebuild the pending kind from the top card alone
        assert not s.pending or s.rs.pending_kind(s.top) == s.pending_kind, "top and pending kind disagree"
        assert s.rs.seven_draws or s.pending_kind is not Pending.SEVEN, "a plain 7 set a pending draw"
        steps += 1
    assert s.round_points is not None and len(s.round_points) == seats
    assert 0 <= s.round_winner < seats
    _check_view(s, 0)


@settings(max_examples=12, deadline=None)
@given(games, st.integers(0, 10**9))
def test_a_whole_match_ends_with_winners(game: tuple[str, int, dict[str, Any]], seed: int) -> None:
    ruleset, seats, options = game
    rng = random.Random(seed)
    s = new_match(ruleset, seats, {**options, "target_points": 30} if ruleset != "candeias" else options)
    for round_no in range(40):
        s = evolve(s, deal(s, hashlib.sha256(f"{seed}:{round_no}".encode()).hexdigest(), "m", round_no))
        while not s.round_over:
            s = evolve(s, decide(s, rng.choice([a for a in legal_actions(s, s.turn)]))[0])
        if s.match_over:
            break
    assert s.match_over
    assert s.match_winners and all(0 <= w < seats for w in s.match_winners)
