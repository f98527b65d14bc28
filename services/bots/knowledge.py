"""What one seat knows: its view of the table plus the cards it has seen played this round.

A ``SeatKnowledge`` is plain frozen data (ints, strings, tuples, ``Action`` tuples) built
from ``view(state, seat)`` — the same dict a person at that seat is sent — and from the
public pile of cards played face up this round. It never holds a ``State``; the bots decide
from it alone. ``knowledge_from`` is the one function that touches a ``State``.

Cards seen played: every card on the discard pile was played (or turned as the starter)
face up, so anyone who watched the round knows the whole pile, bottom to top, although the
view only carries its size and top. ``knowledge_from`` takes the pile from the state's
discard list for that reason. When the stock runs out the pile but its top is shuffled
back into the stock: those cards are then unseen again (they may be drawn by anyone), and
the pile, hence the knowledge, shrinks accordingly. Other hands, the stock's order and
the seed are never read.

>>> from services.rules.decider import deal, evolve
>>> from services.rules.engine import new_match
>>> s0 = new_match("classic32", 3)
>>> s = evolve(s0, deal(s0, seed="11" * 32, table_id="t", round_no=0))
>>> k = knowledge_from(s, 1)
>>> k.seat, k.turn, len(k.hand), k.hand_sizes, k.stock, len(k.discard)
(1, 1, 5, (5, 5, 5), 16, 1)
>>> len(unseen(k)) == sum(k.hand_sizes) - len(k.hand) + k.stock
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from services.bots.reading import Group, LastPlay, Reading, sync
from services.rules.actions import Action, parse_move
from services.rules.cards import Card, Family, Seat, Suit
from services.rules.rulesets import Ruleset, make_ruleset
from services.rules.state import State
from services.rules.views import view


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """One seat's knowledge of a round in play. Cards and suits are ints (see ``cards``); -1 is "none"."""

    ruleset: str
    options: tuple[tuple[str, Any], ...]  # the table's options: public
    seat: Seat
    hand: tuple[Card, ...]  # sorted
    hand_sizes: tuple[int, ...]
    in_round: tuple[bool, ...]
    turn: Seat  # -1 when the round is over
    direction: int
    top: Card
    follow: Suit
    pending: int
    phase: str  # a ``Phase`` word
    stock: int  # size
    discard: tuple[Card, ...]  # the public pile, bottom first (its last card is ``top``)
    missed_call: Seat  # the seat that may be challenged, or -1
    dealer: Seat
    rounds_played: int
    scores: tuple[int, ...]
    legal: tuple[Action, ...]  # this seat's legal actions, from the view
    # what the round's public actions say of every hand (``reading.Reading.groups``); () when not read
    reading: tuple[tuple[Group, ...], ...] = ()
    last_plays: tuple[LastPlay | None, ...] = ()  # ``reading.Reading.last``: each seat's last play, if it still shows

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def on_turn(self) -> bool:
        return self.turn == self.seat


def rules(k: SeatKnowledge) -> Ruleset:
    """The table's ruleset (shared and immutable; it holds no state)."""
    return _ruleset(k.ruleset, k.options)


@lru_cache(maxsize=256)
def _ruleset(name: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return make_ruleset(name, dict(options))


def family(k: SeatKnowledge) -> Family:
    return rules(k).family


def from_view(v: Mapping[str, Any], options: Mapping[str, Any], played_public: Sequence[Card | str],
              reading: Reading | None = None) -> SeatKnowledge:
    """Knowledge from a seat's view dict, the table's options, the public pile (bottom first) and
    what the round's public actions said of the hands (``reading``; None: nothing read).

    Raises ``ValueError`` when the pile does not agree with the view (its size or its top).
    """
    rs = make_ruleset(v["ruleset"], dict(options))
    fam = rs.family
    pile = tuple(c if isinstance(c, int) else fam.parse(c) for c in played_public)
    top = fam.parse(v["top"]) if v["top"] is not None else -1
    if len(pile) != v["discard"] or (pile and pile[-1] != top):
        raise ValueError("the public pile does not match the view")
    seat = v["seat"]
    read = None if reading is None else sync(reading, v["hand_sizes"], seat_on_turn(v), v["phase"] == "drawn")
    return SeatKnowledge(
        ruleset=rs.name,
        options=tuple(sorted(options.items())),
        seat=seat,
        hand=tuple(sorted(fam.parse(c) for c in v["hand"])),
        hand_sizes=tuple(v["hand_sizes"]),
        in_round=tuple(v["in_round"]),
        turn=seat_on_turn(v),
        direction=v["direction"],
        top=top,
        follow=-1 if v["follow"] is None else fam.parse_suit(v["follow"]),
        pending=v["pending_draw"],
        phase=v["phase"],
        stock=v["stock"],
        discard=pile,
        missed_call=-1 if v["missed_call"] is None else v["missed_call"],
        dealer=v["dealer"],
        rounds_played=v["rounds_played"],
        scores=tuple(v["scores"]),
        legal=tuple(parse_move(a["move"], a["seat"], fam) for a in v["legal_actions"]),  # the move, as every reader
        reading=() if read is None else read.groups,
        last_plays=() if read is None else read.last,
    )


def seat_on_turn(v: Mapping[str, Any]) -> Seat:
    return -1 if v["turn"] is None else int(v["turn"])


def knowledge_from(state: State, seat: Seat, played_public: Sequence[Card | str] | None = None,
                   reading: Reading | None = None) -> SeatKnowledge:
    """What ``seat`` knows of ``state``: its view, the table's options, the public discard pile and
    the ``reading`` of the round's public actions its caller folded (``reading.observe``), if any.

    The only function of the bots that reads a ``State``. ``played_public`` is the pile as
    the caller recorded it (cards played face up this round, since the last reshuffle,
    bottom first); by default it is read from ``state.discard``, which holds exactly those.
    """
    pile = list(state.discard) if played_public is None else played_public
    return from_view(view(state, seat), state.rs.options, pile, reading)


def unseen(k: SeatKnowledge) -> list[Card]:
    """The cards this seat has not seen: the deck minus its own hand minus the public pile.

    They are in the other hands and the stock, in some order the seat does not know.
    """
    left = Counter(rules(k).deck(k.players))
    left.subtract(k.hand)
    left.subtract(k.discard)
    return sorted(left.elements())
