"""Reading the others' hands from what they did: a fold over a round's public actions.

A ``Reading`` holds, for every seat, its hidden hand as groups of cards: ``Group(size,
excluded)`` says that ``size`` of the seat's cards are none of ``excluded``. The groups of a
seat add up to its hand size; a group with nothing excluded is free. What makes a group:

* *A draw on turn* (a 7 or +2 taken instead of answered, a burner with no continuation, a
  plain draw): the medium bot — and most people — draw only when nothing they hold fits,
  so at that moment the hand held no card the engine would have let it play (or burn).
* *A card played* (not going out): Tito plays the card he likes most (``greedy.preference``).
  A Jack or wild is kept for last: no other card that fitted was held. Another card: no card
  of its suit that fitted and that he likes more (more points, a stronger attack) was held.
* *A turn that ends with a draw*: the engine ends it at once when the drawn card does not
  fit (nor, where any card may follow a draw, any other), so the drawn card fitted nothing
  (judged at the next look, ``sync``). A pass with nothing to draw, or after an 8 bounce
  (no 8), says the hand held nothing that fitted. (A pass after a draw that fitted says
  nothing: it was a choice.)
* *A burn or quick action let go* (candeias): a seat with the top card takes the chance
  (the medium bot always does), so the seats that let it go do not hold the top card; the
  seat on turn, which may burn it at the start of its turn, neither when it did something else.
* *Cards drawn since* (the hand grew) are a new free group: the constraints do not bind them.
* *A card played* leaves the most constrained group it does not break; when every group
  excludes it the reading of that seat was wrong (people are not the medium bot) and the
  seat starts over with one free group.

Which cards would have fitted is asked of the engine (``legal_actions``) in a *probe*: the
state before the action with every hidden card taken out (the other hands, the stock, the
seed, a card drawn this turn) and the seat on turn holding one card of every kind. The fold
reads nothing else of the state but the hand sizes, so it is the same whatever the hidden
cards are: what every seat, and a spectator, could work out. ``worlds.sample_world`` deals
the unseen cards within it, and falls back to an unconstrained deal when it cannot.

>>> from services.rules.engine import new_match, start_round
>>> from services.rules.actions import Action, DRAW
>>> from services.rules.cards import FRENCH
>>> s = new_match("classic32", 2)
>>> start_round(s, dealer=1, first=0, hands=[["8S", "KD"], ["8C", "KC"]], starter="9H", stock=["AC", "QD"])
>>> r = observe(Reading.start(s), s, Action(DRAW, 0))  # seat 0 draws: it holds no heart, no 9, no Jack
>>> (g,) = r.groups[0]
>>> g.size, sorted(FRENCH.name(c) for c in g.excluded if not FRENCH.name(c).endswith("H"))
(2, ['9C', '9D', '9S', 'JC', 'JD', 'JS'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple

from services.bots import greedy
from services.rules.actions import BURN, CHALLENGE, DOUBLE, DRAW, PASS, PLAY, QUICK, Action
from services.rules.cards import SUITS, Card, Seat, Suit
from services.rules.engine import legal_actions
from services.rules.phases import BOUNCE, BURNED, DRAWN, NORMAL
from services.rules.rulesets import Ruleset
from services.rules.state import State
from services.rules.turn import burnable

NOTHING: Final[frozenset[Card]] = frozenset()


class Group(NamedTuple):
    """``size`` cards of a hand, none of them one of ``excluded``."""

    size: int
    excluded: frozenset[Card]


class Drawn(NamedTuple):
    """A seat drew one card holding ``before`` cards; had it fitted (one of ``fitted``) the turn would have stayed."""

    seat: Seat
    before: int
    fitted: frozenset[Card]


class LastPlay(NamedTuple):
    """A seat's last action, a single card played with ``fits`` on the table and ``follow`` in force,
    leaving it ``size`` cards, none drawn since: its hand then was its hand now and that card.

    ``pairs``: the cards it would have doubled had it held two (candeias: Tito doubles before
    he plays one card). ``earlier``: its plays before this one (oldest first) with nothing else
    done or drawn in between, so that each hand then is the hand now and the cards played since.
    """

    action: Action
    size: int
    fits: frozenset[Card]
    follow: Suit
    pairs: frozenset[Card] = frozenset()
    earlier: tuple[LastPlay, ...] = ()


@dataclass(frozen=True, slots=True)
class Reading:
    """Per seat, the groups its hidden hand is made of (oldest first: the last holds the cards drawn last)."""

    groups: tuple[tuple[Group, ...], ...]
    drawn: Drawn | None = None  # a draw whose card is judged once the turn is seen to go on
    last: tuple[LastPlay | None, ...] = ()  # per seat (() for none): its last play, while nothing was drawn since

    @staticmethod
    def start(s: State) -> Reading:
        """Nothing known yet: one free group per hand (a round just dealt)."""
        return Reading(tuple((Group(len(h), NOTHING),) if h else () for h in s.hands), None, (None,) * s.n)

    def constrained(self, seat: Seat) -> bool:
        return any(g.excluded for g in self.groups[seat])


def sync(r: Reading | None, sizes: Sequence[int], turn: Seat = -1, drawing: bool = False) -> Reading:
    """``r`` with every seat's groups matching its hand size: cards drawn since are a new free group.

    A hand smaller than its groups (cards left it unseen by the fold) starts over free. A
    draw waiting to be judged (``Reading.drawn``) is judged: when the drawer's turn ended
    at once (it is not still on turn in the ``drawing`` phase) the card it drew did not fit.
    """
    if r is None or len(r.groups) != len(sizes):
        return Reading(tuple((Group(n, NOTHING),) if n else () for n in sizes), None, (None,) * len(sizes))
    out = []
    changed = False
    for groups, n in zip(r.groups, sizes, strict=True):
        held = sum(g.size for g in groups)
        if held == n:
            out.append(groups)
            continue
        changed = True
        out.append((*groups, Group(n - held, NOTHING)) if held < n else ((Group(n, NOTHING),) if n else ()))
    drawn = r.drawn
    if drawn is not None and not (turn == drawn.seat and drawing):
        changed = True
        seat_groups = out[drawn.seat]
        if sizes[drawn.seat] == drawn.before + 1 and seat_groups and seat_groups[-1].size == 1:
            last = seat_groups[-1]
            out[drawn.seat] = (*seat_groups[:-1], Group(1, last.excluded | drawn.fitted))
        drawn = None
    plays = r.last
    if plays and any(p is not None and p.size != n for p, n in zip(plays, sizes, strict=True)):
        changed = True  # a hand that changed since its last play: that play no longer shows its hand
        plays = tuple(p if p is not None and p.size == n else None for p, n in zip(plays, sizes, strict=True))
    return Reading(tuple(out), drawn, plays) if changed else r


def observe(r: Reading | None, s: State, a: Action) -> Reading:
    """The reading after ``a``, taken in ``s`` (the state before it). Reads only what is public of ``s``."""
    turn, phase = s.turn, s.phase
    r = sync(r, [len(h) for h in s.hands], turn, phase is DRAWN)
    if s.round_over:
        return r
    groups = [list(g) for g in r.groups]
    drawn = r.drawn
    plays: list[LastPlay | None] = list(r.last) if r.last else [None] * len(groups)
    before = plays[a.seat]
    plays[a.seat] = None
    if a.seat == turn:
        drawn = None  # the drawer acts again in its turn: the card it drew fitted (or its hand did)
        if a.kind == DRAW and (phase is NORMAL or phase is BURNED):
            _exclude(groups[turn], fitting(s))
            if not s.pending:  # a card drawn that does not fit ends the turn at once: judged at the next look
                drawn = Drawn(turn, len(s.hands[turn]), fitting(s, plays_only=True))
        elif a.kind == PASS and (phase is NORMAL or phase is BOUNCE):
            _exclude(groups[turn], fitting(s))
        elif a.kind == PLAY and a.card2 < 0 and len(s.hands[turn]) > 1 and (
                phase is NORMAL or phase is BURNED or (phase is DRAWN and s.rs.after_draw_any)):
            _exclude(groups[turn], _outranked(s, a))
            fits = fitting(s, plays_only=True)
            pairs = (frozenset(c for c in fits if not s.rs.special(c))
                     if s.rs.has_burns and phase is not BURNED else NOTHING)
            earlier = () if before is None else (*before.earlier, before._replace(earlier=()))
            plays[turn] = LastPlay(a, len(s.hands[turn]) - 1, fits, s.follow, pairs, earlier)
    if s.rs.has_burns and s.discard:
        top = frozenset((s.discard[-1],))
        for seat in _let_go(s, a):
            _exclude(groups[seat], top)
    for card in _shed(a):
        groups[a.seat] = _remove(groups[a.seat], card)
    return Reading(tuple(tuple(g for g in gs if g.size) for gs in groups), drawn, tuple(plays))


def tito_would(rs: Ruleset, play: LastPlay, hand: Sequence[Card]) -> bool:
    """Whether Tito, holding ``hand`` and the card of ``play``, could have made that play: no double
    of ``play.pairs`` (he likes any double more than one card), no other play (another card,
    another suit named) that ``greedy.preference`` likes more.

    What the groups cannot say: which suit he holds most of (he names it, and its cards count
    more), whether he held a pair, read in a sampled world, where the hand is known.
    """
    a = play.action
    then = [*hand, a.card]
    if any(then.count(c) > 1 for c in play.pairs):
        return False
    counts = greedy.suit_counts(rs, then)
    n = len(then)
    follow, fits = play.follow, play.fits
    mine = greedy.preference(rs, a, n, counts, follow, 0.0)
    for c in then:  # the cards of ``set(then) & fits`` (a card held twice weighed twice: the same answer)
        if c not in fits or rs.needs_company(c):
            continue
        for suit in range(4) if rs.chooses[c] else (-1,):  # ``a`` with ``c`` naming ``suit``, a play like ``a``
            if greedy.play_preference(rs, c, suit, a.card2, n, counts, follow) > mine:
                return False
    return True


def tito_played(rs: Ruleset, play: LastPlay, hand: Sequence[Card]) -> bool:
    """Whether Tito, holding ``hand`` now, could have made ``play`` and each of its ``earlier`` plays
    (``tito_would`` for each, the cards played since put back into the hand)."""
    held = list(hand)
    for p in (play, *reversed(play.earlier)):
        if not tito_would(rs, p, held):
            return False
        held.append(p.action.card)
    return True


def _outranked(s: State, a: Action) -> frozenset[Card]:
    """The cards that fitted and that Tito would have played rather than ``a`` (a single card, not going out).

    Jacks and wilds last: any other card that fitted. Else the cards of the same suit he
    likes more (``greedy.preference``: points and attack; how many of the suit he holds
    counts the same for both, so the comparison needs no hidden fact). Most people play so
    too; a seat that does not is read afresh when it plays a card its reading excluded.
    """
    rs, fits = s.rs, fitting(s)
    if rs.chooses[a.card]:
        return frozenset(c for c in fits if not rs.chooses[c])
    n, same = len(s.hands[a.seat]), [1, 1, 1, 1]
    mine = greedy.preference(rs, a, n, same, s.follow, 0.0)
    return frozenset(c for c in fits if SUITS[c] == SUITS[a.card] and not rs.chooses[c]
                     and greedy.preference(rs, a._replace(card=c, choose=-1), n, same, s.follow, 0.0) > mine)


def _shed(a: Action) -> tuple[Card, ...]:
    """The cards ``a`` takes out of its seat's hand, face up."""
    if a.kind == PLAY:
        return (a.card,) if a.card2 < 0 else (a.card, a.card2)
    if a.kind == DOUBLE:
        return (a.card, a.card2)
    if a.kind in (BURN, QUICK):
        return (a.card,)
    return ()


def _exclude(groups: list[Group], cards: frozenset[Card]) -> None:
    """Exclude ``cards`` from every group of a hand."""
    if cards and groups:
        groups[:] = _merged([Group(g.size, g.excluded | cards) for g in groups])


def _merged(groups: list[Group]) -> list[Group]:
    """Neighbouring groups with the same exclusions as one (the last stays last)."""
    out: list[Group] = []
    for g in groups:
        if out and out[-1].excluded == g.excluded:
            out[-1] = Group(out[-1].size + g.size, g.excluded)
        else:
            out.append(g)
    return out


def _remove(groups: list[Group], card: Card) -> list[Group]:
    """The groups after ``card`` was played from them: out of the most constrained group that allows it."""
    allowing = [i for i, g in enumerate(groups) if g.size and card not in g.excluded]
    if not allowing:  # the reading was wrong about this seat: it knows nothing any more
        held = sum(g.size for g in groups)
        return [Group(held - 1, NOTHING)] if held > 1 else []
    i = max(allowing, key=lambda j: (len(groups[j].excluded), j))
    out = list(groups)
    out[i] = Group(out[i].size - 1, out[i].excluded)
    return [g for g in out if g.size]


def _let_go(s: State, a: Action) -> list[Seat]:
    """The seats that let a burn or quick action with the top card go before ``a`` (candeias).

    Out of turn the seats are asked in order after the one on turn; the first that acts
    ends the asking. The seat on turn could burn the top at the start of its turn (in the
    ``NORMAL`` phase), which the medium bot prefers to anything but a challenge.
    """
    top = s.discard[-1]
    turn = s.turn
    window = s.quick_from >= 0 or (s.opening and burnable(s, top))
    out: list[Seat] = []
    if window:
        for k in range(1, s.n):
            seat = (turn + k) % s.n
            if seat == a.seat:
                break
            if s.active[seat] and s.hands[seat] and seat != s.quick_from:
                out.append(seat)
    if (a.seat == turn and s.phase is NORMAL and burnable(s, top) and s.hands[turn]
            and a.kind not in (BURN, CHALLENGE, DOUBLE)):
        out.append(turn)
    return out


def fitting(s: State, plays_only: bool = False) -> frozenset[Card]:
    """The cards the seat on turn could have played (or burned) in ``s``, asked of the engine in a probe.

    The probe is ``s`` without any hidden card and the seat on turn holding one card of every
    kind (so no call and no company is ever missing). After a draw the cards that fit the
    table are asked as at the start of a turn (``plays_only``: what the drawn card would have
    had to be). A card that needs company (an Ace with ``ace_with_company``) is left out: held
    alone it did not fit.
    """
    p = s.copy()
    p.hands = [[] for _ in p.hands]
    p.hands[s.turn] = list(_kinds(s.rs, s.n))
    p.stock = []
    p.seed = None
    p.drawn_card = -1
    p.w4_bluff = False
    p.draw_log = None
    if p.phase is DRAWN:
        p.phase = NORMAL
    return frozenset(x.card for x in legal_actions(p, s.turn)
                     if (x.kind == PLAY and x.card2 < 0) or (x.kind == BURN and not plays_only))


@lru_cache(maxsize=64)
def _kinds(rs: Ruleset, seats: int) -> tuple[Card, ...]:
    return tuple(sorted(set(rs.deck(seats))))
