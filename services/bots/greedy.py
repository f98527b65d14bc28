"""Tito's greedy preference: how much the medium bot likes one legal action, from plain facts.

One function for two users: the medium personality (``strategy.medium``, from a seat's
knowledge) and the strong bot's rollouts (``worlds``, from a sampled state), so that the
opponents Carmen imagines play exactly like the Tito she may be facing.

Challenge, quick action, burn, double (going out with it above all), then a play: high
points and attacks first, the suit it holds most of, Jacks and wilds last; a wild draw
four challenged when it was likely a bluff; draw only when nothing fits.

>>> from services.rules.cards import FRENCH
>>> from services.rules.rulesets import make_ruleset
>>> rs = make_ruleset("classic52", {})
>>> hand = [FRENCH.parse(c) for c in ("7H", "9H", "JC", "2S")]
>>> counts = suit_counts(rs, hand)
>>> counts
[0, 0, 2, 1]
>>> seven, two = Action(PLAY, 0, FRENCH.parse("7H")), Action(PLAY, 0, FRENCH.parse("2S"))
>>> preference(rs, seven, 4, counts, 2, 0.0) > preference(rs, two, 4, counts, 2, 0.0)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from services.rules.actions import BURN, CHALLENGE, CHALLENGE_WILD, CHOOSE, DOUBLE, DRAW, PLAY, QUICK, Action
from services.rules.cards import R7, RANKS, SUITS, WILD, Card, Suit, suit
from services.rules.rulesets import Ruleset

GOES_OUT: Final = 10_000.0  # the preference of an action that empties the hand


def suit_counts(rs: Ruleset, hand: Iterable[Card]) -> list[int]:
    """How many cards of each suit (colour) the hand holds, Jacks and wilds left out."""
    chooses, suits = rs.chooses, SUITS  # table lookups: a rollout counts a hand at every move
    counts = [0, 0, 0, 0]
    for c in hand:
        if not chooses[c] and suits[c] != WILD:
            counts[suits[c]] += 1
    return counts


def attack(rs: Ruleset, card: Card) -> int:
    """A bonus for cards that hurt an opponent (make them draw or lose a turn)."""
    r = RANKS[card]
    if r == R7 and not rs.seven_draws:  # a plain 7 (seven_draws: 0) hurts nobody
        return 0
    return rs.attacks.get(r, 0)


def holds_colour_odds(colour: Suit, holder_cards: int, pool: Iterable[Card]) -> float:
    """The chance that ``holder_cards`` cards dealt from ``pool`` hold one of ``colour`` (hypergeometric)."""
    cards = list(pool)
    total = len(cards)
    other = sum(1 for c in cards if suit(c) != colour)
    p_none = 1.0
    for i in range(min(holder_cards, total)):
        p_none *= max(other - i, 0) / (total - i)
    return 1.0 - p_none


def preference(rs: Ruleset, a: Action, hand: int, counts: list[int], follow: Suit, bluff: float) -> float:
    """Tito's liking for ``a`` (higher is better), holding ``hand`` cards with ``counts`` per suit.

    ``follow`` is the suit in force, ``bluff`` the odds that a wild draw four on top was a bluff.
    """
    kind = a.kind
    if kind == PLAY:
        return _play(rs, a, hand, counts, follow)
    if kind == CHALLENGE:
        return 1000.0
    if kind == QUICK:
        return 600.0 + rs.points[a.card]
    if kind == BURN:
        return 500.0 + rs.points[a.card]
    if kind == DOUBLE:
        return GOES_OUT if hand == 2 else 300.0 + 2 * rs.points[a.card]
    if kind == CHALLENGE_WILD:
        return 60.0 if bluff >= 0.3 else 0.0
    if kind == CHOOSE:
        return 3.0 * counts[a.choose]
    return 5.0 if kind == DRAW else 3.0


def _play(rs: Ruleset, a: Action, hand: int, counts: list[int], follow: Suit) -> float:
    """A play's value; an Ace with company (``ace_with_company``) sheds both cards: the Ace's
    points and a card more are a bonus, and the companion is judged as if played alone."""
    return play_preference(rs, a.card, a.choose, a.card2, hand, counts, follow)


def play_preference(rs: Ruleset, first: Card, choose: Suit, card2: Card, hand: int, counts: list[int],
                    follow: Suit) -> float:
    """``preference`` of a play of ``first`` (naming ``choose``, with ``card2``) from its fields, no
    ``Action`` made (``reading.tito_would`` weighs every card a hand could have played)."""
    card, extra = first, 0.0
    if card2 >= 0:
        if hand == 2:
            return GOES_OUT
        card, extra = card2, 30.0 + rs.points[first]
    if hand == 1:
        return GOES_OUT
    if rs.chooses[card]:
        value = 40.0 + extra + 3 * (counts[choose] if choose >= 0 else 0)
        if rs.challengeable(card):
            value += -25.0 if follow >= 0 and counts[follow] else 10.0
        return value
    s = SUITS[card]
    same_suit = counts[s] - 1 if s != WILD else 0
    return 100.0 + extra + rs.points[card] + attack(rs, card) + 2 * same_suit
