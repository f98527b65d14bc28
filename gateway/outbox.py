"""A socket's frames waiting for its writer: a bounded queue that gives way to a close when the tab falls behind."""

from __future__ import annotations

import asyncio
from collections import deque

from gateway.frames import Frame

Outgoing = tuple[str, Frame | str]  # (type, the frame or its JSON text)
SESSION_ENDED: Outgoing = ("session_ended", "")  # not a frame: the writer closes the socket with CLOSE_CODE


class Outbox:
    """A socket's frames waiting for its writer, at most ``limit``; past that, only a close (None).

    A deque and the writer's one waiter: ``asyncio.Queue``'s bookkeeping (unfinished-task counts,
    an event cleared on every put, a list of waiters) was some 5 % of the gateway's CPU under load.

    >>> box = Outbox(2)
    >>> box.put(("pong", "{}")), box.put(("pong", "{}")), box.put(("pong", "{}")), box.put(("pong", "{}"))
    (True, True, False, False)
    >>> asyncio.run(box.take())
    [None]
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.items: deque[Outgoing | None] = deque()
        self.behind = False  # fell behind: what is queued gave way to a close
        self.waiter: asyncio.Future[None] | None = None

    def put(self, item: Outgoing) -> bool:
        """Queue ``item``; False (and a close queued instead of everything) when the socket fell behind."""
        if self.behind:
            return False
        if len(self.items) >= self.limit:
            self.behind = True
            self.items.clear()
            self.items.append(None)
            self._wake()
            return False
        self.items.append(item)
        self._wake()
        return True

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def take(self) -> list[Outgoing | None]:
        """Everything queued, once there is something."""
        while not self.items:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        items = list(self.items)
        self.items.clear()
        return items
