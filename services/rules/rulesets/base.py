"""The ``Ruleset`` base class: the hooks every ruleset provides, and the options every table takes.

A ruleset overrides a few hooks (python-chess style): its deck, what may be played, what a
card does, how a round is scored, when the match ends. The turn machinery that is the same
everywhere calls them (``engine``).

>>> highest([3, 7, 7]), lowest([3, 7, 3], [1, 2])
([1, 2], [2])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Final

from services.rules.actions import MAU, MAUMAU, PLAY, Action, takes_choice
from services.rules.cards import CARD_SPACE, FRENCH, RJ, Card, Family, Seat, Suit, rank
from services.rules.phases import BURNED, CHOOSE, NORMAL, Pending, Phase
from services.rules.position import Position

_FOLLOWS = (0, 1, 2, 3, -1)  # every value of ``Position.follow``, in the order ``follows[follow]`` finds it


class OptionError(ValueError):
    """A table option this ruleset does not have, or a value it does not take."""


AUTOMATIC: Final = "automatic"
CHALLENGE_MODE: Final = "challenge"
NEXT_PLAYER: Final = "next_player"

# Options every ruleset takes: name -> allowed values (None: any positive whole number)
PLATFORM_OPTIONS: dict[str, tuple[Any, ...] | None] = {"turn_seconds": None, "target_points": None}
# Options every French-suited ruleset takes
HOUSE_OPTIONS: dict[str, tuple[Any, ...] | None] = {
    "seven_stacking": (True, False),
    "eight_bounce": (True, False),
    "nine_draws": (0, 3),
    "jack_on_jack": (True, False),
    "mau_mau_call": ("none", "always", "jack_only"),
    "mau_penalty": (1, 2),
    "hand_size": (5, 6, 7),
    "ace_with_company": (True, False),
    "seven_draws": (2, 0),
}


class Ruleset:
    """The hooks every ruleset provides. Instances are immutable once built."""

    name: ClassVar[str] = ""
    family: Family = FRENCH
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
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
    reuses_discard = True  # an empty stock is made again from the discard pile (but its top)
    calls = True  # the "Mau" and "Mau-Mau" calls (False: nothing is ever announced)
    # True: every turn that ends without a card played while nothing can be drawn counts towards a blocked
    # table, whatever the hand holds (consecutive passes); False: only a turn that could do nothing else
    passes_block = False
    max_draws = 1  # single draws a turn may make at most (``may_draw_or_pass`` says which it may)
    # the bots' names and levels, in the order they fill a table's seats (a tenth seat repeats one, numbered)
    bot_names: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Carmen", "strong"), ("Tito", "medium"), ("Luna", "weak"), ("Dona Zezé", "strong"), ("Juca", "medium"),
        ("Bia", "weak"), ("Seu Lúcio", "strong"), ("Nina", "medium"), ("Caju", "weak"))
    clockwise = False  # how a client draws direction +1 (RULES.md: the client's business; most tables turn right)
    # How much playing a card of each rank hurts the other players (the bots' bonus for attacking)
    attacks: ClassVar[dict[int, int]] = {}
    extra_options: ClassVar[dict[str, tuple[Any, ...] | None]] = {}
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, options: dict[str, Any]):
        allowed = {**PLATFORM_OPTIONS, **self.extra_options}
        if self.family is FRENCH:
            allowed.update(HOUSE_OPTIONS)
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
        # The class's flags that the turn machinery reads on every action, as the instance's own:
        # CPython 3.11 reads an instance's attribute in a third of the time of a class attribute.
        self.has_burns = self.has_burns
        self.draw_anytime = self.draw_anytime
        self.after_draw_any = self.after_draw_any
        self.announce_mode = self.announce_mode
        self.calls = self.calls
        self.passes_block = self.passes_block
        self.reuses_discard = self.reuses_discard
        self.max_draws = self.max_draws
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
        self.ace_company: bool = opts.get("ace_with_company", False)
        self.seven_draws: int = opts.get("seven_draws", 2)
        self.configure(opts)
        self.points = [self.card_points(c) for c in CARD_SPACE]
        self.chooses = [takes_choice(c, self.family) for c in CARD_SPACE]
        # ``plays[seat][card]``: playing ``card`` where no call can be due, once per suit where one is
        # asked; made once and shared (actions are immutable), as ``legal_actions`` lists them
        self.plays = [[tuple(Action(PLAY, seat, c, x) for x in (range(4) if self.chooses[c] else (-1,)))
                       for c in CARD_SPACE] for seat in range(self.max_seats)]
        # Where a call may be due (``required_call``, a hand of two cards or one), made once as ``plays``: the plays
        # of a hand of two cards that owe "mau", each suit with the call and without (``mau_plays``), and of a last
        # card, no suit asked, with "mau-mau" and without (``last_plays``). No call is ever due without ``calls``.
        self.mau_plays = [[tuple(Action(PLAY, seat, c, x, call) for x in (range(4) if self.chooses[c] else (-1,))
                                 for call in (MAU, None)) for c in CARD_SPACE]
                          for seat in range(self.max_seats if self.calls else 0)]
        self.last_plays = [[(Action(PLAY, seat, c, -1, MAUMAU), Action(PLAY, seat, c)) for c in CARD_SPACE]
                           for seat in range(self.max_seats)]
        # ``follows[follow][top][card]``: ``may_follow`` for every suit in force (-1 indexes the last
        # row), top card and card, computed once: what may be played is looked up on every action.
        by_rank = [[tuple(self.may_follow(f, top, c) for c in CARD_SPACE) for top in range(16)] for f in _FOLLOWS]
        self.follows = [[row[rank(top)] for top in CARD_SPACE] for row in by_rank]

    def configure(self, opts: dict[str, Any]) -> None:
        """Read the ruleset's own options."""

    # --- the deck -------------------------------------------------------------------

    def deck(self, seats: int) -> list[Card]:
        raise NotImplementedError

    def card_points(self, card: Card) -> int:
        raise NotImplementedError

    def special(self, card: Card) -> bool:
        """candeias: a card that may not be burned, doubled or used for a quick action."""
        return False

    def deal_size(self, players: int) -> int:
        """How many cards each of ``players`` is dealt (by default ``hand_size`` whatever the players).

        >>> from services.rules.rulesets import make_ruleset
        >>> make_ruleset("classic32", {"hand_size": 6}).deal_size(2)
        6
        """
        return self.hand_size

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise OptionError(f"{self.name} seats {self.min_seats} to {self.max_seats} players")

    # --- the starter ----------------------------------------------------------------

    def starter_returns(self, card: Card) -> bool:
        """Whether a turned starter goes back into the stock and another is turned."""
        return False

    def starter_effect(self, s: Position) -> None:
        """Apply the starter's effect to the first player (``s.turn`` is the first player)."""

    # --- play -----------------------------------------------------------------------

    def playable(self, s: Position, card: Card) -> bool:
        """``playable_cards`` of one card (after a draw: the card drawn), without a list."""
        if s.pending:
            return bool(self.answers(s, [card]))
        return self.follows[s.follow][s.discard[-1]][card]

    def playable_cards(self, s: Position, cards: list[Card]) -> list[Card]:
        """Those of ``cards`` that may be played on the table as it is (a normal turn)."""
        if s.pending:
            return self.answers(s, cards)
        ok = self.follows[s.follow][s.discard[-1]]
        # a loop, not a comprehension: in CPython 3.11 that is a function made and called on every action
        playable = []
        for c in cards:
            if ok[c]:
                playable.append(c)
        return playable

    def may_follow(self, follow: Suit, top: int, card: Card) -> bool:
        """Whether ``card`` may go on a top card of rank ``top`` with ``follow`` in force, nothing pending."""
        raise NotImplementedError

    def answers(self, s: Position, cards: list[Card]) -> list[Card]:
        """Those of ``cards`` that may answer the draw pending on the seat on turn (by default none)."""
        return []

    def needs_company(self, card: Card) -> bool:
        """Whether ``card`` may only be played together with a second card (``ace_with_company``)."""
        return False

    def company(self, hand: list[Card], card: Card) -> list[Card]:
        """The distinct cards of ``hand`` (one copy of ``card`` set aside) that may go with ``card``."""
        return []

    def effect(self, s: Position, seat: Seat, card: Card, choose: Suit) -> tuple[Seat, Phase]:
        """Apply a played card that does not end the round; return the next seat and its phase."""
        raise NotImplementedError

    def go_out(self, s: Position, seat: Seat, card: Card, choose: Suit) -> Seat:
        """The last card was played correctly: -1 ends the round now, else the seat to move on to."""
        return -1

    def needs_mau_mau(self, card: Card) -> bool:
        """Whether going out with ``card`` (from one card) needs the "Mau-Mau" call."""
        return self.mau_mau_call == "always" or (self.mau_mau_call == "jack_only" and rank(card) == RJ)

    def may_draw_or_pass(self, s: Position, playable: list[Card]) -> tuple[bool, bool]:
        """Whether the seat on turn, holding ``playable`` in its phase, may draw, and whether it may pass.

        By default one draw a turn: at the start of a turn a seat draws (only without a play
        unless ``draw_anytime``) and passes only when there is nothing to play, draw or answer;
        after its draw (or a bounce) it may pass. A draw when nothing can be drawn is allowed
        and gives no card.

        >>> from services.rules.engine import new_match, start_round
        >>> s = new_match("classic52", 2)
        >>> start_round(s, 1, 0, [["7H", "9S"], ["8H", "KD"]], "9H", ["AC"])
        >>> s.rs.may_draw_or_pass(s, [s.hands[0][1]]), s.rs.may_draw_or_pass(s, [])
        ((False, False), (True, False))
        """
        phase = s.phase
        if phase is NORMAL:
            if playable:
                return self.draw_anytime, False
            return True, not s.pending and not s.can_draw()
        if phase is BURNED:  # without a continuation the burner must draw
            return not playable, bool(playable)
        return False, phase is not CHOOSE

    def blocked_after(self, players: int) -> int:
        """How many turns in a row counted as stuck (``passes_block``) end the round as a blocked table."""
        return players

    def pending_kind(self, top: Card) -> Pending:
        """The kind of draw that is pending while ``top`` lies on the pile (a chain's last card)."""
        return Pending.NONE

    def challengeable(self, card: Card) -> bool:
        """Whether the next player may challenge ``card`` as a bluff (a wild draw four)."""
        return False

    # --- scoring --------------------------------------------------------------------

    def hand_points(self, hand: list[Card]) -> int:
        p = self.points
        return sum(p[c] for c in hand)

    def score_round(self, s: Position, winner: Seat, blocked: bool) -> list[int]:
        """The winner collects the points left in the other hands (the default)."""
        pts = [0] * s.n
        if self.scoring:
            pts[winner] = sum(self.hand_points(h) for i, h in enumerate(s.hands) if i != winner)
        return pts

    def end_match(self, s: Position, winner: Seat) -> None:
        """Decide, after a round's points are added, whether the match is over and who won."""
        raise NotImplementedError

    def leaders(self, scores: list[int], seats: list[Seat]) -> list[Seat]:
        """Who leads among ``seats`` (the winners of a match ended early)."""
        return lowest(scores, seats) if self.lowest_wins else highest(scores, seats)


def highest(scores: list[int], seats: Iterable[Seat] | None = None) -> list[Seat]:
    """The seats (of ``seats``, default all) with the highest score."""
    among = range(len(scores)) if seats is None else list(seats)
    best = max(scores[i] for i in among)
    return [i for i in among if scores[i] == best]


def lowest(scores: list[int], seats: Iterable[Seat] | None = None) -> list[Seat]:
    """The seats (of ``seats``, default all) with the lowest score."""
    among = range(len(scores)) if seats is None else list(seats)
    best = min(scores[i] for i in among)
    return [i for i in among if scores[i] == best]
