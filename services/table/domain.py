"""A table's life around its match: the aggregate and how each event changes it.

``evolve`` folds one event into the table (the table is owned by whoever folds it);
``services.table.decide`` turns a command into the events it causes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from maumau.v1 import events_pb2, table_pb2
from services.rules.decider import ActionTaken, RoundDealt
from services.rules.decider import evolve as evolve_match
from services.rules.engine import add_player, new_match
from services.rules.rulesets import make_ruleset
from services.rules.state import State
from services.rules.wire import action_from_pb, options_from_pb

RECENT_COMMANDS = 512  # command ids remembered per table, for re-sent commands
MAX_STAKE = 100_000  # chips a competitive table's seat may put in a pot


class Status(StrEnum):
    """Where a table is in its life."""

    NONE = "none"  # nothing happened at this id
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"  # the match played out: a rematch may follow
    ENDED = "ended"  # given up, an absence, or expired


class Category(StrEnum):
    """What a match counts for in the rankings, fixed at its start."""

    OFFICIAL = "official"  # people only
    TRAINING = "training"  # a bot seated


@dataclass
class Player:
    identity: str
    name: str
    bot: bool = False
    level: str = ""
    account: bool = False
    address: str = ""  # hashed with the table's salt: equal for two seats at one address, and nothing more


@dataclass
class Table:
    table_id: str
    ruleset: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    capacity: int = 0
    invitation: str = ""
    creator: str = ""
    stake: int = 0  # a competitive table's stake per seat (0: not competitive)
    open: bool = False  # listed for anyone to join
    salt: str = ""
    players: list[Player] = field(default_factory=list)
    status: Status = Status.NONE
    category: Category = Category.OFFICIAL  # the match's (or the last one's), fixed at its start
    match_stake: int = 0  # what its seats put in the pot, fixed at its start (0: no chips nor XP change hands)
    penalty_votes: dict[int, bool] = field(default_factory=dict)  # seat: penalise the one who left?
    penalised: bool = False
    match: State | None = None
    match_no: int = 0
    moves: int = 0  # actions taken in the match so far (a give-up before a few counts for nothing: docs/rankings.md)
    round_no: int = 0  # deals so far at this table: the next deal's number
    last_move: float = 0.0
    rematch: set[int] = field(default_factory=set)
    end_reason: str = ""
    ended_by: int = -1  # the seat that gave up, or whose absence ended the match (-1: none, or the clock)
    winners: list[int] = field(default_factory=list)
    absent_seat: int = -1  # the player on turn whose absence was noticed (the others may end the match)
    rematch_closed: bool = False
    auto: set[int] = field(default_factory=set)  # seats in automatic mode: the system plays their turns at once
    away: dict[int, float] = field(default_factory=dict)  # seated people with no page open, since when
    stood_in: set[int] = field(default_factory=set)  # automatic because away: back, they play again
    timed_out: set[int] = field(default_factory=set)  # seats whose last turn the timer played (twice: automatic)
    annulled: set[int] = field(default_factory=set)  # matches staff annulled, upholding a dispute (docs/disputes.md)
    seq: int = 0
    head: bytes | None = None  # the SHA-256 of the last stored batch folded in, when its bytes were read
    commands: OrderedDict[str, int] = field(default_factory=OrderedDict)

    def seat_of(self, identity: str) -> int:
        for i, p in enumerate(self.players):  # a loop, not next() over a generator: twice per command
            if p.identity == identity:
                return i
        return -1

    def seated_stake(self) -> int:
        """The stake a match started now would be played for: none unless every seat is an account's
        and no two seats share an address (seed 002: no points between players at one address)."""
        addresses = [p.address for p in self.players]
        shared = len(set(addresses)) < len(addresses) or not all(addresses)
        return 0 if shared or not all(p.account and not p.bot for p in self.players) else self.stake

    def seated_category(self) -> Category:
        """What a match started now would count for: official when only people are seated."""
        return Category.TRAINING if any(p.bot for p in self.players) else Category.OFFICIAL


def solo_since(t: Table) -> float | None:
    """Since when every person of a timed match in play has been away (None: someone is here, or no timer)."""
    people = [seat for seat, p in enumerate(t.players) if not p.bot]
    if t.status != Status.PLAYING or not t.options.get("turn_seconds") or not people:
        return None
    if any(seat not in t.away for seat in people):
        return None
    return max(t.away[seat] for seat in people)


def finished(t: Table, was_over: bool) -> bool:
    """Whether the batch just folded into ``t`` ended its match (a later expiry of a played-out one does not)."""
    return t.status in (Status.OVER, Status.ENDED) and not was_over and t.match_no > 0


def _created(t: Table, ev: events_pb2.Event) -> None:
    c = ev.table_created
    t.ruleset, t.options, t.capacity = c.ruleset, options_from_pb(c.options), c.seats
    t.invitation, t.creator, t.stake, t.salt, t.open = c.invitation, c.creator.identity, c.stake, c.salt, c.open
    t.players = [] if c.creator_watches else [_player(c.creator)]
    t.status = Status.LOBBY


def _joined(t: Table, ev: events_pb2.Event) -> None:
    t.players.append(_player(ev.player_joined.player))
    if ev.player_joined.late and t.match is not None:
        t.match = t.match.copy()
        add_player(t.match)


def _player(p: table_pb2.Player) -> Player:
    return Player(p.identity, p.name, p.bot, p.level, p.account, p.address)


def _left(t: Table, ev: events_pb2.Event) -> None:
    del t.players[ev.player_left.seat]


def _seat_moved(t: Table, ev: events_pb2.Event) -> None:
    a, b = ev.seat_moved.seat, ev.seat_moved.to
    t.players[a], t.players[b] = t.players[b], t.players[a]


def _match_started(t: Table, ev: events_pb2.Event) -> None:
    t.match = new_match(make_ruleset(t.ruleset, t.options), len(t.players))
    t.match_no = ev.match_started.match_no
    t.category = Category(ev.match_started.category or t.seated_category())  # stored before categories: as now
    t.match_stake, t.penalty_votes, t.penalised = ev.match_started.stake, {}, False
    t.status, t.end_reason, t.winners, t.rematch, t.rematch_closed = Status.PLAYING, "", [], set(), False
    t.ended_by, t.auto, t.timed_out, t.stood_in, t.moves = -1, set(), set(), set(), 0


def _round_dealt(t: Table, ev: events_pb2.Event) -> None:
    if t.match is not None:
        t.match = evolve_match(t.match, _dealt(t.match, ev.round_dealt))
        t.round_no += 1


def _action_taken(t: Table, ev: events_pb2.Event) -> None:
    seat = ev.action_taken.action.seat
    if 0 <= seat < len(t.players) and ev.actor == t.players[seat].identity:  # the player acted: no timeout in a row
        t.timed_out.discard(seat)
    t.moves += 1
    if t.match is not None:
        t.match = evolve_match(t.match, ActionTaken(action_from_pb(ev.action_taken.action, t.match.rs.family)))
        if t.match.match_over:
            t.status, t.winners = Status.OVER, list(t.match.match_winners)


def _match_ended(t: Table, ev: events_pb2.Event) -> None:
    if t.status == Status.OVER:  # a match played out keeps its result for good: only its table closes
        t.status, t.rematch_closed = Status.ENDED, True
        return
    t.status, t.end_reason, t.winners = Status.ENDED, ev.match_ended.reason, list(ev.match_ended.winners)
    t.ended_by = ev.match_ended.by_seat


def _rematch_voted(t: Table, ev: events_pb2.Event) -> None:
    if ev.rematch_voted.accept:
        t.rematch.add(ev.rematch_voted.seat)
    else:  # a decline closes the rematch for everyone
        t.rematch.discard(ev.rematch_voted.seat)
        t.rematch_closed = True


def _penalty_voted(t: Table, ev: events_pb2.Event) -> None:
    t.penalty_votes[ev.penalty_voted.seat] = ev.penalty_voted.penalise


def _leaver_penalised(t: Table, ev: events_pb2.Event) -> None:
    t.penalised = True


def _absence_noticed(t: Table, ev: events_pb2.Event) -> None:
    t.absent_seat = ev.absence_noticed.seat


def _rematch_closed(t: Table, ev: events_pb2.Event) -> None:  # stored by earlier versions' clock
    t.rematch_closed = True


def _player_away(t: Table, ev: events_pb2.Event) -> None:
    t.away[ev.player_away.seat] = ev.time.ToNanoseconds() / 1e9


def _player_back(t: Table, ev: events_pb2.Event) -> None:
    t.away.pop(ev.player_back.seat, None)


def _turn_timed_out(t: Table, ev: events_pb2.Event) -> None:
    t.timed_out.add(ev.turn_timed_out.seat)


def _auto_mode_changed(t: Table, ev: events_pb2.Event) -> None:
    a = ev.auto_mode_changed
    (t.auto.add if a.on else t.auto.discard)(a.seat)
    (t.stood_in.add if a.on and a.reason == "away" else t.stood_in.discard)(a.seat)
    t.timed_out.discard(a.seat)  # timeouts are counted afresh


def _match_annulled(t: Table, ev: events_pb2.Event) -> None:
    t.annulled.add(ev.match_annulled.match_no)


_EVOLVE: dict[str, Callable[[Table, events_pb2.Event], None]] = {
    "table_created": _created, "player_joined": _joined, "player_left": _left, "match_started": _match_started,
    "round_dealt": _round_dealt, "action_taken": _action_taken, "match_ended": _match_ended,
    "rematch_voted": _rematch_voted, "absence_noticed": _absence_noticed, "penalty_voted": _penalty_voted,
    "leaver_penalised": _leaver_penalised, "rematch_closed": _rematch_closed,
    "turn_timed_out": _turn_timed_out, "auto_mode_changed": _auto_mode_changed,
    "player_away": _player_away, "player_back": _player_back, "seat_moved": _seat_moved,
    "match_annulled": _match_annulled,
}
"""What each kind of event does to a table."""


def evolve(t: Table, seq: int, ev: events_pb2.Event) -> None:
    """Fold one event (stored at stream sequence ``seq``) into ``t``."""
    body = ev.WhichOneof("body") or ""
    handler = _EVOLVE.get(body)
    if handler is not None:
        handler(t, ev)
    if body not in _NOT_MOVES:
        t.last_move = ev.time.ToNanoseconds() / 1e9
        t.absent_seat = -1
    t.seq = seq
    t.commands[ev.command_id] = seq
    if len(t.commands) > RECENT_COMMANDS:
        t.commands.popitem(last=False)


# the clock's notes, and the votes after a match, keep the clocks running
_NOT_MOVES = frozenset({"player_away", "player_back",  # who is connected is no move
                        "absence_noticed", "rematch_closed", "penalty_voted", "leaver_penalised",
                        "match_annulled"})  # staff annulling a match (docs/disputes.md)


def _dealt(match: State, d: events_pb2.RoundDealt) -> RoundDealt:
    fam = match.rs.family
    return RoundDealt(d.round_no, d.dealer, d.first, tuple(tuple(fam.parse(c) for c in h.cards) for h in d.hands),
                      fam.parse(d.starter), tuple(fam.parse(c) for c in d.stock), d.seed or None, d.commitment)
