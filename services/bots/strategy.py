"""The three bot personalities: each picks one of the seat's legal actions from its knowledge alone.

* ``weak`` (Luna): a beginner — any legal action at random, but always with the call a play
  needs ("Os robôs sempre dizem").
* ``medium`` (Tito): greedy — challenge, burn, double, play (high points and attacks first,
  Jacks and wilds last, the suit it holds most of), draw only when nothing fits.
* ``strong`` (Carmen): determinized Monte Carlo — samples the unseen cards into the other
  hands and the stock, plays every candidate on in each sample for a few turns with a fast
  policy (``worlds``), values the outcome (a win, or the hand sizes when the round goes on)
  and keeps the best average. It only ever picks among the view's legal actions.

Every personality announces, and takes an injected ``random.Random``. Out of turn (a
challenge, a quick action, an opening burn) ``decide_out_of_turn`` answers.

>>> import random
>>> from services.rules.decider import deal, evolve
>>> from services.rules.engine import new_match
>>> from services.bots.knowledge import knowledge_from
>>> s0 = new_match("classic52", 4)
>>> s = evolve(s0, deal(s0, seed="33" * 32, table_id="t", round_no=0))
>>> k = knowledge_from(s, s.turn)
>>> all(decide(k, level, random.Random(0), budget_ms=5) in k.legal for level in LEVELS)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable

from services.bots.knowledge import SeatKnowledge, rules, unseen
from services.bots.worlds import World, rollout, sample_world
from services.rules.actions import (
    BURN,
    CHALLENGE,
    CHALLENGE_WILD,
    CHOOSE,
    DOUBLE,
    DRAW,
    PLAY,
    QUICK,
    Action,
)
from services.rules.cards import R7, WILD, Card, Seat, rank, suit
from services.rules.engine import apply, check
from services.rules.errors import RuleError

Personality = Callable[[SeatKnowledge, random.Random, float], Action | None]

ROLLOUT_STEPS = 12  # actions a rollout plays before it values the round by hand sizes
PRIOR_WEIGHT = 1.0  # how many samples Tito's opinion is worth in the strong bot's averages
PRIOR_BONUS = 0.05  # the value Tito's favourite gets over the others in that opinion


def announced(legal: Iterable[Action]) -> list[Action]:
    """The legal actions without the ones that leave out a call another spelling makes.

    >>> a = Action(PLAY, 0, 5, announce="mau")
    >>> announced([a, a._replace(announce=None), Action(DRAW, 0)]) == [a, Action(DRAW, 0)]
    True
    """
    acts = list(legal)
    called = {a._replace(announce=None) for a in acts if a.announce is not None}
    return [a for a in acts if a.announce is not None or a not in called]


# --- weak -------------------------------------------------------------------------------


def weak(k: SeatKnowledge, rng: random.Random, budget_ms: float = 100.0) -> Action | None:
    """Luna: a uniformly random legal action, always with its call."""
    acts = announced(k.legal)
    return rng.choice(acts) if acts else None


# --- medium -----------------------------------------------------------------------------


def suit_counts(k: SeatKnowledge) -> list[int]:
    """How many cards of each suit (colour) the hand holds, Jacks and wilds left out."""
    chooses = rules(k).chooses
    counts = [0, 0, 0, 0]
    for c in k.hand:
        if not chooses[c] and suit(c) != WILD:
            counts[suit(c)] += 1
    return counts


def _attack(k: SeatKnowledge, card: Card) -> int:
    """A bonus for cards that hurt an opponent (make them draw or lose a turn)."""
    rs = rules(k)
    r = rank(card)
    if r == R7 and not rs.seven_draws:  # a plain 7 (seven_draws: 0) hurts nobody
        return 0
    return rs.attacks.get(r, 0)


def bluff_odds(k: SeatKnowledge) -> float:
    """The chance that the wild draw four on top was a bluff: its player held the colour under it.

    Hypergeometric over the unseen cards, from the hand size of the player before.
    """
    under = k.discard[-2] if len(k.discard) > 1 else -1
    if under < 0 or suit(under) == WILD:
        return 0.0
    pool = unseen(k)
    holder = _previous(k)
    h, total = k.hand_sizes[holder], len(pool)
    other = sum(1 for c in pool if suit(c) != suit(under))
    p_none = 1.0
    for i in range(min(h, total)):
        p_none *= max(other - i, 0) / (total - i)
    return 1.0 - p_none


def _previous(k: SeatKnowledge) -> Seat:
    s = (k.turn - k.direction) % k.players
    while not k.in_round[s]:
        s = (s - k.direction) % k.players
    return s


def score(k: SeatKnowledge, a: Action, counts: list[int]) -> float:
    """Tito's preference for one action (higher is better)."""
    rs = rules(k)
    kind = a.kind
    if kind == CHALLENGE:
        return 1000.0
    if kind == QUICK:
        return 600.0 + rs.points[a.card]
    if kind == BURN:
        return 500.0 + rs.points[a.card]
    if kind == DOUBLE:
        return 10_000.0 if len(k.hand) == 2 else 300.0 + 2 * rs.points[a.card]
    if kind == PLAY:
        return _play_score(k, a, counts)
    if kind == CHALLENGE_WILD:
        return 60.0 if bluff_odds(k) >= 0.3 else 0.0
    if kind == CHOOSE:
        return 3.0 * counts[a.choose]
    return 5.0 if kind == DRAW else 3.0


def _play_score(k: SeatKnowledge, a: Action, counts: list[int]) -> float:
    """A play's value; an Ace with company (``ace_with_company``) sheds both cards: the Ace's
    points and a card more are a bonus, and the companion is judged as if played alone."""
    rs = rules(k)
    card, extra = a.card, 0.0
    if a.card2 >= 0:
        if len(k.hand) == 2:
            return 10_000.0
        card, extra = a.card2, 30.0 + rs.points[a.card]
    if len(k.hand) == 1:
        return 10_000.0
    if rs.chooses[card]:
        value = 40.0 + extra + 3 * (counts[a.choose] if a.choose >= 0 else 0)
        if rs.challengeable(card):
            value += -25.0 if k.follow >= 0 and counts[k.follow] else 10.0
        return value
    same_suit = counts[suit(card)] - 1 if suit(card) != WILD else 0
    return 100.0 + extra + rs.points[card] + _attack(k, card) + 2 * same_suit


def medium(k: SeatKnowledge, rng: random.Random, budget_ms: float = 100.0) -> Action | None:
    """Tito: the legal action with the best greedy ``score`` (ties at random), always with its call."""
    acts = announced(k.legal)
    if not acts:
        return None
    counts = suit_counts(k)
    return max(acts, key=lambda a: (score(k, a, counts), rng.random()))


# --- out of turn ------------------------------------------------------------------------


def decide_out_of_turn(k: SeatKnowledge, rng: random.Random, level: str = "medium") -> Action | None:
    """A challenge, quick action or opening burn for a seat not on turn, or None to let it go.

    Each of them costs the seat nothing and sheds a card or gives an opponent penalty cards,
    so Tito and Carmen always take one; Luna takes one half of the time.
    """
    acts = [a for a in announced(k.legal) if a.kind in (CHALLENGE, QUICK, BURN)]
    if not acts:
        return None
    if level == "weak":
        return rng.choice(acts) if rng.random() < 0.5 else None
    counts = suit_counts(k)
    return max(acts, key=lambda a: (score(k, a, counts), rng.random()))


# --- strong -----------------------------------------------------------------------------


def candidates(k: SeatKnowledge, acts: list[Action]) -> list[Action]:
    """The actions worth searching: each Jack or wild once, with Tito's suit for it.

    >>> from services.rules.cards import FRENCH
    >>> jd, c7, c8 = FRENCH.parse("JD"), FRENCH.parse("7C"), FRENCH.parse("8C")
    >>> k = SeatKnowledge("classic32", (), 0, (jd, c7), (2, 2), (True, True), 0, 1, c8, 0, 0,
    ...                   "normal", 20, (c8,), -1, 1, 0, (0, 0), ())
    >>> acts = [Action(PLAY, 0, jd, s, "mau") for s in range(4)] + [Action(DRAW, 0)]
    >>> [(a.kind, a.choose) for a in candidates(k, acts)]
    [('play', 0), ('draw', -1)]
    """
    counts = suit_counts(k)
    best: dict[tuple[str, Card, Card, int], Action] = {}
    for i, a in enumerate(acts):
        key = (a.kind, a.card, a.card2, -1 if a.choose >= 0 else i)  # the suit choices of one card share a key
        if key not in best or score(k, a, counts) > score(k, best[key], counts):
            best[key] = a
    return list(best.values())


def strong(k: SeatKnowledge, rng: random.Random, budget_ms: float = 100.0,
           max_worlds: int | None = None) -> Action | None:
    """Carmen: determinized Monte Carlo over the candidate actions within ``budget_ms``.

    ``max_worlds`` caps the samples (tests use it for a search that does not depend on time).
    """
    if not k.on_turn:
        return decide_out_of_turn(k, rng)
    acts = announced(k.legal)
    if len(acts) <= 1:
        return acts[0] if acts else None
    challenge = next((a for a in acts if a.kind == CHALLENGE), None)
    if challenge is not None:
        return challenge
    cands = candidates(k, acts)
    if len(cands) == 1:
        return cands[0]
    values = search(k, cands, rng, budget_ms, max_worlds)
    counts = suit_counts(k)
    return max(zip(cands, values, strict=True), key=lambda av: (av[1], score(k, av[0], counts)))[0]


def search(k: SeatKnowledge, cands: list[Action], rng: random.Random, budget_ms: float,
           max_worlds: int | None = None) -> list[float]:
    """The mean rollout value of each candidate over sampled worlds (common worlds for all).

    A candidate the sampled world refuses (which the real view allowed) is skipped there.
    Tito's favourite starts with a small head start, which decides when samples are few.
    """
    deadline = time.perf_counter() + budget_ms / 1000.0
    world = World.prepare(k)
    totals = [0.0] * len(cands)
    seen = [0] * len(cands)
    worlds = 0
    while (max_worlds is None or worlds < max_worlds) and (worlds == 0 or time.perf_counter() < deadline):
        base = sample_world(k, rng, world)
        for i, a in enumerate(cands):
            s = base.copy()
            try:
                check(s, a)
            except RuleError:
                continue
            apply(s, a)
            totals[i] += rollout(s, k.seat, rng, ROLLOUT_STEPS)
            seen[i] += 1
        worlds += 1
    counts = suit_counts(k)
    favourite = max(range(len(cands)), key=lambda i: score(k, cands[i], counts))
    mean = sum(totals) / max(sum(seen), 1)
    prior = [mean + (PRIOR_BONUS if i == favourite else 0.0) for i in range(len(cands))]
    return [(totals[i] + PRIOR_WEIGHT * prior[i]) / (seen[i] + PRIOR_WEIGHT) for i in range(len(cands))]


LEVELS: dict[str, Personality] = {"weak": weak, "medium": medium, "strong": strong}


def decide(k: SeatKnowledge, level: str, rng: random.Random, budget_ms: float = 100.0) -> Action | None:
    """The action of a bot of ``level`` ("weak", "medium", "strong"): on turn its personality, else out of turn."""
    if not k.on_turn:
        return decide_out_of_turn(k, rng, level)
    return LEVELS[level](k, rng, budget_ms)
