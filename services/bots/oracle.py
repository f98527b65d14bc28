"""The oracle: a bench-only bot that sees the whole state, the ceiling of what knowledge can buy.

It searches as the strong bot does (``strategy.strong``): every legal action (with its
call) played on and the round rolled out by ``worlds.rollout`` with the same dice for every
action, Tito's favourite kept unless another does better. But it sees every hand: only the
stock's order and the seed of its reshuffles are dealt at random in each pass over the
actions (the same for every action of a pass). Knowing the hands is what a seat could at best
learn from the play; knowing the stock would be foresight no reading of the table gives, and
made the oracle's margin a ceiling nobody could approach (classic52: 61.7 % against 40.9 %
knowing the hands alone). Out of turn it does what the strong bot does. How much more often
it wins than the medium bot is what knowing the hands is worth in a ruleset to this search;
``maumau bench bots --oracle`` reports where the strong bot stands between the two.

Never offered to players: it reads other seats' hands. Only ``tools/bench/bots.py`` seats it.

>>> import random
>>> from services.rules.decider import deal, evolve
>>> from services.rules.engine import legal_actions, new_match
>>> s0 = new_match("classic52", 4)
>>> s = evolve(s0, deal(s0, seed="33" * 32, table_id="t", round_no=0))
>>> oracle(s, s.turn, random.Random(0), budget_ms=5) in set(legal_actions(s, s.turn))
True
"""

from __future__ import annotations

import random
import time

from services.bots.knowledge import knowledge_from
from services.bots.strategy import announced, decide, score, suit_counts
from services.bots.worlds import rollout
from services.rules.actions import CHALLENGE, Action
from services.rules.cards import Seat
from services.rules.engine import apply
from services.rules.state import State


def oracle(s: State, seat: Seat, rng: random.Random, budget_ms: float, max_passes: int | None = None) -> Action | None:
    """The oracle's action at ``seat`` (``None``: it lets a chance out of turn go). ``s`` is not changed.

    ``max_passes`` caps the passes over the actions (tests use it for a search that does not depend on time).
    """
    k = knowledge_from(s, seat)
    if not k.on_turn:
        return decide(k, "strong", rng, budget_ms)
    acts = announced(k.legal)
    if len(acts) <= 1:
        return acts[0] if acts else None
    counts = suit_counts(k)
    acts.sort(key=lambda a: (score(k, a, counts), rng.random()), reverse=True)  # Tito's favourite first
    if acts[0].kind == CHALLENGE:
        return acts[0]
    values = true_values(s, seat, acts, rng, budget_ms, max_passes)
    return acts[max(range(len(acts)), key=lambda i: (values[i], -i))]


def true_values(s: State, seat: Seat, acts: list[Action], rng: random.Random, budget_ms: float,
                max_passes: int | None = None) -> list[float]:
    """The mean rollout value of each action played in ``s`` with its stock dealt again, within ``budget_ms``
    (one pass at least).

    Every action of a pass is rolled out from the same stock and with the same dice (common random numbers).
    """
    deadline = time.perf_counter() + budget_ms / 1000.0
    totals = [0.0] * len(acts)
    passes = 0
    while (max_passes is None or passes < max_passes) and (passes == 0 or time.perf_counter() < deadline):
        dice = rng.getrandbits(64)
        hidden = s.copy()  # the hands as they are; the stock's order and the reshuffles unknown
        dealer = random.Random(dice)
        hidden.stock.sort()  # from the same order whatever the true one: nothing of it leaks into the deal
        dealer.shuffle(hidden.stock)
        hidden.seed = f"{dealer.getrandbits(256):064x}"
        for i, a in enumerate(acts):
            world = hidden.copy()
            apply(world, a)
            totals[i] += rollout(world, seat, random.Random(dice))
        passes += 1
    return [t / passes for t in totals]
