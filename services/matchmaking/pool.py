"""A pool of players waiting for the same table (ruleset, seats, turn time), pure.

The pool is one value, changed only by compare-and-set (``services/matchmaking/store.py``):
whoever asks appends to it, and the one whose request fills the last seat takes the whole
waiting list as a group. A group's table id follows from its first ticket, so a table is
created once however many replicas try (the table service refuses a second create).

>>> p = Pool()
>>> ask(p, Ticket("t1", "ana", "Ana"), seats=2, now=0.0)
>>> ask(p, Ticket("t2", "bia", "Bia"), seats=2, now=1.0).table_id
'q628b49d96dc'
>>> status(p, "t1"), status(p, "t2") == status(p, "t1"), p.waiting
(('matched', 'q628b49d96dc'), True, [])
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from services.runtime import subjects

KEEP_SECONDS = 2.0  # a matched group stays in its pool at least this long, and until its tickets' own keys
# hold it (store.py): every change reads and writes the whole pool, so a busy pool's groups are most of its size
TOMBSTONE_SECONDS = 60.0  # a ticket cancelled before it entered its pool is refused entry this long


@dataclass
class Ticket:
    ticket: str
    identity: str
    name: str
    account: bool = False
    asked: float = 0.0


@dataclass
class Group:
    table_id: str
    tickets: list[Ticket]
    at: float


@dataclass
class Pool:
    waiting: list[Ticket] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    cancelled: dict[str, float] = field(default_factory=dict)  # tickets cancelled before they entered: when

    def to_json(self) -> dict[str, Any]:
        return {"waiting": [vars(t).copy() for t in self.waiting], "groups": [group_to_json(g) for g in self.groups],
                "cancelled": self.cancelled}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pool:
        return cls([Ticket(**t) for t in data["waiting"]], [group_from_json(g) for g in data["groups"]],
                   data.get("cancelled", {}))


def group_to_json(g: Group) -> dict[str, Any]:
    """As ``dataclasses.asdict``, five times faster: every change of a pool writes all of it."""
    return {"table_id": g.table_id, "tickets": [vars(t).copy() for t in g.tickets], "at": g.at}


def group_from_json(data: dict[str, Any]) -> Group:
    return Group(data["table_id"], [Ticket(**t) for t in data["tickets"]], data["at"])


def table_id_of(first: str, partitions: int = 1) -> str:
    """The table of a group, named after its first ticket: the same on every replica."""
    return subjects.table_address("q" + hashlib.sha256(first.encode()).hexdigest()[:11], partitions)


def stale(p: Pool, now: float) -> list[Group]:
    """The groups old enough to leave the pool (once their tickets' own keys hold them: store.py)."""
    return [g for g in p.groups if now - g.at >= KEEP_SECONDS]


def ask(p: Pool, t: Ticket, seats: int, now: float, partitions: int = 1) -> Group | None:
    """``t`` waits in the pool (once per player and ticket: asking again keeps the first ticket, a ticket
    here or seated already stays as it is, and one cancelled before it came in stays out); a full pool
    becomes a group, the answer."""
    p.groups = [g for g in p.groups if now - g.at < KEEP_SECONDS]
    p.cancelled = {ticket: at for ticket, at in p.cancelled.items() if now - at < TOMBSTONE_SECONDS}
    if (t.ticket in p.cancelled or status(p, t.ticket)[0] != "cancelled"
            or any(w.identity == t.identity for w in p.waiting)):
        return None
    t.asked = now
    p.waiting.append(t)
    if len(p.waiting) < seats:
        return None
    tickets, p.waiting = p.waiting[:seats], p.waiting[seats:]
    p.groups.append(group := Group(table_id_of(tickets[0].ticket, partitions), tickets, now))
    return group


def holder(p: Pool, ticket: str) -> str | None:
    """Whose ``ticket`` is, while it waits or its group is in the pool (None: not here)."""
    return next((t.identity for t in (*p.waiting, *(t for g in p.groups for t in g.tickets)) if t.ticket == ticket),
                None)


def cancel(p: Pool, ticket: str, identity: str, now: float) -> bool | None:
    """Take ``identity``'s ``ticket`` out of the pool; False when it is not waiting (matched already, or
    gone), None (nothing changed) when another player holds it. A ticket not here at all may be one
    still on its way in (its player asked from another tab): it is kept out.

    >>> p = Pool()
    >>> cancel(p, "t1", "ana", now=0.0), ask(p, Ticket("t1", "ana", "Ana"), seats=2, now=1.0), p.waiting
    (False, None, [])
    >>> ask(p, Ticket("t2", "bia", "Bia"), seats=2, now=2.0)
    >>> cancel(p, "t2", "ana", now=3.0), [w.ticket for w in p.waiting]
    (None, ['t2'])
    """
    if holder(p, ticket) not in (None, identity):
        return None
    if status(p, ticket)[0] == "cancelled":
        p.cancelled[ticket] = now
    return drop(p, {ticket})


def take_back(p: Pool, identity: str, ticket: str, now: float) -> None:
    """The player's ``ticket`` out of the pool (kept out if still on its way), and any other it waits with.

    >>> p = Pool()
    >>> ask(p, Ticket("t1", "ana", "Ana"), seats=3, now=0.0)
    >>> take_back(p, "ana", "t1", now=1.0)
    >>> ask(p, Ticket("t2", "ana", "Ana"), seats=3, now=1.0), [w.ticket for w in p.waiting]
    (None, ['t2'])
    """
    cancel(p, ticket, identity, now)
    drop(p, {w.ticket for w in p.waiting if w.identity == identity})


def drop(p: Pool, gone: set[str]) -> bool:
    """Take the tickets nobody asks about any more out of the waiting list (a closed tab)."""
    kept = [w for w in p.waiting if w.ticket not in gone]
    changed, p.waiting = len(kept) != len(p.waiting), kept
    return changed


def status(p: Pool, ticket: str) -> tuple[str, str]:
    """``("waiting", "")``, ``("matched", table_id)`` or ``("cancelled", "")`` (not here: cancelled or forgotten)."""
    if any(w.ticket == ticket for w in p.waiting):
        return "waiting", ""
    for g in p.groups:
        if any(t.ticket == ticket for t in g.tickets):
            return "matched", g.table_id
    return "cancelled", ""


def group_of(p: Pool, table_id: str) -> Group | None:
    return next((g for g in p.groups if g.table_id == table_id), None)
