"""Reading the tables' stream through a durable pull consumer, in batches, for as long as the service runs.

Each fetch is a request to the server and each batch a round of work (a transaction, a
key-value write per table): after a batch that came short, the reader waits ``linger``
seconds so that the next one is fuller. A consumer that may lag a little (projections,
timers, bots that think for a second anyway) trades that lag for far fewer round trips.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig


async def consume(js: JetStreamContext, stream: str, config: ConsumerConfig, handle: Callable[[list[Msg]],
                  Awaitable[None]], *, size: int, linger: float, log: logging.Logger) -> None:
    """Hand every batch of the durable consumer ``config`` to ``handle``, until cancelled.

    A lost connection or a restarted server only pauses it: it subscribes again and goes on
    from the consumer's position (what ``handle`` did not acknowledge comes again).
    """
    assert config.durable_name and config.filter_subject
    while True:
        try:
            psub = await js.pull_subscribe(config.filter_subject, durable=config.durable_name, stream=stream,
                                           config=config)
            while True:
                try:
                    msgs = await psub.fetch(size, timeout=1)
                except NatsTimeout:
                    continue
                await handle(msgs)
                if len(msgs) < size and linger:
                    await asyncio.sleep(linger)
        except (NatsError, OSError) as e:
            log.warning("%s paused reading the stream (%s); resuming", config.durable_name, e or type(e).__name__)
            await asyncio.sleep(0.5)
