"""``maumau bench rules``: uniformly random legal playouts through the engine, as fast as it goes.

An action is one accepted decision of the seat on turn (a play with its suit choice and
call, a draw, a pass, …); a game is one round from a seeded deal to its end. The
figures are comparable with ``bench/peers.py``, which drives RLCard and OpenSpiel the
same way.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from math import floor

from services.rules.decider import deal
from services.rules.engine import apply, new_match, start_round
from services.rules.legal import legal_list
from services.rules.rulesets import make_ruleset


def run(ruleset: str, players: int, seconds: float, seed: int) -> str:
    rs = make_ruleset(ruleset, {})
    rng = random.Random(seed)
    uniform = rng.random
    # The loop's own names as locals, and ``floor`` (a C function) for ``int`` (a type called): what is timed is
    # the engine's work, not the interpreter's lookups by name; the same choices (``floor`` of a positive float is
    # ``int`` of it). ``legal_list`` and ``apply`` are still called once an action, as any caller calls them.
    legal, step, size = legal_list, apply, len
    games = actions = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        s = new_match(rs, players)
        round_seed = hashlib.sha256(f"{seed}:{games}".encode()).hexdigest()
        d = deal(s, round_seed, "bench", 0)
        start_round(s, d.dealer, d.first, [list(h) for h in d.hands], d.starter, list(d.stock), round_seed)
        while not s.round_over:
            options = legal(s, s.turn)
            step(s, options[floor(uniform() * size(options))])
            actions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return json.dumps({
        "engine": "maumau", "ruleset": ruleset, "players": players, "games": games, "actions": actions,
        "seconds": round(elapsed, 3), "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
    })
