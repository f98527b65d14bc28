"""Our rules engine as an OpenSpiel Python game, ``python_maumau``: any ruleset, for OpenSpiel's searches.

Loaded with ``pyspiel.load_game("python_maumau", {"ruleset": "classic52", "players": 4})``
once this module is imported (it registers the game). It needs the ``anchor`` extra
(``make bench-bots``); the project itself never imports it.

The game, as OpenSpiel sees it:

* **Chance: the deal.** The first node is a chance node with ``deals`` equally likely
  outcomes; outcome ``i`` is the engine's deal from the seed ``sha256("openspiel:i")``
  (``decider.deal``). A sampled set of deals stands for all of them: 52! orderings are no
  chance node. Reshuffles during a round follow the state's seed, a hidden part of the world
  like the stock's order, so they are no chance nodes either. The benchmark never passes
  through the chance node: it wraps the state of its own deals (``MauMauState.at``).
* **Who decides now.** The engine lets seats act out of turn (challenges, quick actions,
  opening burns). As in ``tools/bench/bots.py``, every seat after the one on turn that
  has such an action is asked in seat order, with one more action, ``let go``; the first
  that acts changes the state and the asking starts over; when all let go, the seat on
  turn decides. A state keeps the position reached in that order, so a resampled world
  asks the same seat.
* **Actions** are indices into a fixed mixed-radix encoding of ``Action`` over the
  ruleset's distinct cards (``ActionCode``): the same action has the same index in every
  state of the game, whoever's seat it is.
* **Information state** of a seat: its ``knowledge_from`` (``services/bots/knowledge.py``),
  what a person in that seat is shown plus the public discard pile, spelled as a string. It
  forgets the order of past moves (imperfect recall), which ISMCTS only uses as a key.
  Nothing else of the state is read, so other seats' hidden cards never reach it.
* **Resampling** (``resample_from_infostate``) deals the cards the seat has not seen at
  random to the other hands and the stock with the bots' own sampler
  (``worlds.sample_world``), keeping the seat's hand, the public pile, the public facts the
  knowledge does not spell (``PUBLIC``) and the asking position: the seat's information
  state is the same in the sample (``resampled``).
* **Returns**: 1 to the round's winner (and its partner at a team table), 0 to the others;
  a game still going after ``max_decisions`` decisions ends with 0 for everyone.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from services.bots.knowledge import SeatKnowledge, knowledge_from
from services.bots.worlds import World, sample_world
from services.rules.actions import ANNOUNCEMENTS, KINDS, Action
from services.rules.cards import Card, Seat
from services.rules.decider import deal, evolve
from services.rules.engine import apply, legal_actions, new_match
from services.rules.rulesets import Ruleset, make_ruleset
from services.rules.state import State

GAME_NAME = "python_maumau"
LET_GO = "let_go"  # a seat asked out of turn lets its chance go
MAX_SEATS = 10  # the most seats any ruleset takes
# Facts of a round every seat has seen that ``SeatKnowledge`` does not spell: a resampled world keeps them.
PUBLIC = ("last_player", "quick_from", "stuck", "double_points", "mau_guard", "chain", "opening", "burn_announced",
          "first", "w4_seat", "reshuffles")
RESAMPLE_TRIES = 100
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Mau-Mau Online (our rules engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"ruleset": "classic52", "players": 4, "deals": 1024, "max_decisions": 20_000},
)


class ActionCode:
    """A stable numbering of a ruleset's actions: kind, card, second card, suit, call, target in mixed radix.

    >>> code = ActionCode(make_ruleset("classic32", {}), 3)
    >>> a = Action("play", 2, code.cards[9], 1, "mau")
    >>> code.decode(code.encode(a), 2) == a, code.decode(code.encode(None), 1) is None
    (True, True)
    """

    def __init__(self, rs: Ruleset, players: int):
        self.cards: tuple[Card, ...] = tuple(sorted(set(rs.deck(players))))
        self.kinds: tuple[str, ...] = (*KINDS, LET_GO)
        self._card_index = {c: i + 1 for i, c in enumerate(self.cards)}  # 0: no card
        self._radix = (len(self.kinds), len(self.cards) + 1, len(self.cards) + 1, 5, len(ANNOUNCEMENTS) + 1,
                       players + 1)

    @property
    def size(self) -> int:
        return math.prod(self._radix)

    def encode(self, a: Action | None) -> int:
        """The index of ``a`` (``None``: let go)."""
        if a is None:
            digits = (self.kinds.index(LET_GO), 0, 0, 0, 0, 0)
        else:
            call = 0 if a.announce is None else ANNOUNCEMENTS.index(a.announce) + 1
            digits = (self.kinds.index(a.kind), self._card_index.get(a.card, 0), self._card_index.get(a.card2, 0),
                      a.choose + 1, call, a.target + 1)
        code = 0
        for digit, base in zip(digits, self._radix, strict=True):
            code = code * base + digit
        return code

    def decode(self, code: int, seat: Seat) -> Action | None:
        """The action of ``seat`` numbered ``code`` (``None``: let go)."""
        digits = []
        for base in reversed(self._radix):
            code, digit = divmod(code, base)
            digits.append(digit)
        target, call, choose, card2, card, kind = digits
        if self.kinds[kind] == LET_GO:
            return None
        return Action(self.kinds[kind], seat, self.cards[card - 1] if card else -1, choose - 1,
                      ANNOUNCEMENTS[call - 1] if call else None, target - 1, self.cards[card2 - 1] if card2 else -1)


class MauMauGame(pyspiel.Game):  # type: ignore[misc]
    """One round of a ruleset at ``players`` seats (game parameters ``ruleset``, ``players``)."""

    def __init__(self, params: dict[str, Any] | None = None):
        p = {**_GAME_TYPE.parameter_specification, **(params or {})}
        self.rs = make_ruleset(str(p["ruleset"]), {})
        self.players = int(p["players"])
        self.rs.check_seats(self.players)
        self.deals = int(p["deals"])
        self.max_decisions = int(p["max_decisions"])
        self.code = ActionCode(self.rs, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.code.size,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=self.max_decisions,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> MauMauState:
        return MauMauState(self, None)

    def __deepcopy__(self, memo: dict[int, Any]) -> MauMauGame:
        return self  # immutable: a cloned state shares its game

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KnowledgeObserver:
        return KnowledgeObserver()


@dataclass
class Round:
    """What changes in a ``MauMauState``. OpenSpiel clones a Python state by deep-copying its
    attributes: this one copies itself the engine's fast way, and forgets its samplers."""

    engine: State | None  # None before the deal
    position: int = 0  # index into ``MauMauState.order_of(engine)``: the seat deciding now
    decisions: int = 0
    player: Seat = -1  # the seat at ``position`` (asked many times a step: kept, not recomputed)
    worlds: dict[Seat, tuple[SeatKnowledge, World]] = field(default_factory=dict)  # a sampler per seat

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        return Round(None if self.engine is None else self.engine.copy(), self.position, self.decisions, self.player)


class MauMauState(pyspiel.State):  # type: ignore[misc]
    """A round in play: the engine's ``State`` and where the asking out of turn stands."""

    def __init__(self, game: MauMauGame, engine: State | None, position: int = 0, decisions: int = 0):
        super().__init__(game)
        self.game = game
        self.round = Round(engine, position, decisions)
        if engine is not None and not engine.round_over:
            self._settle()

    @property
    def engine(self) -> State | None:
        return self.round.engine

    @classmethod
    def at(cls, game: MauMauGame, engine: State, seat: Seat) -> MauMauState:
        """The game at an engine state where ``seat`` is asked (out of turn, or on turn after everyone let go)."""
        return cls(game, engine, cls.order_of(engine).index(seat))

    @staticmethod
    def order_of(s: State) -> list[Seat]:
        """The order seats are asked in: those after the seat on turn, then the seat on turn."""
        return [(s.turn + k) % s.n for k in range(1, s.n)] + [s.turn]

    def _settle(self) -> None:
        """Move the asking on past the seats that have nothing to do out of turn."""
        s = self.engine
        assert s is not None
        order = self.order_of(s)
        r = self.round
        while r.position < s.n - 1 and next(legal_actions(s, order[r.position]), None) is None:
            r.position += 1
        r.player = order[r.position]

    def current_player(self) -> int:
        if self.engine is None:
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return self.round.player

    def is_terminal(self) -> bool:
        r = self.round
        return r.engine is not None and (r.engine.round_over or r.decisions >= self.game.max_decisions)

    def _legal_actions(self, player: int) -> list[int]:
        s = self.engine
        assert s is not None
        encode = self.game.code.encode
        codes = [encode(a) for a in legal_actions(s, player)]
        if player != s.turn:
            codes.append(encode(None))
        return sorted(set(codes))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.game.deals
        return [(i, p) for i in range(self.game.deals)]

    def _apply_action(self, code: int) -> None:
        if self.engine is None:
            s0 = new_match(self.game.rs, self.game.players)
            seed = hashlib.sha256(f"openspiel:{code}".encode()).hexdigest()
            self.round.engine = evolve(s0, deal(s0, seed, "openspiel", 0))
            self._settle()
            return
        r = self.round
        a = self.game.code.decode(code, r.player)
        r.decisions += 1
        r.worlds.clear()
        if a is None:
            r.position += 1
        else:
            apply(self.engine, a)
            r.position = 0
        if not self.engine.round_over:
            self._settle()

    def _action_to_string(self, player: int, code: int) -> str:
        if player == CHANCE:
            return f"deal {code}"
        a = self.game.code.decode(code, player)
        return LET_GO if a is None else repr(a)

    def returns(self) -> list[float]:
        s = self.engine
        if s is None or not s.round_over:
            return [0.0] * self.game.players
        w = s.round_winner
        return [1.0 if i == w or (s.rs.teams and i % 2 == w % 2) else 0.0 for i in range(s.n)]

    def knowledge(self, player: Seat) -> SeatKnowledge:
        """What ``player`` knows, its legal actions in the order of their codes (the engine's follows the hand's)."""
        assert self.engine is not None
        k = knowledge_from(self.engine, player)
        return replace(k, legal=tuple(sorted(k.legal, key=self.game.code.encode)))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MauMauState:
        """A world ``player_id`` cannot tell from this one, drawn with ``probability_sampler``'s randomness."""
        return self.resampled(player_id, random.Random(int(probability_sampler() * 2**53)))

    def resampled(self, player: Seat, rng: random.Random) -> MauMauState:
        """The unseen cards dealt at random to the other hands and the stock (``worlds.sample_world``).

        The bots' sampler rebuilds a state from the knowledge alone; the facts every seat saw
        but the knowledge does not spell (``PUBLIC``: who played last, the open window for a
        quick action, the guard of a call...) are then taken from this state, and so is the
        card drawn this turn when ``player`` drew it. Another seat's drawn card is a card of
        its sampled hand. A sample that still shows ``player`` anything else is drawn again.
        """
        s = self.engine
        assert s is not None
        if player not in self.round.worlds:
            k = self.knowledge(player)
            self.round.worlds[player] = (k, World.prepare(k))
        k, world = self.round.worlds[player]
        for _ in range(RESAMPLE_TRIES):
            w = sample_world(k, rng, world)
            for name in PUBLIC:
                setattr(w, name, getattr(s, name))
            if s.drawn_card >= 0:
                w.drawn_card = s.drawn_card if player == s.turn else w.hands[s.turn][-1]
            sample = MauMauState(self.game, w, self.round.position, self.round.decisions)
            if sample.knowledge(player) == k:
                return sample
        raise RuntimeError(f"no world consistent with seat {player}'s knowledge in {RESAMPLE_TRIES} samples")

    def __str__(self) -> str:
        return "dealing" if self.engine is None else f"turn {self.engine.turn}, asking {self.current_player()}"


class KnowledgeObserver:
    """Information states and observations: a seat's ``knowledge_from``, and nothing else, as a string."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)  # no tensor: ISMCTS keys its nodes by the string
        self.dict: dict[str, Any] = {}

    def set_from(self, state: MauMauState, player: int) -> None:
        pass

    def string_from(self, state: MauMauState, player: int) -> str:
        if state.engine is None:
            return f"seat {player}, before the deal"
        return repr(state.knowledge(player))


pyspiel.register_game(_GAME_TYPE, MauMauGame)
