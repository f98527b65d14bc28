"""Answering NATS requests in a queue group, many at a time, and finishing them on the way out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg


async def answer(nc: NATS, subject: str, queue: str, reply: Callable[[Msg], Coroutine[Any, Any, None]],
                 concurrency: int, answering: asyncio.Event | None = None) -> None:
    """Call ``reply`` for every request on ``subject`` (at most ``concurrency`` at once) until cancelled.

    ``answering`` is set once the subscription is in place: from then on requests reach this replica.
    """
    limit = asyncio.Semaphore(concurrency)
    tasks: set[asyncio.Task[None]] = set()

    async def on_msg(msg: Msg) -> None:
        await limit.acquire()
        task = asyncio.create_task(reply(msg))
        tasks.add(task)
        task.add_done_callback(done)

    def done(task: asyncio.Task[None]) -> None:
        tasks.discard(task)
        limit.release()

    sub = await nc.subscribe(subject, queue=queue, cb=on_msg)
    await nc.flush()  # the server has the subscription
    if answering is not None:
        answering.set()
    try:
        await asyncio.Future()
    finally:
        await sub.unsubscribe()
        if tasks:
            await asyncio.wait(tasks, timeout=10)
