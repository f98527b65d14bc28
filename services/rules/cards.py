"""Cards, suits and seats as small integers, and the names of cards and suits.

A card is ``suit << 4 | rank``. French cards: suits ``C D H S`` are 0..3 and ranks
``2 .. 10 J Q K A`` are 0..12. Colour cards: colours ``R G B Y`` are 0..3 (4 for the
colourless wilds) and values ``0..9 skip rev +2 W W+4`` are 0..14. Which family a
number belongs to is known from the ruleset, never from the number.

>>> FRENCH.parse("10S") == (3 << 4 | 8)
True
>>> FRENCH.name(FRENCH.parse("JD"))
'JD'
>>> COLORS.name(COLORS.parse("W+4"))
'W+4'
>>> suit(FRENCH.parse("7H")), rank(FRENCH.parse("7H"))
(2, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Final, TypeAlias

Card: TypeAlias = int  # suit << 4 | rank
Suit: TypeAlias = int  # a suit or colour, 0..3 (WILD for the wilds); -1 where none is given
Seat: TypeAlias = int  # 0..n-1 in the order of play at the start of a round; -1 for nobody

# French ranks (index into FRENCH_RANKS)
R7: Final = 5
R8: Final = 6
R9: Final = 7
R10: Final = 8
RJ: Final = 9
RQ: Final = 10
RK: Final = 11
RA: Final = 12
FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
FRENCH_SUITS = ("C", "D", "H", "S")

# Colour values and the wild "colour"
V_SKIP: Final = 10
V_REV: Final = 11
V_PLUS2: Final = 12
V_WILD: Final = 13
V_WILD4: Final = 14
WILD: Final = 4
COLOR_VALUES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "rev", "+2", "W", "W+4")
COLORS_LETTERS = ("R", "G", "B", "Y")


def suit(card: Card) -> Suit:
    """The suit (or colour; 4 for a wild) of a card."""
    return card >> 4


def rank(card: Card) -> int:
    """The rank (or colour-deck value) of a card."""
    return card & 15


def make(suit_: Suit, rank_: int) -> Card:
    return suit_ << 4 | rank_


CARD_SPACE = range(make(WILD, 15) + 1)  # every number a card of either family may be
# The suit and rank of every card number, for the code that runs on every action (what may
# be played, what a card does): indexing costs a third of a call to ``suit`` or ``rank``.
SUITS: Final = tuple(suit(c) for c in CARD_SPACE)
RANKS: Final = tuple(rank(c) for c in CARD_SPACE)


class CardNameError(ValueError):
    """A card, suit or colour name that this family of cards does not have."""


@dataclass(frozen=True)
class Family:
    """One family of card names: French-suited or the colour deck, and which rank names a suit when played.

    ``chooser`` is the French rank that asks for a suit (the Jack; the 8 of a crazy-eights deck,
    ``replace(FRENCH, chooser=R8)``); in the colour deck the wilds ask for a colour.
    """

    label: str
    suits: tuple[str, ...]
    _by_name: dict[str, Card] = field(repr=False)
    _names: dict[Card, str] = field(repr=False)
    chooser: int = RJ

    def parse(self, text: str) -> Card:
        try:
            return self._by_name[text]
        except KeyError:
            raise CardNameError(f"{text!r} is not a {self.label} card") from None

    def name(self, card: Card) -> str:
        return self._names[card]

    def names(self, cards: list[Card] | tuple[Card, ...]) -> list[str]:
        n = self._names
        return [n[c] for c in cards]

    def parse_suit(self, letter: str) -> Suit:
        try:
            return self.suits.index(letter)
        except ValueError:
            raise CardNameError(f"{letter!r} is not a {self.label} suit") from None

    def suit_name(self, s: Suit) -> str:
        return self.suits[s]


def _french() -> Family:
    names = {make(s, r): FRENCH_RANKS[r] + FRENCH_SUITS[s] for s in range(4) for r in range(13)}
    return Family("french", FRENCH_SUITS, {v: k for k, v in names.items()}, names)


def _colors() -> Family:
    names = {make(c, v): COLORS_LETTERS[c] + COLOR_VALUES[v] for c in range(4) for v in range(13)}
    names[make(WILD, V_WILD)] = "W"
    names[make(WILD, V_WILD4)] = "W+4"
    return Family("colour", COLORS_LETTERS, {v: k for k, v in names.items()}, names)


# ``Final``: compiled by mypyc (make setup), a ruleset's ``family`` defaults to a module constant, not to a
# name looked up at every ruleset made
FRENCH: Final = _french()
COLORS: Final = _colors()
W: Final = make(WILD, V_WILD)
W4: Final = make(WILD, V_WILD4)


def distinct(cards: list[Card]) -> list[Card]:
    """``cards`` with each card once, in the order they first come: a hand's distinct cards in the hand's order
    (two decks hold copies), the order of the legal actions that play them. ``cards`` itself where no card comes
    twice (a one-deck table's hands: no list made). Loops, not a set: a set's order is its table's (the numbers
    and the table's size), and it costs more on hands this small.

    >>> distinct([5, 3, 5, 9, 3]), distinct([5, 3, 9])
    ([5, 3, 9], [5, 3, 9])
    """
    n = len(cards)
    for i in range(1, n):
        c = cards[i]
        for j in range(i):
            if cards[j] == c:  # a copy: keep each card's first
                out: list[Card] = []
                for d in cards:
                    if d not in out:
                        out.append(d)
                return out
    return cards


def french_deck(low_rank: int = 0, decks: int = 1) -> list[Card]:
    """Every French card from ``low_rank`` (0 = the 2, R7 = the 7) to the Ace, ``decks`` times.

    >>> len(french_deck(R7)), len(french_deck(decks=2))
    (32, 104)
    """
    return list(_french_deck(low_rank, decks))


@cache  # a deck is made for every deal
def _french_deck(low_rank: int, decks: int) -> tuple[Card, ...]:
    return tuple(make(s, r) for _ in range(decks) for s in range(4) for r in range(low_rank, 13))


def colors_deck() -> list[Card]:
    """The 108-card colour deck.

    >>> len(colors_deck())
    108
    """
    return list(_colors_deck())


@cache  # a deck is made for every deal
def _colors_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for c in range(4):
        deck.append(make(c, 0))
        deck.extend(make(c, v) for v in range(1, 13) for _ in range(2))
    deck.extend([W] * 4 + [W4] * 4)
    return tuple(deck)
