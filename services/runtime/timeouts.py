"""Awaiting something for a bounded time without losing a cancellation on the way.

``asyncio.wait_for`` of Python 3.11 returns the result of an awaitable that finished at the
very moment its caller was cancelled, and the cancellation is gone (CPython gh-86296, mended in
3.12): a loop that waits that way goes on after it was told to stop. A service's stream reader
did, pulling a batch as the bots service was stopped, and the test stopping it waited forever.
``within`` bounds the wait with ``asyncio.timeout``, which tells its own expiry from a cancel.

Libraries still await ``asyncio.wait_for`` inside (nats-py, for every request and flush): a
task cancelled at the moment such a request is answered goes on as if nothing happened. A
stream reader's monitor did, asking the server for the consumer's backlog every few seconds,
and the reader, waiting for its monitor to end, never did (a test of the readers failed one
run in five on a loaded machine). ``stop`` cancels again until the task has ended.

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
from typing import Any, TypeVar

T = TypeVar("T")
AGAIN_SECONDS = 0.1  # how long a cancelled task has to end before it is cancelled again


async def within(aw: Awaitable[T], seconds: float) -> T:
    """``await aw`` for at most ``seconds`` (``TimeoutError`` after, ``aw`` cancelled); a cancel of the caller
    always ends it with ``CancelledError``."""
    async with asyncio.timeout(max(0.0, seconds)):
        return await aw


async def stop(*tasks: asyncio.Future[Any]) -> None:
    """Cancel ``tasks`` and wait until every one has ended, cancelling again those that went on.

    What they returned or raised is not looked at (as ``gather(..., return_exceptions=True)``).

    >>> async def deaf() -> int:
    ...     for _ in range(3):  # swallows two cancellations, as a lost one would leave it running
    ...         try:
    ...             await asyncio.sleep(10)
    ...         except asyncio.CancelledError:
    ...             pass
    ...     return 3
    >>> async def main() -> int:
    ...     task = asyncio.create_task(deaf())
    ...     await asyncio.sleep(0)
    ...     await stop(task)
    ...     return task.result()
    >>> asyncio.run(main())
    3
    """
    running = {t for t in tasks if not t.done()}
    while running:
        for task in running:
            task.cancel()
        _, running = await asyncio.wait(running, timeout=AGAIN_SECONDS)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # looked at: no "exception was never retrieved" when it is collected
