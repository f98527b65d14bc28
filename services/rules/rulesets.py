"""The four rulesets: one class each, overriding a few hooks of ``Ruleset``.

Everything a ruleset changes lives here: its deck, options, what may be played, what a
card does, how a round is scored and when the match ends. The turn machinery that is the
same everywhere is in ``engine``.

>>> rs = make_ruleset("classic32", {})
>>> rs.name, rs.hand_size, rs.announce_mode, len(rs.deck(4))
('classic32', 5, 'automatic', 32)
>>> make_ruleset("classic52", {"ace": "skip_all"}).ace
'skip_all'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from services.rules.actions import takes_choice
from services.rules.cards import (
    COLORS,
    FRENCH,
    R7,
    R8,
    R9,
    RA,
    RJ,
    RK,
    RQ,
    V_PLUS2,
    V_REV,
    V_SKIP,
    V_WILD4,
    W4,
    WILD,
    Family,
    colors_deck,
    french_deck,
)
from services.rules.phases import BOUNCE, CHOOSE, NINE, NORMAL, PLUS2, SEVEN, WILD4, Pending, Phase
from services.rules.state import State


class OptionError(ValueError):
    """A table option this ruleset does not have, or a value it does not take."""


AUTOMATIC, CHALLENGE_MODE, NEXT_PLAYER = "automatic", "challenge", "next_player"

# Options every ruleset takes: name -> allowed values (None: any int in a range, see _check)
_PLATFORM_OPTIONS: dict[str, tuple[Any, ...] | None] = {"turn_seconds": None, "target_points": None}
_HOUSE_OPTIONS: dict[str, tuple[Any, ...] | None] = {
    "seven_stacking": (True, False),
    "eight_bounce": (True, False),
    "nine_draws": (0, 3),
    "jack_on_jack": (True, False),
    "mau_mau_call": ("none", "always", "jack_only"),
    "mau_penalty": (1, 2),
    "hand_size": (5, 6, 7),
}


class Ruleset:
    """The hooks every ruleset provides. Instances are immutable once built."""

    name = ""
    family: Family = FRENCH
    min_seats, max_seats = 2, 4
    default_hand = 5
    announce_mode = AUTOMATIC
    draw_anytime = True  # a player may draw while holding a playable card
    after_draw_any = False  # after a draw any valid card may be played, not only the drawn one
    has_burns = False  # candeias: burns, doubles and quick actions
    teams = False
    scoring = True  # False: each round is a match of its own, no points
    lowest_wins = False
    late_join_rounds = 0  # newcomers may join between rounds while fewer rounds than this were played
    random_first = False  # the first player of a round is drawn from its seed, not the seat after the dealer
    # How much playing a card of each rank hurts the other players (the bots' bonus for attacking)
    attacks: ClassVar[dict[int, int]] = {}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {}
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, options: dict[str, Any]):
        allowed = {**_PLATFORM_OPTIONS, **self.extra_options}
        if self.family is FRENCH:
            allowed.update(_HOUSE_OPTIONS)
        for key, value in options.items():
            if key not in allowed:
                raise OptionError(f"{self.name} has no option {key!r}")
            values = allowed[key]
            if values is None:
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise OptionError(f"option {key!r} takes a positive whole number")
            elif value not in values or type(value) is not type(values[0]):
                raise OptionError(f"option {key!r} takes one of {values}")
        opts = {**self.defaults, **options}
        self.options = dict(options)
        self.hand_size: int = opts.get("hand_size", self.default_hand)
        self.target: int | None = opts.get("target_points")
        self.seven_stacking: bool = opts.get("seven_stacking", True)
        self.eight_bounce: bool = opts.get("eight_bounce", False)
        self.nine_draws: int = opts.get("nine_draws", 0)
        self.jack_on_jack: bool = opts.get("jack_on_jack", True)
        self.mau_mau_call: str = opts.get("mau_mau_call", "none")
        self.mau_penalty: int = opts.get("mau_penalty", 2)
        self.single_call = self.mau_mau_call == "none"
        self.configure(opts)
        self.points = [self.card_points(c) for c in range(80)]
        self.chooses = [takes_choice(c, self.family) for c in range(80)]

    def configure(self, opts: dict[str, Any]) -> None:
        """Read the ruleset's own options."""

    # --- the deck -------------------------------------------------------------------

    def deck(self, seats: int) -> list[int]:
        raise NotImplementedError

    def card_points(self, card: int) -> int:
        raise NotImplementedError

    def special(self, card: int) -> bool:
        """candeias: a card that may not be burned, doubled or used for a quick action."""
        return False

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise OptionError(f"{self.name} seats {self.min_seats} to {self.max_seats} players")

    # --- the starter ----------------------------------------------------------------

    def starter_returns(self, card: int) -> bool:
        """Whether a turned starter goes back into the stock and another is turned."""
        return False

    def starter_effect(self, s: State) -> None:
        """Apply the starter's effect to the first player (``s.turn`` is the first player)."""

    def pending_kind(self, top: int) -> Pending:
        """The kind of draw that is pending while ``top`` lies on the pile (a chain's last card)."""
        return Pending.NONE

    def challengeable(self, card: int) -> bool:
        """Whether the next player may challenge ``card`` as a bluff (a wild draw four)."""
        return False

    # --- play -----------------------------------------------------------------------

    def playable(self, s: State, card: int) -> bool:
        return bool(self.playable_cards(s, (card,)))

    def playable_cards(self, s: State, cards: Iterable[int]) -> list[int]:
        """Those of ``cards`` that may be played on the table as it is (a normal turn)."""
        raise NotImplementedError

    def effect(self, s: State, seat: int, card: int, choose: int) -> tuple[int, Phase]:
        """Apply a played card that does not end the round; return the next seat and its phase."""
        raise NotImplementedError

    def go_out(self, s: State, seat: int, card: int, choose: int) -> int:
        """The last card was played correctly: -1 ends the round now, else the seat to move on to."""
        return -1

    def needs_mau_mau(self, card: int) -> bool:
        """Whether going out with ``card`` (from one card) needs the "Mau-Mau" call."""
        return self.mau_mau_call == "always" or (self.mau_mau_call == "jack_only" and card & 15 == RJ)

    # --- scoring --------------------------------------------------------------------

    def hand_points(self, hand: list[int]) -> int:
        p = self.points
        return sum(p[c] for c in hand)

    def score_round(self, s: State, winner: int, blocked: bool) -> list[int]:
        """The winner collects the points left in the other hands (the default)."""
        pts = [0] * s.n
        if self.scoring:
            pts[winner] = sum(self.hand_points(h) for i, h in enumerate(s.hands) if i != winner)
        return pts

    def end_match(self, s: State, winner: int) -> None:
        """Decide, after a round's points are added, whether the match is over and who won."""
        raise NotImplementedError

    def leaders(self, scores: list[int], seats: list[int]) -> list[int]:
        """Who leads among ``seats`` (the winners of a match ended early)."""
        return _lowest(scores, seats) if self.lowest_wins else _highest_among(scores, seats)


def _highest(scores: list[int]) -> list[int]:
    best = max(scores)
    return [i for i, v in enumerate(scores) if v == best]


def _highest_among(scores: list[int], seats: list[int]) -> list[int]:
    best = max(scores[i] for i in seats)
    return [i for i in seats if scores[i] == best]


def _lowest(scores: list[int], seats: list[int]) -> list[int]:
    best = min(scores[i] for i in seats)
    return [i for i in seats if scores[i] == best]


class French(Ruleset):
    """What the French-suited tables share: Jacks choose, 7s chain, 8s skip."""

    low_rank = 0
    attacks: ClassVar[dict[int, int]] = {R7: 12, R8: 10}

    def deck(self, seats: int) -> list[int]:
        return french_deck(self.low_rank)

    def playable_cards(self, s: State, cards: Iterable[int]) -> list[int]:
        if s.pending:
            if s.pending_kind == SEVEN and self.may_answer_seven(s):
                return [c for c in cards if c & 15 == R7]
            return []
        top = s.discard[-1] & 15
        follow = s.follow
        jack_ok = self.jack_on_jack or top != RJ
        return [c for c in cards if (jack_ok if c & 15 == RJ else (c >> 4 == follow or c & 15 == top))]

    def may_answer_seven(self, s: State) -> bool:
        return self.seven_stacking

    def pending_kind(self, top: int) -> Pending:
        return NINE if self.nine_draws and top & 15 == R9 else SEVEN

    def effect(self, s: State, seat: int, card: int, choose: int) -> tuple[int, Phase]:
        r = card & 15
        s.follow = choose if r == RJ and choose >= 0 else card >> 4
        if r == R7:
            s.pending += 2
            s.pending_kind = SEVEN
            s.chain += 1
        elif r == R8:
            return self.eight(s, seat)
        elif r == R9 and self.nine_draws:
            s.pending = self.nine_draws
            s.pending_kind = NINE
        return s.next_seat(seat), NORMAL

    def eight(self, s: State, seat: int) -> tuple[int, Phase]:
        nxt = s.next_seat(seat)
        if self.eight_bounce:
            return nxt, BOUNCE
        return s.next_seat(nxt), NORMAL


class Classic32(French):
    """Seed 000: 32 cards, no Jack on Jack, draw any time, automatic "Mau", collect points."""

    name = "classic32"
    low_rank = R7
    defaults: ClassVar[dict[str, Any]] = {"jack_on_jack": False}

    def card_points(self, card: int) -> int:
        r = card & 15
        return {RJ: 20, RA: 11, RK: 10, RQ: 10, 8: 10}.get(r, r + 2)

    def score_round(self, s: State, winner: int, blocked: bool) -> list[int]:
        if not blocked:
            return super().score_round(s, winner, blocked)
        own = self.hand_points(s.hands[winner])
        pts = [0] * s.n
        pts[winner] = sum(self.hand_points(h) - own for i, h in enumerate(s.hands) if i != winner)
        return pts

    def end_match(self, s: State, winner: int) -> None:
        goal = self.target or 100 * s.n
        if max(s.scores) >= goal:
            s.match_over = True
            s.match_winners = _highest(s.scores)


class Classic52(French):
    """Seed 003: Jacks wild, draw only without a play, "Mau"/"Mau Mau" challenged, lowest total wins."""

    name = "classic52"
    max_seats = 10
    announce_mode = CHALLENGE_MODE
    draw_anytime = False
    lowest_wins = True
    defaults: ClassVar[dict[str, Any]] = {"mau_mau_call": "always"}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "deck": (52, 32),
        "ace": ("none", "draw_one", "skip_all"),
        "seven_chain_limit": None,
        "scoring": ("points", "none"),
    }

    def configure(self, opts: dict[str, Any]) -> None:
        self.low_rank = R7 if opts.get("deck", 52) == 32 else 0
        self.ace: str = opts.get("ace", "none")
        self.chain_limit: int | None = opts.get("seven_chain_limit")
        self.scoring = opts.get("scoring", "points") == "points"
        self.target = self.target or 100

    def deck(self, seats: int) -> list[int]:
        return french_deck(self.low_rank, 2 if seats >= 7 else 1)

    def card_points(self, card: int) -> int:
        r = card & 15
        return 10 if r >= RJ else r + 2

    def may_answer_seven(self, s: State) -> bool:
        return self.seven_stacking and (self.chain_limit is None or s.chain <= self.chain_limit)

    def starter_effect(self, s: State) -> None:
        if s.discard[-1] & 15 == RJ:
            s.phase = CHOOSE
            s.turn = s.dealer
            s.follow = -1

    def effect(self, s: State, seat: int, card: int, choose: int) -> tuple[int, Phase]:
        if card & 15 == RA and self.ace != "none":
            s.follow = card >> 4
            if self.ace == "skip_all":
                return seat, NORMAL
            for other in range(s.n):
                if other != seat and s.active[other]:
                    s.draw(other, 1)
            return s.next_seat(seat), NORMAL
        return super().effect(s, seat, card, choose)

    def score_round(self, s: State, winner: int, blocked: bool) -> list[int]:
        if not self.scoring:
            return [0] * s.n
        return [0 if i == winner else self.hand_points(h) for i, h in enumerate(s.hands)]

    def end_match(self, s: State, winner: int) -> None:
        if not self.scoring or s.tiebreak:
            s.match_over = True
            s.match_winners = [winner]
        elif max(s.scores) >= (self.target or 100):
            low = _lowest(s.scores, list(range(s.n)))
            if len(low) == 1:
                s.match_over = True
                s.match_winners = low
            else:
                s.tiebreak = low


class Candeias(French):
    """Seed 004: two decks, specials A 7 8 J Q K, burns, doubles, quick actions, five rounds."""

    name = "candeias"
    max_seats = 5
    default_hand = 6
    after_draw_any = True
    has_burns = True
    lowest_wins = True
    late_join_rounds = 2
    rounds = 5
    attacks: ClassVar[dict[int, int]] = {R7: 12, R8: 10, RA: 8, RK: 6}
    _special_ranks = frozenset((RA, R7, R8, RJ, RQ, RK))

    def configure(self, opts: dict[str, Any]) -> None:
        if self.eight_bounce:
            raise OptionError("eight_bounce needs a ruleset where the 8 skips")
        self.specials = [(c & 15) in self._special_ranks or (self.nine_draws > 0 and c & 15 == R9) for c in range(64)]

    def deck(self, seats: int) -> list[int]:
        return french_deck(0, 2)

    def card_points(self, card: int) -> int:
        r = card & 15
        return 1 if r == RA else r + 2

    def special(self, card: int) -> bool:
        return self.specials[card]

    def starter_returns(self, card: int) -> bool:
        return self.specials[card]

    def starter_effect(self, s: State) -> None:
        s.opening = True

    def effect(self, s: State, seat: int, card: int, choose: int) -> tuple[int, Phase]:
        r = card & 15
        if r == RA:
            s.follow = card >> 4
            return s.next_seat(s.next_seat(seat)), NORMAL
        if r == RQ:
            s.follow = card >> 4
            s.direction = -s.direction
            return (seat if s.players() == 2 else s.next_seat(seat)), NORMAL
        if r in (R8, RK):
            s.follow = card >> 4
            s.draw(s.previous_seat(seat), 2 if r == R8 else 1)
            return s.next_seat(seat), NORMAL
        return super().effect(s, seat, card, choose)

    def go_out(self, s: State, seat: int, card: int, choose: int) -> int:
        r = card & 15
        if r == RJ:
            s.double_points = True
        elif r in (R8, RK):
            s.draw(s.previous_seat(seat), 2 if r == R8 else 1)
        elif r == R7:
            s.follow = card >> 4
            s.pending += 2
            s.pending_kind = SEVEN
            s.chain += 1
            s.finisher = seat
            return s.next_seat(seat)
        return -1

    def score_round(self, s: State, winner: int, blocked: bool) -> list[int]:
        factor = 2 if s.double_points else 1
        return [0 if i == winner else factor * self.hand_points(h) for i, h in enumerate(s.hands)]

    def end_match(self, s: State, winner: int) -> None:
        if s.rounds_played >= self.rounds:
            s.match_over = True
            s.match_winners = _lowest(s.scores, list(range(s.n)))


class Colors108(Ruleset):
    """Seed 002: the colour deck, +2 chains, wilds, the W+4 challenge, "última"."""

    name = "colors108"
    family = COLORS
    max_seats = 10
    default_hand = 7
    announce_mode = NEXT_PLAYER
    random_first = True
    attacks: ClassVar[dict[int, int]] = {V_SKIP: 10, V_PLUS2: 12, V_REV: 4}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {"quick": (True, False), "teams": (True, False)}

    def configure(self, opts: dict[str, Any]) -> None:
        self.scoring = not opts.get("quick", False)
        self.teams = opts.get("teams", False)
        self.target = self.target or 500

    def check_seats(self, seats: int) -> None:
        super().check_seats(seats)
        if self.teams and seats != 4:
            raise OptionError("teams are played with 4 seats")

    def deck(self, seats: int) -> list[int]:
        return colors_deck()

    def card_points(self, card: int) -> int:
        v = card & 15
        return 50 if card >> 4 == WILD else (20 if v >= V_SKIP else v)

    def starter_returns(self, card: int) -> bool:
        return card & 15 == V_WILD4

    def starter_effect(self, s: State) -> None:
        top = s.discard[-1]
        v = top & 15
        if top >> 4 == WILD:
            s.follow = -1
        elif v == V_PLUS2:
            s.pending = 2
            s.pending_kind = PLUS2
        elif v == V_SKIP:
            s.turn = s.next_seat(s.turn)
        elif v == V_REV:
            s.direction = -1
            s.turn = s.next_seat(s.turn)

    def pending_kind(self, top: int) -> Pending:
        return PLUS2 if top & 15 == V_PLUS2 else WILD4

    def challengeable(self, card: int) -> bool:
        return card == W4

    def playable_cards(self, s: State, cards: Iterable[int]) -> list[int]:
        if s.pending:
            return [c for c in cards if c & 15 == V_PLUS2] if s.pending_kind == PLUS2 else []
        follow = s.follow
        if follow < 0:
            return list(cards)
        top = s.discard[-1] & 15
        return [c for c in cards if c >> 4 == follow or c & 15 == top or c >> 4 == WILD]

    def effect(self, s: State, seat: int, card: int, choose: int) -> tuple[int, Phase]:
        v = card & 15
        if card >> 4 == WILD:
            if v == V_WILD4:
                follow = s.follow
                s.w4_seat = seat
                s.w4_bluff = follow >= 0 and any(c >> 4 == follow for c in s.hands[seat])
                s.pending = 4
                s.pending_kind = WILD4
            s.follow = choose
            return s.next_seat(seat), NORMAL
        s.follow = card >> 4
        if v == V_SKIP:
            return s.next_seat(s.next_seat(seat)), NORMAL
        if v == V_REV:
            s.direction = -s.direction
            return (seat if s.players() == 2 else s.next_seat(seat)), NORMAL
        if v == V_PLUS2:
            s.pending += 2
            s.pending_kind = PLUS2
        return s.next_seat(seat), NORMAL

    def needs_mau_mau(self, card: int) -> bool:
        return False

    def score_round(self, s: State, winner: int, blocked: bool) -> list[int]:
        if not self.teams:
            return super().score_round(s, winner, blocked)
        pts = [0] * s.n
        if self.scoring:
            side = winner % 2
            pts[side] = pts[side + 2] = sum(self.hand_points(h) for i, h in enumerate(s.hands) if i % 2 != side)
        return pts

    def end_match(self, s: State, winner: int) -> None:
        if not self.scoring or s.scores[winner] >= (self.target or 500):
            s.match_over = True
            s.match_winners = [winner, (winner + 2) % 4] if self.teams else [winner]


RULESETS: dict[str, type[Ruleset]] = {r.name: r for r in (Classic32, Classic52, Candeias, Colors108)}


_MADE: dict[tuple[str, tuple[tuple[str, Any], ...]], Ruleset] = {}


def make_ruleset(name: str, options: dict[str, Any]) -> Ruleset:
    """The ruleset ``name`` with ``options`` (shared: rulesets are immutable once built)."""
    try:
        key = (name, tuple(sorted(options.items())))
        made = _MADE.get(key)
    except TypeError:  # an unhashable option value: let the ruleset refuse it
        key, made = None, None
    if made is not None:
        return made
    try:
        cls = RULESETS[name]
    except KeyError:
        raise OptionError(f"unknown ruleset {name!r}; one of {sorted(RULESETS)}") from None
    made = cls(options)
    if key is not None and len(_MADE) < 1024:
        _MADE[key] = made
    return made
