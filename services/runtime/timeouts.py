"""Awaiting something for a bounded time without losing a cancellation on the way.

``asyncio.wait_for`` of Python 3.11 returns the result of an awaitable that finished at the
very moment its caller was cancelled, and the cancellation is gone (CPython gh-86296, mended in
3.12): a loop that waits that way goes on after it was told to stop. A service's stream reader
did, pulling a batch as the bots service was stopped, and the test stopping it waited forever.
``within`` bounds the wait with ``asyncio.timeout``, which tells its own expiry from a cancel.

>>> import asyncio
>>> async def late() -> str:
...     await asyncio.sleep(1)
...     return "late"
>>> async def soon() -> str:
...     return "soon"
>>> asyncio.run(within(soon(), 0.1))
'soon'
>>> asyncio.run(within(late(), 0.01))
Traceback (most recent call last):
TimeoutError
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def within(aw: Awaitable[T], seconds: float) -> T:
    """``await aw`` for at most ``seconds`` (``TimeoutError`` after, ``aw`` cancelled); a cancel of the caller
    always ends it with ``CancelledError``."""
    async with asyncio.timeout(max(0.0, seconds)):
        return await aw
