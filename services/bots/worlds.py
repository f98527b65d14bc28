"""Hypothetical worlds for the strong bot: determinize a seat's knowledge and play it out.

``sample_world`` deals the cards the seat has not seen (``knowledge.unseen``) at random
into the other hands (with their known sizes) and the stock, and rebuilds a full engine
``State`` around them from the public facts of the knowledge. That state is a guess, never
the real one: the real state is not reachable from a knowledge. ``rollout`` then plays the
guess on through the engine's ``legal_actions`` and ``apply`` with every seat playing as
Tito (``greedy_action``: the medium bot's own preference, challenges and quick actions out
of turn included) to the end of the round: the opponents Carmen imagines are the ones she
most often meets, and a whole round of them costs a fraction of a millisecond.

>>> import random
>>> from services.rules.decider import deal, evolve
>>> from services.rules.engine import new_match
>>> from services.bots.knowledge import knowledge_from
>>> s0 = new_match("colors108", 4)
>>> k = knowledge_from(evolve(s0, deal(s0, seed="22" * 32, table_id="t", round_no=0)), 2)
>>> rng = random.Random(1)
>>> w = sample_world(k, rng, World.prepare(k))
>>> sorted(w.hands[2]) == list(k.hand), [len(h) for h in w.hands] == list(k.hand_sizes)
(True, True)
>>> 0.0 <= rollout(w, 2, rng) <= 1.0
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from services.bots import greedy
from services.bots.knowledge import SeatKnowledge, rules, unseen
from services.bots.reading import Group, LastPlay, tito_played
from services.rules.actions import BURN, CHALLENGE, CHALLENGE_WILD, DRAW, PLAY, QUICK, Action
from services.rules.cards import WILD, Card, Seat, suit
from services.rules.engine import apply, check
from services.rules.errors import RuleError
from services.rules.legal import legal_list
from services.rules.phases import Pending, Phase
from services.rules.state import State

EVAL_POWER: Final = 2  # a round cut short is valued by each hand's 1 / (1 + cards) ** EVAL_POWER


@dataclass(frozen=True)
class World:
    """What every sample of one knowledge shares: a template state without hidden cards, and the unseen cards."""

    template: State
    unseen: tuple[Card, ...]
    others: tuple[Seat, ...]  # the other seats in the round holding cards, in seat order
    groups: tuple[tuple[Group, ...], ...] = ()  # theirs from the reading (in the same order); () when none binds
    plays: tuple[tuple[Seat, LastPlay], ...] = ()  # the others' last plays that still show their hands

    @staticmethod
    def prepare(k: SeatKnowledge) -> World:
        t = _template(k)
        others = tuple(i for i in range(k.players) if i != k.seat and k.in_round[i] and k.hand_sizes[i])
        plays = tuple((i, p) for i in others if k.last_plays and (p := k.last_plays[i]) is not None)
        return World(t, tuple(unseen(k)), others, _groups(k, others), plays)


def _groups(k: SeatKnowledge, others: tuple[Seat, ...]) -> tuple[tuple[Group, ...], ...]:
    """The reading's groups of ``others`` (a seat whose groups do not add up to its hand: one free
    group), or () when there is no reading or nothing in it binds."""
    if not k.reading:
        return ()
    out = []
    for i in others:
        gs = k.reading[i]
        out.append(gs if sum(g.size for g in gs) == k.hand_sizes[i] else (Group(k.hand_sizes[i], frozenset()),))
    return tuple(out) if any(g.excluded for gs in out for g in gs) else ()


def _drawn_card(k: SeatKnowledge) -> Card:
    """The card this seat drew this turn, as far as it matters: the one its legal plays show.

    Another seat's drawn card is one of its hidden cards: ``sample_world`` picks it.
    """
    if k.phase != Phase.DRAWN.word or not k.hand or not k.on_turn:
        return -1
    plays = [a.card for a in k.legal if a.kind == PLAY]
    return plays[0] if plays else k.hand[-1]


def _template(k: SeatKnowledge) -> State:
    """A state with every public fact of ``k`` set and the hidden cards left out."""
    rs = rules(k)
    s = State(rs, k.players, list(k.scores), k.rounds_played)
    s.active = list(k.in_round)
    s.hands = [[] for _ in range(k.players)]
    s.hands[k.seat] = list(k.hand)
    s.discard = list(k.discard)
    s.turn, s.direction, s.follow = k.turn, k.direction, k.follow
    s.pending, s.pending_kind = k.pending, rs.pending_kind(k.top) if k.pending else Pending.NONE
    s.chain = k.pending // 2 if s.pending_kind is Pending.SEVEN else 0
    s.phase = Phase.from_word(k.phase)
    s.drawn_card = _drawn_card(k)
    if s.phase is Phase.DRAWN:  # one draw at least; all it may make when its own list has no draw left (crazy8)
        s.draws = rs.max_draws if k.on_turn and k.stock and not any(a.kind == DRAW for a in k.legal) else 1
    s.opening = rs.has_burns and len(k.discard) == 1 and all(
        n == rs.hand_size for n, a in zip(k.hand_sizes, k.in_round, strict=True) if a)
    s.burn_announced = s.phase is Phase.BURNED and not any(a.announce for a in k.legal)
    s.mau_offender, s.mau_guard = k.missed_call, k.turn
    if s.pending_kind is Pending.WILD4:
        s.w4_seat = s.previous_seat(k.turn)
    s.finisher = next((i for i in range(k.players) if k.in_round[i] and not k.hand_sizes[i]), -1)
    s.dealer = k.dealer
    s.first = s.next_seat(k.dealer)
    s.tiebreak = [] if all(k.in_round) else [i for i in range(k.players) if k.in_round[i]]
    s.round_over = False
    return s


def sample_world(k: SeatKnowledge, rng: random.Random, world: World) -> State:
    """One determinization: the unseen cards dealt at random to the other hands and the stock,
    within what the round's public actions said of the hands (``k.reading``) when they can be,
    and (of ``TRIES`` deals) one where each other seat's plays since its hand last grew are ones
    Tito could have made (``reading.tito_played``), else the one with the fewest seats that fail.

    The cards a constraint allows are dealt to it first, most constrained first; when a deal
    cannot meet them (the reading was wrong: people are not the medium bot), the cards are
    dealt without them. A seat's cards drawn last are the last of its hand.
    """
    s = world.template.copy()
    _deal(k, rng, world, s)
    if world.plays:
        rs = world.template.rs
        best = (s.hands, s.stock)
        fewest = sum(not tito_played(rs, p, s.hands[i]) for i, p in world.plays)
        for _ in range(TRIES - 1):
            if not fewest:
                break
            s.hands = list(s.hands)  # ``_deal`` sets the hands in place: the best deal's list stays as it was
            _deal(k, rng, world, s)
            failed = sum(not tito_played(rs, p, s.hands[i]) for i, p in world.plays)
            if failed < fewest:
                best, fewest = (s.hands, s.stock), failed
        s.hands, s.stock = best
    s.seed = f"{rng.getrandbits(256):064x}"
    if s.phase is Phase.DRAWN and not k.on_turn and s.hands[k.turn]:
        s.drawn_card = s.hands[k.turn][-1]  # the seat on turn drew one of its cards this seat has not seen
    if s.pending_kind is Pending.WILD4:
        s.w4_bluff = _was_bluff(s)
    return s


TRIES: Final = 8  # deals tried for one whose plays Tito could have made; then the one with the fewest seats failing


def _deal(k: SeatKnowledge, rng: random.Random, world: World, s: State) -> None:
    """Deal the unseen cards into ``s``'s other hands and stock, within the groups when they can be met."""
    pool = list(world.unseen)
    shuffle(rng, pool)
    hands = _constrained_deal(pool, world.groups) if world.groups else None
    if hands is None:
        at = 0
        for i in world.others:
            n = k.hand_sizes[i]
            s.hands[i] = pool[at:at + n]
            at += n
        s.stock = pool[at:]
    else:
        for i, h in zip(world.others, hands, strict=True):
            s.hands[i] = h
        s.stock = pool


def shuffle(rng: random.Random, x: list[Card]) -> None:
    """``rng.shuffle(x)``, the same swaps from the same draws (``Random.shuffle`` and its ``_randbelow``:
    ``getrandbits`` of the bound's bit length, drawn again while not below it), compiled.

    >>> a, b = list(range(40)), list(range(40))
    >>> r1, r2 = random.Random(5), random.Random(5)
    >>> r1.shuffle(a); shuffle(r2, b)
    >>> a == b and r1.random() == r2.random()
    True
    """
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        bits, m = 0, n  # ``n.bit_length()``, in C integers
        while m:
            bits += 1
            m >>= 1
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        x[i], x[j] = x[j], x[i]


def _constrained_deal(pool: list[Card], groups: tuple[tuple[Group, ...], ...]) -> list[list[Card]] | None:
    """The other hands dealt from the shuffled ``pool`` within their ``groups`` (the pool keeps the
    rest, the stock), or None (the pool untouched) when the greedy deal cannot meet them.

    Constrained groups first, the most constrained first, each taking the first cards of
    the pool it allows; then the free groups in turn.
    """
    order = sorted(((len(g.excluded), i, j) for i, gs in enumerate(groups) for j, g in enumerate(gs) if g.excluded),
                   reverse=True)
    dealt: list[list[list[Card]]] = [[[] for _ in gs] for gs in groups]
    taken = [False] * len(pool)
    for _, i, j in order:
        g = groups[i][j]
        got = dealt[i][j]
        excluded = g.excluded
        for at, c in enumerate(pool):
            if not taken[at] and c not in excluded:
                taken[at] = True
                got.append(c)
                if len(got) == g.size:
                    break
        else:
            return None
    rest = [c for at, c in enumerate(pool) if not taken[at]]
    at = 0
    for i, gs in enumerate(groups):
        for j, g in enumerate(gs):
            if not g.excluded:
                dealt[i][j] = rest[at:at + g.size]
                at += g.size
    pool[:] = rest[at:]
    return [[c for got in seat for c in got] for seat in dealt]


def _was_bluff(s: State) -> bool:
    """Whether the W+4 on top was played holding the colour in force under it (as far as the pile shows)."""
    under = s.discard[-2] if len(s.discard) > 1 else -1
    colour = suit(under) if under >= 0 and suit(under) != WILD else -1
    return colour >= 0 and any(suit(c) == colour for c in s.hands[s.w4_seat])


OUT_OF_TURN: Final = frozenset((CHALLENGE, QUICK, BURN))  # what a seat may do while another is on turn


class Draws:
    """The draws of one ``random.Random(seed)``, made once and read again by every ``Replay`` of them.

    A search rolls every candidate out in one world with the same dice (common random numbers):
    each rollout reads ``Replay(draws)``, exactly what it would read from its own
    ``random.Random(seed)``, without seeding a generator for each.

    >>> draws = Draws(7)
    >>> a, b, r = Replay(draws), Replay(draws), random.Random(7)
    >>> x = [a.random() for _ in range(3)]
    >>> x == [r.random() for _ in range(3)] == [b.random() for _ in range(3)]
    True
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.drawn: list[float] = []


class Replay:
    """``random()`` as ``random.Random(seed)`` draws it, from the ``Draws`` of that seed."""

    def __init__(self, draws: Draws) -> None:
        self.draws = draws
        self.at = 0

    def random(self) -> float:
        drawn = self.draws.drawn
        if self.at == len(drawn):
            drawn.append(self.draws.rng.random())
        self.at += 1
        return drawn[self.at - 1]


Dice = random.Random | Replay  # what a rollout draws its ties from (``random()`` only)


def greedy_action(s: State, seat: Seat, rng: Dice, kinds: frozenset[str] | None = None) -> Action | None:
    """Tito's choice for ``seat`` in a world: the legal action (of ``kinds``) with the best
    ``greedy.preference``, always with its call, ties at random; None when there is none.

    A wild draw four is judged from what ``seat`` could know in that world: the cards
    outside its hand and the pile.
    """
    acts = legal_list(s, seat)  # a new list, in ``legal_actions``' order
    if kinds is not None:
        acts = [a for a in acts if a.kind in kinds]
    if len(acts) <= 1:  # forced (a rollout's draws mostly): nothing to weigh
        return acts[0] if acts else None
    rs = s.rs
    hand = s.hands[seat]
    counts = greedy.suit_counts(rs, hand)
    size, follow = len(hand), s.follow
    best: Action | None = None
    best_value = -1.0
    ties = 0
    prev: Action | None = None
    for a in acts:
        if (a.announce is None and prev is not None and prev.announce is not None and prev.kind == a.kind
                and prev.seat == a.seat and prev.card == a.card and prev.choose == a.choose and prev.card2 == a.card2):
            continue  # the same action without its call, which follows it
        prev = a
        bluff = _bluff_odds(s, seat) if a.kind == CHALLENGE_WILD else 0.0
        value = greedy.preference(rs, a, size, counts, follow, bluff)
        if value > best_value:
            best, best_value, ties = a, value, 1
        elif value == best_value:
            ties += 1
            if rng.random() * ties < 1.0:
                best = a
    return best


def _bluff_odds(s: State, seat: Seat) -> float:
    """What ``seat`` would reckon the odds of a bluff under the wild draw four on top."""
    under = s.discard[-2] if len(s.discard) > 1 else -1
    if under < 0 or suit(under) == WILD:
        return 0.0
    pool = [c for i, h in enumerate(s.hands) if i != seat for c in h] + s.stock
    return greedy.holds_colour_odds(suit(under), len(s.hands[s.w4_seat]), pool)


def out_of_turn(s: State, rng: Dice) -> bool:
    """Give the seats after the one on turn, in order, their chance out of turn (a challenge,
    a quick action, an opening burn): the first that takes one acts. Whether one did.

    The same order as the bench and the service ask in; only open windows are looked at.
    """
    if s.mau_offender < 0 and s.quick_from < 0 and not s.opening:
        return False
    for k in range(1, s.n):
        seat = (s.turn + k) % s.n
        a = greedy_action(s, seat, rng, OUT_OF_TURN)
        if a is not None:
            apply(s, a)
            return True
    return False


def play_out(base: State, a: Action, me: Seat, dice: Draws) -> float | None:
    """The rollout value of ``a`` played in the world ``base`` (left as it is), its ties drawn from
    ``dice`` (``Replay``), or None when that world refuses ``a``: one search of ``strategy.search``."""
    s = base.copy()
    try:
        check(s, a)
    except RuleError:
        return None
    apply(s, a)
    return rollout(s, me, Replay(dice))


def rollout(s: State, me: Seat, rng: Dice, max_steps: int = 400) -> float:
    """Play ``s`` on in place with every seat as Tito (``greedy_action``, chances out of turn
    taken); 1 when ``me`` (or its partner) wins, 0 when not.

    A round still going after ``max_steps`` actions is valued by its hand sizes: the
    share of ``1 / (1 + cards)²`` that ``me`` (and its partner) hold.
    """
    for _ in range(max_steps):
        if s.round_over:
            break
        if out_of_turn(s, rng) or s.round_over:
            continue
        a = greedy_action(s, s.turn, rng)
        assert a is not None, "the seat on turn always has an action"
        apply(s, a)
    ours = [i == me or (s.rs.teams and i % 2 == me % 2) for i in range(s.n)]
    if s.round_over:
        return 1.0 if ours[s.round_winner] else 0.0
    mine, total = 0.0, 0.0  # summed in seat order, as ``sum`` did (compiled, ``sum`` of floats refused them)
    for i, h in enumerate(s.hands):
        w = 1.0 / (1 + len(h)) ** EVAL_POWER if s.active[i] else 0.0
        total += w
        if ours[i]:
            mine += w
    return mine / total
