"""A reacting service (bots, clock, projector…) running as a task on its own NATS connection in a test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, Protocol, TypeVar

import nats
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext

from services.runtime.timeouts import stop


class Runs(Protocol):
    def run(self) -> Coroutine[Any, Any, None]: ...


S = TypeVar("S", bound=Runs)


@contextlib.asynccontextmanager
async def running(nats_url: str, make: Callable[[NATS], S]) -> AsyncIterator[S]:
    """``make(nc)``'s service running until the block ends, then cancelled and disconnected."""
    nc = await nats.connect(nats_url)
    service = make(nc)
    task = asyncio.create_task(service.run())
    try:
        yield service
    finally:
        await stop(task)
        await nc.close()


class Projecting(Runs, Protocol):
    async def caught_up(self) -> int: ...


async def project_to_end(projector: Projecting, js: JetStreamContext, stream: str) -> None:
    """Run ``projector`` until its projection has reached what ``stream`` holds now."""
    task = asyncio.create_task(projector.run())
    last = (await js.stream_info(stream)).state.last_seq
    try:
        for _ in range(200):
            if await projector.caught_up() >= last:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"the projector of {stream} did not catch up")
    finally:
        await stop(task)
