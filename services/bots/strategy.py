"""The three bot personalities: each picks one of the seat's legal actions from its knowledge alone.

* ``weak`` (Luna): a beginner — any legal action at random, but always with the call a play
  needs ("Os robôs sempre dizem").
* ``medium`` (Tito): greedy — challenge, burn, double, play (high points and attacks first,
  Jacks and wilds last, the suit it holds most of), draw only when nothing fits
  (``greedy.preference``).
* ``strong`` (Carmen): search — samples the unseen cards into the other hands and the
  stock, plays every one of her actions (each suit or colour choice, keeping a drawn card,
  a burn's continuation) in each sample, and the round on to its end with everyone playing
  like Tito (``worlds``); plays what Tito would unless another action wins more often
  beyond the samples' noise. She thinks only where there is a choice: a single action, a
  challenge or going out is played at once.

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

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from statistics import NormalDist

from services.bots import greedy
from services.bots.knowledge import SeatKnowledge, rules, unseen
from services.bots.worlds import Draws, World, play_out, sample_world
from services.rules.actions import BURN, CHALLENGE, CHALLENGE_WILD, DRAW, PASS, QUICK, Action
from services.rules.cards import WILD, Seat, suit
from services.rules.state import State

Personality = Callable[[SeatKnowledge, random.Random, float], Action | None]

FALSE_SWITCH = 0.32  # how often Carmen may leave Tito's favourite for an action no better (0.47 SE for one rival)
KEEPS = frozenset((DRAW, PASS))  # actions that keep her cards: never searched against a card she can play
MIN_SAMPLES = 32  # paired worlds before a difference's standard error is believed
PRUNE_EVERY = 16  # worlds between two looks at which candidates are still worth playing
PRUNE_Z = 2.5  # standard errors by which a candidate must be beaten to be dropped (looked at many times)


def announced(legal: Iterable[Action]) -> list[Action]:
    """The legal actions without the ones that leave out a call another spelling makes.

    >>> from services.rules.actions import DRAW, PLAY
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
    return greedy.suit_counts(rules(k), k.hand)


def bluff_odds(k: SeatKnowledge) -> float:
    """The chance that the wild draw four on top was a bluff: its player held the colour under it.

    Hypergeometric over the unseen cards, from the hand size of the player before.
    """
    under = k.discard[-2] if len(k.discard) > 1 else -1
    if under < 0 or suit(under) == WILD:
        return 0.0
    return greedy.holds_colour_odds(suit(under), k.hand_sizes[_previous(k)], unseen(k))


def _previous(k: SeatKnowledge) -> Seat:
    s = (k.turn - k.direction) % k.players
    while not k.in_round[s]:
        s = (s - k.direction) % k.players
    return s


def score(k: SeatKnowledge, a: Action, counts: list[int]) -> float:
    """Tito's preference for one action (higher is better): ``greedy.preference`` from the knowledge."""
    bluff = bluff_odds(k) if a.kind == CHALLENGE_WILD else 0.0
    return greedy.preference(rules(k), a, len(k.hand), counts, k.follow, bluff)


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


@dataclass
class Searched:
    """What Carmen's searches came to, counted as they run (``maumau bench bots`` prints it).

    A *search* is one rollout: one candidate action played in one sampled world and the
    round rolled on to its end (``worlds.rollout``). ``rollouts`` holds, per decision where
    she searched (on turn, a choice left after her shortcuts: not a forced move, a
    challenge or going out), the rollouts she completed — a candidate the world refused is
    not one, Tito's favourite counts once per world —, and ``worlds`` the worlds she
    sampled in it. Counting does not change what she decides.
    """

    rollouts: list[int] = field(default_factory=list)
    worlds: list[int] = field(default_factory=list)


def strong(k: SeatKnowledge, rng: random.Random, budget_ms: float = 100.0,
           max_worlds: int | None = None, searched: Searched | None = None) -> Action | None:
    """Carmen: Monte Carlo over sampled worlds with Tito's play for everyone after her move, within ``budget_ms``.

    No search where there is nothing to weigh: a single action, a challenge (it only costs
    the offender), going out. She leaves Tito's favourite only for an action the samples
    show better beyond their noise: by enough standard errors of the paired difference that
    with any number of rivals she leaves it for one no better in ``FALSE_SWITCH`` of her
    decisions at most (with few worlds, the best of many noisy rivals often looks better).
    ``max_worlds`` caps the samples (tests use it for a search that does not depend on time);
    ``searched`` is told what each search came to.
    """
    if not k.on_turn:
        return decide_out_of_turn(k, rng)
    acts = announced(k.legal)
    if len(acts) <= 1:
        return acts[0] if acts else None
    counts = suit_counts(k)
    favourite = max(acts, key=lambda a: (score(k, a, counts), rng.random()))
    if favourite.kind == CHALLENGE or score(k, favourite, counts) >= greedy.GOES_OUT:
        return favourite
    if favourite.kind not in KEEPS:
        acts = [a for a in acts if a.kind not in KEEPS]
        if len(acts) == 1:
            return favourite
    gains = search(k, acts, acts.index(favourite), rng, budget_ms, max_worlds, searched=searched)
    z = NormalDist().inv_cdf(1.0 - FALSE_SWITCH / (len(acts) - 1))
    best = max(range(len(acts)), key=lambda i: gains[i][0] - z * gains[i][1])
    return acts[best] if gains[best][0] - z * gains[best][1] > 0 else favourite


def search(k: SeatKnowledge, cands: list[Action], favourite: int, rng: random.Random, budget_ms: float,
           max_worlds: int | None = None, sample: Callable[[random.Random], State] | None = None,
           searched: Searched | None = None) -> list[tuple[float, float]]:
    """What each candidate wins over the ``favourite``: the mean paired difference of their
    rollout values over sampled worlds, and its standard error.

    The worlds are ``sample_world``'s guesses from ``k``; ``sample`` replaces them (the
    bench's oracle searches the true state).

    Every candidate is played in the same worlds with the same rollout dice (common random
    numbers: the difference between two candidates is then far less noisy than either).
    A world that refuses a candidate (which the real view allowed) does not count for it.
    The time goes where the decision is close: every ``PRUNE_EVERY`` worlds a candidate
    that another beats by ``PRUNE_Z`` standard errors is no longer played, and the search
    ends when only one is left. ``searched`` is told the rollouts and worlds it took.
    """
    deadline = time.perf_counter() + budget_ms / 1000.0
    if sample is None:
        world = World.prepare(k)

        def sample(r: random.Random) -> State:
            return sample_world(k, r, world)

    sums = [0.0] * len(cands)
    squares = [0.0] * len(cands)
    seen = [0] * len(cands)
    live = list(range(len(cands)))
    worlds = rollouts = 0
    while (max_worlds is None or worlds < max_worlds) and (worlds == 0 or time.perf_counter() < deadline):
        worlds += 1
        base = sample(rng)
        dice = Draws(rng.getrandbits(64))
        mine = _value(base, cands[favourite], k.seat, dice)
        if mine is None:
            continue
        rollouts += 1
        for i in live:
            v = mine if i == favourite else _value(base, cands[i], k.seat, dice)
            if v is not None:
                if i != favourite:
                    rollouts += 1
                d = v - mine
                sums[i] += d
                squares[i] += d * d
                seen[i] += 1
        if worlds % PRUNE_EVERY == 0:
            live = _contenders(live, [_mean_and_error(sums[i], squares[i], seen[i]) for i in live])
            if len(live) == 1:
                break
    if searched is not None:
        searched.rollouts.append(rollouts)
        searched.worlds.append(worlds)
    return [_mean_and_error(sums[i], squares[i], seen[i]) for i in range(len(cands))]


def _contenders(live: list[int], gains: list[tuple[float, float]]) -> list[int]:
    """The candidates of ``live`` that no other beats by ``PRUNE_Z`` standard errors of their ``gains``."""
    floor = max(mean - PRUNE_Z * error for mean, error in gains)
    return [i for i, (mean, error) in zip(live, gains, strict=True) if mean + PRUNE_Z * error >= floor]


def _value(base: State, a: Action, me: Seat, dice: Draws) -> float | None:
    """The rollout value of ``a`` in the world ``base`` (left as it is), or None when that world refuses it.

    Its ties drawn as from ``random.Random(seed)`` of the world's ``dice``: the same for every candidate
    (``worlds.play_out``, compiled). A value is one search: one rollout to the round's end."""
    return play_out(base, a, me, dice)


def _mean_and_error(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of ``n`` samples from their sum and sum of squares, and the standard error of that
    mean (infinite below ``MIN_SAMPLES``: a few worlds that all agree say little)."""
    if n < MIN_SAMPLES:
        return (total / n if n else 0.0, math.inf)
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean, math.sqrt(variance / n)


LEVELS: dict[str, Personality] = {"weak": weak, "medium": medium, "strong": strong}


def decide(k: SeatKnowledge, level: str, rng: random.Random, budget_ms: float = 100.0,
           searched: Searched | None = None) -> Action | None:
    """The action of a bot of ``level`` ("weak", "medium", "strong"): on turn its personality, else out of turn.

    ``searched`` is told what the strong bot's searches came to (``Searched``).
    """
    if not k.on_turn:
        return decide_out_of_turn(k, rng, level)
    if level == "strong":
        return strong(k, rng, budget_ms, searched=searched)
    return LEVELS[level](k, rng, budget_ms)
