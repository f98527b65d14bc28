"""``maumau replay``: a table's history step by step, as a person reads it.

Each event is seen as the gateway shows it to one viewer (``services/table/viewing.py``): a seat,
a spectator (``None``), or ``FULL``, everything the record says, put together from what
each seat sees of it. ``words`` says it in a line; ``--json`` prints the events instead.
``step`` is one stored batch as the web client's replay viewer draws it (``GET
/api/tables/{id}/replay``, ``maumau replay --json``): the events as the viewer saw them,
their words, and the table as the viewer saw it after the batch (``visible``: the rules'
view, every hand in it only for ``FULL``).

>>> from maumau.v1 import actions_pb2, events_pb2
>>> ev = events_pb2.Event(type="ActionTaken", action_taken=events_pb2.ActionTaken(
...     action=actions_pb2.Action(seat=1, do="draw"), draws=[events_pb2.Draw(seat=1, cards=["7H"])]))
>>> words(seen(ev, 0), ["Ana", "Bia"]), words(seen(ev, FULL), ["Ana", "Bia"])
('Bia draws 1 card', 'Bia draws 7H')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, TypedDict

from maumau.v1 import events_pb2
from services.eventlog.repository import fold_stream
from services.rules.views import View, view
from services.table.domain import Table, evolve
from services.table.store import Stored
from services.table.viewing import Draw, SeenEvent, TableInfo, redact_event, table_info

FULL: Final = "full"  # the viewer who sees everything: an export's reader, a dispute's judge
Viewer = int | None | str


# The shapes are built in one expression each, their optional keys spread from a part that declares
# them (``Told``, ``EveryHand``): mypy types a TypedDict built from another only so.


class Told(TypedDict, total=False):
    """What a replay says of an event beyond what the gateway showed a viewer of it."""

    hands: list[list[str]]  # FULL, round_dealt: every seat's hand dealt
    seed: str  # FULL, round_dealt: the deal's seed
    draws: list[Draw]  # FULL, action_taken: every card drawn
    starter: str  # round_dealt: turned face up for everyone (the gateway sends it in the view)


class Seen(SeenEvent, Told):
    """One event as a replay's viewer sees it (``seen``)."""


class EveryHand(TypedDict, total=False):
    hands: list[list[str]]  # FULL: every hand at every moment


class ReplayView(View, EveryHand):
    """The table's cards as a replay's viewer sees them (``visible``): no legal actions."""


class ReplayStep(TypedDict):
    """One stored batch as the replay viewer draws it (``step``)."""

    seq: int
    events: list[Seen]
    words: list[str]
    table_info: TableInfo  # no invitation
    view: ReplayView | None


def full_event(ev: events_pb2.Event) -> Seen:
    """Everything an event says, in the viewers' spelling: what each seat sees of it, together."""
    return {**redact_event(ev, None), **_every_seat(ev)}


def _every_seat(ev: events_pb2.Event) -> Told:
    body = ev.WhichOneof("body")
    if body == "round_dealt":
        return {"hands": [redact_event(ev, seat)["hand"] for seat in range(len(ev.round_dealt.hands))],
                "seed": ev.round_dealt.seed}
    if body == "action_taken":
        return {"draws": [redact_event(ev, d.seat)["draws"][k] for k, d in enumerate(ev.action_taken.draws)]}
    return {}


def seen(ev: events_pb2.Event, viewer: Viewer) -> Seen:
    """One event as ``viewer`` sees it."""
    starter: Told = {"starter": ev.round_dealt.starter} if ev.WhichOneof("body") == "round_dealt" else {}
    if viewer == FULL:
        return {**full_event(ev), **starter}
    return {**redact_event(ev, viewer if isinstance(viewer, int) else None), **starter}


def _cards(cards: list[str]) -> str:
    return " ".join(cards) or "nothing"


def _dealt(e: Seen, name: Callable[[int], str]) -> str:
    text = (f"round {e['round_no'] + 1} dealt by {name(e['dealer'])}, {name(e['first'])} plays first, "
            f"starter {e['starter']}")
    if "hand" in e:
        text += f"; your hand: {_cards(e['hand'])}"
    for seat, hand in enumerate(e.get("hands", ())):
        text += f"; {name(seat)}: {_cards(hand)}"
    return text


_VERBS = {"play": "plays", "double": "doubles", "burn": "burns", "quick": "plays out of turn", "draw": "draws",
          "pass": "passes", "challenge": "challenges", "challenge_wild": "challenges the wild card",
          "choose": "chooses"}


def _action(e: Seen, name: Callable[[int], str]) -> str:
    a, draws = e["action"], e["draws"]
    if a["do"] == "draw" and draws and draws[0]["seat"] == a["seat"]:  # "Ana draws 7H", not "Ana draws; Ana draws 7H"
        return "; ".join(_drawn(d, name) for d in draws) + _reshuffled(e)
    text = f"{name(a['seat'])} {_VERBS.get(a['do'], a['do'])}"
    if "card" in a:
        text += f" {a['card']}"
    if "with" in a:  # ace_with_company: the card played together with an Ace
        text += f" with {a['with']}"
    if "cards" in a:
        text += f" {_cards(a['cards'])}"
    if "choose" in a:
        text += f", calling {a['choose']}"
    if "announce" in a:
        text += f", announcing {a['announce']}"
    if "target" in a:
        text += f" at {name(a['target'])}"
    text += f" [{a['move']}]"  # the notation a staff member can quote (docs/protocol.md, "Move notation")
    return "; ".join([text, *(_drawn(d, name) for d in draws)]) + _reshuffled(e)


def _drawn(d: Draw, name: Callable[[int], str]) -> str:
    count = d["count"]
    return f"{name(d['seat'])} draws " + (_cards(d["cards"]) if "cards" in d else
                                          f"{count} card{'s' if count != 1 else ''}")


def _reshuffled(e: Seen) -> str:
    return "; the discard pile is shuffled into a new stock" if e["reshuffles"] else ""


def _round_ended(e: Seen, name: Callable[[int], str]) -> str:
    text = (f"round over: {name(e['winner'])} wins; points {e['round_points']}, scores {e['scores']}; "
            f"seed {e['seed']} revealed")
    if e["match_over"]:
        text += "; match over, won by " + ", ".join(name(s) for s in e["match_winners"])
    return text


def _match_ended(e: Seen, name: Callable[[int], str]) -> str:
    by = f" by {name(e['by_seat'])}" if e["by_seat"] >= 0 else ""
    return f"match ended: {e['reason']}{by}; won by " + (", ".join(name(s) for s in e["winners"]) or "nobody")


_WORDS: dict[str, Callable[[Seen, Callable[[int], str]], str]] = {
    "TableCreated": lambda e, _: f"table created: {e['ruleset']}, {e['seats']} seats",
    "PlayerJoined": lambda e, _: f"{e['name']}{' (bot)' if e['bot'] else ''} takes seat {e['seat']}"
                                 + (" between rounds" if e["late"] else ""),
    "PlayerLeft": lambda e, name: f"{name(e['seat'])} leaves",
    "MatchStarted": lambda e, _: f"match {e['match_no']} starts",
    "RoundDealt": _dealt,
    "ActionTaken": _action,
    "RoundEnded": _round_ended,
    "MatchEnded": _match_ended,
    "RematchVoted": lambda e, name: f"{name(e['seat'])} {'wants' if e['accept'] else 'declines'} a rematch",
    "AbsenceNoticed": lambda e, name: f"{name(e['seat'])} is keeping the table waiting",
    "RematchClosed": lambda e, _: "the time for a rematch is over",
    "MatchAnnulled": lambda e, _: f"match {e['match_no']} annulled by staff",
}
"""How each kind of event reads, from what a viewer sees of it."""


def words(e: Seen, names: list[str]) -> str:
    """One seen event in a line; ``names`` are the players' by seat."""
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    say = _WORDS.get(e["type"])
    return str(say(e, name) if say is not None else e["type"])


def visible(t: Table, viewer: Viewer) -> ReplayView | None:
    """The table's cards as ``viewer`` sees them now: the rules' view (None before the first deal).

    A seat sees its own hand and counts of the others, a spectator no hand; every hand is
    revealed once the round is over (``revealed_hands``), as at the table. ``FULL`` sees
    every hand at every moment (``hands``). No legal actions: a replay is only watched.
    """
    if t.match is None or not t.match.discard:
        return None
    s = t.match
    v = view(s, viewer if isinstance(viewer, int) and viewer >= 0 else None)
    every: EveryHand = {"hands": [s.rs.family.names(sorted(h)) for h in s.hands]} if viewer == FULL else {}
    return {**v, "legal_actions": [], **every}


def step(t: Table, seq: int, batch: events_pb2.EventBatch, viewer: Viewer, names: list[str],
         identity: str = "") -> ReplayStep:
    """One stored batch as a step of the replay (``t``: the table right after it; ``names``: the players'
    before it): the events as ``viewer`` saw them (``seen``), their ``words``, the table's public facts
    (``services.table.viewing.table_info``, for ``identity`` at the viewer's seat) and ``visible``."""
    events = [seen(ev, viewer) for ev in batch.events]
    seat = viewer if isinstance(viewer, int) and viewer >= 0 else -1
    info = table_info(t, identity, seat)
    info.pop("invitation", None)  # a replay invites nobody
    return {"seq": seq, "events": events, "words": [words(e, names) for e in events], "table_info": info,
            "view": visible(t, viewer)}


def steps(table_id: str, records: Iterable[Stored], viewer: Callable[[Table], Viewer],
          identity: str = "") -> list[ReplayStep]:
    """Every stored batch of a table as a ``step``, each for ``viewer(table after it)``: a person seen at the
    seat they held then (a spectator while they held none), as the gateway sent it to them, or ``FULL``."""
    t, names, out = Table(table_id), list[str](), list[ReplayStep]()
    for stored in records:
        fold_stream(t, ((stored.seq, stored.batch.events),), evolve)
        out.append(step(t, stored.seq, stored.batch, viewer(t), names, identity))
        names = [p.name for p in t.players]
    return out
