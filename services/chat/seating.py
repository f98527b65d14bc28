"""Who is seated at a table, folded from its stream without the game: all the chat needs to know.

>>> from maumau.v1 import events_pb2, table_pb2
>>> s = Seating("t1")
>>> created = events_pb2.Event(table_created=table_pb2.TableCreated(
...     creator=table_pb2.Player(identity="ana", name="Ana")))
>>> fold(s, 1, created)
>>> bia = table_pb2.Player(identity="bia", name="Bia")
>>> joined = events_pb2.Event(player_joined=table_pb2.PlayerJoined(player=bia))
>>> fold(s, 2, joined)
>>> (s.exists, s.seat_of("bia"), s.names, s.seq)
(True, 1, ['Ana', 'Bia'], 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from maumau.v1 import events_pb2
from services.eventlog.repository import Repository
from services.table.store import EventStore, Stored


@dataclass
class Seating:
    table_id: str
    exists: bool = False
    identities: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    seq: int = 0
    head: bytes | None = None  # the repository's: the last batch's SHA-256 (unused here)

    def seat_of(self, identity: str) -> int:
        return self.identities.index(identity) if identity in self.identities else -1


def _created(s: Seating, ev: events_pb2.Event) -> None:
    c = ev.table_created
    s.exists = True
    s.identities, s.names = ([], []) if c.creator_watches else ([c.creator.identity], [c.creator.name])


def _joined(s: Seating, ev: events_pb2.Event) -> None:
    s.identities.append(ev.player_joined.player.identity)
    s.names.append(ev.player_joined.player.name)


def _left(s: Seating, ev: events_pb2.Event) -> None:
    del s.identities[ev.player_left.seat], s.names[ev.player_left.seat]


def _moved(s: Seating, ev: events_pb2.Event) -> None:
    a, b = ev.seat_moved.seat, ev.seat_moved.to
    s.identities[a], s.identities[b] = s.identities[b], s.identities[a]
    s.names[a], s.names[b] = s.names[b], s.names[a]


_FOLDS: dict[str, Callable[[Seating, events_pb2.Event], None]] = {
    "table_created": _created, "player_joined": _joined, "player_left": _left, "seat_moved": _moved,
}


def fold(s: Seating, seq: int, ev: events_pb2.Event) -> None:
    """Fold one event: the seating events move the seats, every other one only the sequence."""
    handler = _FOLDS.get(ev.WhichOneof("body") or "")
    if handler is not None:
        handler(s, ev)
    s.seq = seq


def seatings(store: EventStore, cache_size: int) -> Repository[Seating, Stored]:
    return Repository(store, Seating, fold, cache_size)
