"""What one viewer may see of a table: redacted events, the table's public facts, the rules' view.

The one place that decides it, for the gateway's frames, the replay and the staff's desk.

A viewer is a seat (an int) or a spectator (None). Nothing here ever puts another seat's
cards (before the round's end), the stock's order or the seed (before the round's end)
into what it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NotRequired, TypedDict

from maumau.v1 import events_pb2
from services.rules.actions import ActionDict, move_text
from services.rules.views import View, view
from services.rules.wire import action_fields
from services.table.domain import Category, Status, Table


class PlayerInfo(TypedDict):
    name: str
    bot: bool


class Vote(TypedDict):
    seat: int
    penalise: bool


class Penalty(TypedDict):
    """The vote on penalising the one who left a competitive match (docs/rankings.md)."""

    leaver: int
    penalised: bool
    voters: list[int]
    votes: list[Vote]


class PublicInfo(TypedDict):
    """What ``table_info`` shows every viewer alike (docs/protocol.md, "table_info")."""

    table_id: str
    ruleset: str
    options: dict[str, Any]  # the ruleset's options: free-form, each ruleset its own
    seats: int
    status: Status
    category: Category
    players: list[PlayerInfo]
    match_no: int
    winners: list[int]
    end_reason: str
    ended_by: int | None
    absent_seat: int | None
    rematch: list[int]
    rematch_closed: bool
    auto: list[int]
    away: list[int]
    open: bool
    partners: list[list[int]] | None
    stake: int
    match_stake: int
    penalty: Penalty | None


class Mine(TypedDict):
    """What of ``table_info`` depends on the viewer (``mine``)."""

    my_seat: int  # -1: none
    creator: bool
    invitation: NotRequired[str]  # to a seated viewer or the table's creator only


class TableInfo(PublicInfo, Mine):
    """``table_info``: the public facts, and what depends on the viewer."""


class Draw(TypedDict):
    seat: int
    count: int
    cards: NotRequired[list[str]]  # to the seat that drew them only


class EventBody(TypedDict, total=False):
    """What an event shows a viewer beyond its type and time: the keys of its kind (``_REDACT``).

    One flat shape for every kind: a key means the same wherever it is found (a seat is a seat).
    """

    # round_dealt
    round_no: int
    dealer: int
    first: int
    commitment: str
    hand: list[str]  # to its own seat only
    # action_taken
    action: ActionDict
    draws: list[Draw]
    reshuffles: int
    # round_ended
    winner: int
    round_points: list[int]
    scores: list[int]
    match_over: bool
    match_winners: list[int]
    seed: str
    # table_created
    ruleset: str
    seats: int
    # player_joined, and the seat of every event about one
    seat: int
    name: str
    bot: bool
    late: bool
    # match_started, match_ended, match_annulled
    match_no: int
    category: str
    reason: str
    by_seat: int
    winners: list[int]
    # the rest: rematch_voted, seat_moved, penalty_voted, auto_mode_changed
    accept: bool
    to: int
    penalise: bool
    on: bool


class SeenEvent(EventBody):
    """One event as a viewer may see it (``redact_event``): the frames' ``events``, the replay's."""

    type: str
    time: int  # milliseconds since the epoch


def table_info(t: Table, identity: str, seat: int | None = None) -> TableInfo:
    seat = t.seat_of(identity) if seat is None else seat
    return _viewer_info(t, public_info(t), seat, t.creator == identity)


def public_info(t: Table) -> PublicInfo:
    """What ``table_info`` shows every viewer alike (a batch's frames build it once and share it)."""
    return {
        "table_id": t.table_id, "ruleset": t.ruleset, "options": t.options, "seats": t.capacity,
        "status": t.status, "category": t.category if t.match_no else t.seated_category(),
        "players": [{"name": p.name, "bot": p.bot} for p in t.players],
        "match_no": t.match_no, "winners": t.winners,
        "end_reason": t.end_reason, "ended_by": t.ended_by if t.ended_by >= 0 else None,
        "absent_seat": t.absent_seat if t.absent_seat >= 0 else None,
        "rematch": sorted(t.rematch), "rematch_closed": t.rematch_closed,
        "auto": sorted(t.auto), "away": sorted(t.away), "open": t.open,
        "partners": _partners(t),
        # competitive tables (docs/rankings.md): the stake per seat, what this match is played for, the vote
        "stake": t.stake, "match_stake": t.match_stake, "penalty": _penalty(t),
    }


def _viewer_info(t: Table, public: PublicInfo, seat: int, creator: bool) -> TableInfo:
    """``public`` with what depends on the viewer (``mine``)."""
    return {**public, **mine(t, seat, creator)}


def mine(t: Table, seat: int, creator: bool) -> Mine:
    """What depends on the viewer: its seat, whether it created the table, and the invitation if either."""
    if seat >= 0 or creator:
        return {"my_seat": seat, "creator": creator, "invitation": t.invitation}
    return {"my_seat": seat, "creator": creator}


def _penalty(t: Table) -> Penalty | None:
    """After a competitive match given up or ended by an absence: who may vote to penalise the one who left
    (``leaver``), their votes so far, and whether the penalty was given; None when there is nothing to vote."""
    if t.status != Status.ENDED or not t.match_stake or t.end_reason not in ("gave_up", "absence") or t.ended_by < 0:
        return None
    return {"leaver": t.ended_by, "penalised": t.penalised,
            "voters": [i for i, p in enumerate(t.players) if i != t.ended_by and not p.bot],
            "votes": [{"seat": s, "penalise": v} for s, v in sorted(t.penalty_votes.items())]}


def _partners(t: Table) -> list[list[int]] | None:
    """Who partners whom at a teams table: the seats opposite each other (0 & 2, 1 & 3); None without teams."""
    if not t.options.get("teams"):
        return None
    half = t.capacity // 2
    return [[i, i + half] for i in range(half)]


def viewer_view(t: Table, identity: str, seat: int | None = None) -> View | None:
    """The rules' view for this viewer, with its legal actions in the command spelling (no seat)."""
    if t.match is None or not t.match.discard:
        return None
    seat = t.seat_of(identity) if seat is None else seat
    v = view(t.match, seat if seat >= 0 else None)
    for action in v["legal_actions"]:
        action.pop("seat", None)
    return v


def _dealt(ev: events_pb2.Event, seat: int | None) -> EventBody:
    d = ev.round_dealt
    out: EventBody = {"round_no": d.round_no, "dealer": d.dealer, "first": d.first, "commitment": d.commitment}
    if seat is not None and 0 <= seat < len(d.hands):
        out["hand"] = list(d.hands[seat].cards)
    return out


def _action(ev: events_pb2.Event, seat: int | None) -> EventBody:
    a = ev.action_taken
    action = action_fields(a.action)
    action["move"] = a.action.move or move_text(action)  # a record written before the move: spelt from its fields
    draws = []
    for d in a.draws:
        draw: Draw = {"seat": d.seat, "count": len(d.cards)}
        if d.seat == seat:
            draw["cards"] = list(d.cards)
        draws.append(draw)
    return {"action": action, "draws": draws, "reshuffles": a.reshuffles}


def _round_ended(ev: events_pb2.Event, seat: int | None) -> EventBody:
    e = ev.round_ended
    return {"winner": e.winner, "round_points": list(e.round_points), "scores": list(e.scores),
            "match_over": e.match_over, "match_winners": list(e.match_winners), "seed": e.seed}


def _match_ended(ev: events_pb2.Event, seat: int | None) -> EventBody:
    m = ev.match_ended
    return {"reason": m.reason, "by_seat": m.by_seat, "winners": list(m.winners)}


def _joined(ev: events_pb2.Event, seat: int | None) -> EventBody:
    j = ev.player_joined
    return {"seat": j.seat, "name": j.player.name, "bot": j.player.bot, "late": j.late}


_REDACT: dict[str, Callable[[events_pb2.Event, int | None], EventBody]] = {
    "round_dealt": _dealt,
    "action_taken": _action,
    "round_ended": _round_ended,
    "table_created": lambda ev, _: {"ruleset": ev.table_created.ruleset, "seats": ev.table_created.seats},
    "player_joined": _joined,
    "player_left": lambda ev, _: {"seat": ev.player_left.seat},
    "match_started": lambda ev, _: {"match_no": ev.match_started.match_no, "category": ev.match_started.category},
    "match_ended": _match_ended,
    "rematch_voted": lambda ev, _: {"seat": ev.rematch_voted.seat, "accept": ev.rematch_voted.accept},
    "absence_noticed": lambda ev, _: {"seat": ev.absence_noticed.seat},
    "player_away": lambda ev, _: {"seat": ev.player_away.seat},
    "player_back": lambda ev, _: {"seat": ev.player_back.seat},
    "turn_timed_out": lambda ev, _: {"seat": ev.turn_timed_out.seat},
    "seat_moved": lambda ev, _: {"seat": ev.seat_moved.seat, "to": ev.seat_moved.to},
    "match_annulled": lambda ev, _: {"match_no": ev.match_annulled.match_no},  # staff upheld a dispute
    # the vote after a competitive match given up or ended by an absence (docs/rankings.md)
    "penalty_voted": lambda ev, _: {"seat": ev.penalty_voted.seat, "penalise": ev.penalty_voted.penalise},
    "leaver_penalised": lambda ev, _: {"seat": ev.leaver_penalised.seat},
    "auto_mode_changed": lambda ev, _: {"seat": ev.auto_mode_changed.seat, "on": ev.auto_mode_changed.on,
                                        "reason": ev.auto_mode_changed.reason},
}
"""What each kind of event shows a viewer (a seat, or None for a spectator) beyond its type and time."""


def redact_event(ev: events_pb2.Event, seat: int | None) -> SeenEvent:
    """One event as ``seat`` may see it."""
    redact = _REDACT.get(ev.WhichOneof("body") or "")
    body: EventBody = {} if redact is None else redact(ev, seat)
    return {"type": ev.type, "time": ev.time.ToMilliseconds(), **body}


def seats_shown_more(ev: events_pb2.Event) -> Iterable[int]:
    """The seats that see more of ``ev`` than a spectator: each its own hand dealt, the cards it drew."""
    body = ev.WhichOneof("body")
    if body == "round_dealt":
        return range(len(ev.round_dealt.hands))
    if body == "action_taken":
        return {d.seat for d in ev.action_taken.draws}
    return ()
