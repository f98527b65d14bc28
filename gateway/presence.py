"""A socket's presence marks: the seats it holds at the tables it follows, kept alive while it is open.

The clock reads the marks and tells the tables who came and went (``services/clock/presence.py``).
A socket rewrites its marks every ``REFRESH_SECONDS`` (they live ``TTL_SECONDS``), at once when it
follows another table or its player takes or leaves a seat at one, and takes them away when it
closes; the marks of a gateway that dies run out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from nats.errors import Error as NatsError
from nats.js.kv import KeyValue

from services.clock.presence import REFRESH_SECONDS, mark
from services.runtime.timeouts import within

log = logging.getLogger("maumau.gateway")
Seat = tuple[str, int]  # a table and a seat at it


class Marks:
    def __init__(self, kv: KeyValue, socket: str) -> None:
        self.kv, self.socket = kv, socket
        self.marked: set[Seat] = set()
        self.wake = asyncio.Event()

    def poke(self) -> None:
        """Mark the socket's seats now (it follows another table), not at the next refresh."""
        self.wake.set()

    def holds(self, seat: Seat) -> bool:
        """Whether ``seat`` is marked already."""
        return seat in self.marked

    async def keep(self, seats: Callable[[], set[Seat]]) -> None:
        """Keep the marks of ``seats()`` alive until cancelled."""
        while True:
            self.wake.clear()
            await self._sync(seats())
            with contextlib.suppress(TimeoutError):
                await within(self.wake.wait(), REFRESH_SECONDS)

    async def clear(self) -> None:
        await self._sync(set())

    async def _sync(self, seats: set[Seat]) -> None:
        try:
            for table_id, seat in seats:
                await self.kv.put(mark(table_id, seat, self.socket), b"")
            for table_id, seat in self.marked - seats:
                await self.kv.delete(mark(table_id, seat, self.socket))
            self.marked = seats
        except (NatsError, OSError, TimeoutError) as e:
            log.warning("presence not marked (%s); again at the next refresh", e or type(e).__name__)
