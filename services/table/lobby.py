"""An open table as the lobby lists it: the same shape from the SQL directory and, live, from the table service.

>>> from services.table.domain import Player, Status, Table
>>> t = Table("t1", ruleset="classic52", options={"turn_seconds": 30}, capacity=3, status=Status.LOBBY,
...           players=[Player("a", "Ana")], open=True)
>>> entry = listing(t)
>>> entry["free"], entry["turn_seconds"], entry["listed"]
(2, 30, True)
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from nats.aio.client import Client as NATS

from maumau.v1 import events_pb2
from services.runtime.subjects import OPEN_TABLES
from services.table.domain import Status, Table

CHANGES = frozenset({"table_created", "player_joined", "player_left", "seat_moved", "match_started", "match_ended"})


def entry(table_id: str, ruleset: str, options: dict[str, Any], seats: int, players: list[tuple[str, bool]],
          status: str) -> dict[str, Any]:
    """An open table's line in the lobby; ``listed`` is whether it still waits for players."""
    return {"table_id": table_id, "ruleset": ruleset, "options": options, "seats": seats,
            "players": [name for name, _ in players], "free": seats - len(players),
            "category": "training" if any(bot for _, bot in players) else "official",
            "turn_seconds": options.get("turn_seconds"), "listed": status == Status.LOBBY and len(players) < seats}


def listing(t: Table) -> dict[str, Any]:
    return entry(t.table_id, t.ruleset, t.options, t.capacity, [(p.name, p.bot) for p in t.players], t.status)


def changes_lobby(batch: events_pb2.EventBatch) -> bool:
    """Whether a stored batch changes what an open table's lobby line says."""
    return any(ev.WhichOneof("body") in CHANGES for ev in batch.events)


def announcer(nc: NATS) -> Callable[[Table], Awaitable[None]]:
    """Tell the gateways an open table's new lobby line (core NATS, at most once: the list is read
    from the SQL directory when a page opens, and a line missed is set right by the next change)."""

    async def announce(t: Table) -> None:
        await nc.publish(OPEN_TABLES, json.dumps(listing(t)).encode())

    return announce
