"""What one viewer may see of a table: redacted events, the table's public facts, the rules' view.

The one place that decides it, for the gateway's frames, the replay and the staff's desk.

A viewer is a seat (an int) or a spectator (None). Nothing here ever puts another seat's
cards (before the round's end), the stock's order or the seed (before the round's end)
into what it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from maumau.v1 import events_pb2
from services.rules.views import view
from services.table.domain import Status, Table


def table_info(t: Table, identity: str, seat: int | None = None) -> dict[str, Any]:
    seat = t.seat_of(identity) if seat is None else seat
    return _viewer_info(t, public_info(t), seat, t.creator == identity)


def public_info(t: Table) -> dict[str, Any]:
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


def _viewer_info(t: Table, public: dict[str, Any], seat: int, creator: bool) -> dict[str, Any]:
    """``public`` with what depends on the viewer: its seat, whether it created the table, the invitation."""
    info = {**public, "my_seat": seat, "creator": creator}
    if seat >= 0 or creator:
        info["invitation"] = t.invitation
    return info


def _penalty(t: Table) -> dict[str, Any] | None:
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


def viewer_view(t: Table, identity: str, seat: int | None = None) -> dict[str, Any] | None:
    """The rules' view for this viewer, with its legal actions in the command spelling (no seat)."""
    if t.match is None or not t.match.discard:
        return None
    seat = t.seat_of(identity) if seat is None else seat
    v = view(t.match, seat if seat >= 0 else None)
    for action in v["legal_actions"]:
        action.pop("seat", None)
    return v


def _dealt(ev: events_pb2.Event, seat: int | None) -> dict[str, Any]:
    d = ev.round_dealt
    out: dict[str, Any] = {"round_no": d.round_no, "dealer": d.dealer, "first": d.first, "commitment": d.commitment}
    if seat is not None and 0 <= seat < len(d.hands):
        out["hand"] = list(d.hands[seat].cards)
    return out


def _action(ev: events_pb2.Event, seat: int | None) -> dict[str, Any]:
    a = ev.action_taken
    action: dict[str, Any] = {"seat": a.action.seat, "do": a.action.do}
    for key in ("card", "with", "choose", "announce"):  # "with": the card played together with an Ace
        if getattr(a.action, key):
            action[key] = getattr(a.action, key)
    if a.action.cards:
        action["cards"] = list(a.action.cards)
    if a.action.HasField("target"):
        action["target"] = a.action.target
    draws = []
    for d in a.draws:
        draw: dict[str, Any] = {"seat": d.seat, "count": len(d.cards)}
        if d.seat == seat:
            draw["cards"] = list(d.cards)
        draws.append(draw)
    return {"action": action, "draws": draws, "reshuffles": a.reshuffles}


def _round_ended(ev: events_pb2.Event, seat: int | None) -> dict[str, Any]:
    e = ev.round_ended
    return {"winner": e.winner, "round_points": list(e.round_points), "scores": list(e.scores),
            "match_over": e.match_over, "match_winners": list(e.match_winners), "seed": e.seed}


def _match_ended(ev: events_pb2.Event, seat: int | None) -> dict[str, Any]:
    m = ev.match_ended
    return {"reason": m.reason, "by_seat": m.by_seat, "winners": list(m.winners)}


def _joined(ev: events_pb2.Event, seat: int | None) -> dict[str, Any]:
    j = ev.player_joined
    return {"seat": j.seat, "name": j.player.name, "bot": j.player.bot, "late": j.late}


_REDACT: dict[str, Callable[[events_pb2.Event, int | None], dict[str, Any]]] = {
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


def redact_event(ev: events_pb2.Event, seat: int | None) -> dict[str, Any]:
    """One event as ``seat`` may see it."""
    out: dict[str, Any] = {"type": ev.type, "time": ev.time.ToMilliseconds()}
    redact = _REDACT.get(ev.WhichOneof("body") or "")
    if redact is not None:
        out.update(redact(ev, seat))
    return out


def seats_shown_more(ev: events_pb2.Event) -> Iterable[int]:
    """The seats that see more of ``ev`` than a spectator: each its own hand dealt, the cards it drew."""
    body = ev.WhichOneof("body")
    if body == "round_dealt":
        return range(len(ev.round_dealt.hands))
    if body == "action_taken":
        return {d.seat for d in ev.action_taken.draws}
    return ()
