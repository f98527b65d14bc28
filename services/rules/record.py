"""A state as a plain record (cards by name) and back: what crosses a wire or lands in a snapshot.

>>> from services.rules.engine import new_match, start_round
>>> s = new_match("candeias", 2)
>>> start_round(s, 1, 0, [["5H", "9C"], ["3H", "10C"]], "5C", ["3C", "2S"])
>>> r = to_record(s)
>>> to_record(from_record(r)) == r
True
"""

from __future__ import annotations

from typing import Any

from services.rules.phases import Pending, Phase
from services.rules.rulesets import make_ruleset
from services.rules.state import State

_INTS = ("turn", "direction", "follow", "pending", "chain", "last_player", "quick_from",
         "mau_offender", "mau_guard", "w4_seat", "finisher", "stuck", "dealer", "first", "rounds_played",
         "round_winner", "reshuffles")
_BOOLS = ("opening", "burn_announced", "w4_bluff", "double_points", "round_over", "match_over")
_INT_LISTS = ("scores", "match_winners", "tiebreak")


def to_record(s: State) -> dict[str, Any]:
    fam = s.rs.family
    r: dict[str, Any] = {"ruleset": s.rs.name, "options": dict(s.rs.options), "seats": s.n,
                         "active": list(s.active), "hands": [{"cards": fam.names(h)} for h in s.hands],
                         "stock": fam.names(s.stock[::-1]), "discard": fam.names(s.discard),
                         "drawn_card": fam.name(s.drawn_card) if s.drawn_card >= 0 else "",
                         "round_points": list(s.round_points or ()), "has_round_points": s.round_points is not None,
                         "seed": s.seed or ""}
    r["phase"], r["pending_kind"] = int(s.phase), int(s.pending_kind)
    r["draws"] = s.draws
    for k in _INTS:
        r[k] = getattr(s, k)
    for k in _BOOLS:
        r[k] = getattr(s, k)
    for k in _INT_LISTS:
        r[k] = list(getattr(s, k))
    return r


def from_record(r: dict[str, Any]) -> State:
    """Rebuild a state; raises ``KeyError``/``ValueError`` (from the card names or options) when malformed."""
    rs = make_ruleset(r["ruleset"], dict(r.get("options") or {}))
    fam = rs.family
    s = State(rs, int(r["seats"]))
    s.active = [bool(x) for x in r["active"]]
    s.hands = [[fam.parse(c) for c in h["cards"]] for h in r["hands"]]
    s.stock = [fam.parse(c) for c in r["stock"]][::-1]
    s.discard = [fam.parse(c) for c in r["discard"]]
    s.drawn_card = fam.parse(r["drawn_card"]) if r.get("drawn_card") else -1
    s.round_points = [int(x) for x in r["round_points"]] if r.get("has_round_points") else None
    s.seed = r.get("seed") or None
    s.phase, s.pending_kind = Phase(int(r["phase"])), Pending(int(r["pending_kind"]))
    s.draws = int(r.get("draws", 0))  # a record made before turns could draw more than once has none
    for k in _INTS:
        setattr(s, k, int(r[k]))
    for k in _BOOLS:
        setattr(s, k, bool(r[k]))
    for k in _INT_LISTS:
        setattr(s, k, [int(x) for x in r.get(k, ())])
    if len(s.hands) != s.n or len(s.active) != s.n or len(s.scores) != s.n or (not s.discard and not s.round_over):
        raise ValueError("the state's seats, hands and scores do not agree")
    return s
