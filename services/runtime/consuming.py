"""Reading the tables' stream through a durable pull consumer, in batches, for as long as the service runs.

Each fetch is a request to the server and each batch a round of work (a transaction, a
key-value write per table): after a batch that came short, the reader waits ``linger``
seconds so that the next one is fuller. A consumer that may lag a little (projections,
timers, bots that think for a second anyway) trades that lag for far fewer round trips.

Every consumer is measured here (``services.runtime.metrics``): messages handled and
redelivered, the age of the last batch handled, and every ``MONITOR_SECONDS`` what the server
says of the consumer (messages pending and unacknowledged) and whether its stream has a leader.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable

from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig

from services.runtime import metrics, tracing

MONITOR_SECONDS = 5.0
DISCOVER_SECONDS = 30.0  # how soon a reader of every partition finds a partition made after it started

Handler = Callable[[list[Msg]], Awaitable[None]]


async def consume_all(js: JetStreamContext, streams: Callable[[], Awaitable[list[tuple[str, str]]]],
                      config: ConsumerConfig, handle: Handler, *, size: int, linger: float,
                      log: logging.Logger) -> None:
    """``consume`` each stream ``streams()`` names (with its subjects filter), the same durable on each.

    Asked again every ``DISCOVER_SECONDS``: a partition added later is read from then on.
    """
    reading: dict[str, asyncio.Task[None]] = {}
    try:
        while True:
            try:
                for stream, subjects in await streams():
                    if stream not in reading:
                        reading[stream] = asyncio.create_task(consume(
                            js, stream, dataclasses.replace(config, filter_subject=subjects), handle,
                            size=size, linger=linger, log=log))
            except (NatsError, OSError, TimeoutError) as e:
                log.warning("could not list the streams to read (%s: %s); asking again", type(e).__name__, e)
            if not reading:
                await asyncio.sleep(0.5)
                continue
            done, _ = await asyncio.wait(reading.values(), timeout=DISCOVER_SECONDS,
                                         return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                await task  # a reader only ends by failing: fail with it, at once
    finally:
        for task in reading.values():
            task.cancel()
        await asyncio.gather(*reading.values(), return_exceptions=True)


async def consume(js: JetStreamContext, stream: str, config: ConsumerConfig, handle: Handler, *, size: int,
                  linger: float, log: logging.Logger) -> None:
    """Hand every batch of the durable consumer ``config`` to ``handle``, until cancelled.

    A lost connection or a restarted server only pauses it: it subscribes again and goes on
    from the consumer's position (what ``handle`` did not acknowledge comes again).
    """
    assert config.durable_name and config.filter_subject
    durable = config.durable_name
    handled, redelivered = metrics.CONSUMER_MESSAGES.labels(durable), metrics.CONSUMER_REDELIVERIES.labels(durable)
    lag = metrics.CONSUMER_LAG.labels(durable, stream)
    monitor = asyncio.create_task(_monitor(js, stream, durable))
    try:
        while True:
            try:
                psub = await js.pull_subscribe(config.filter_subject, durable=durable, stream=stream, config=config)
                while True:
                    try:
                        msgs = await psub.fetch(size, timeout=1)
                    except (NatsTimeout, TimeoutError):  # nothing came within the second (either kind is raised)
                        continue
                    with tracing.linked(f"{durable} batch", (m.headers for m in msgs),
                                        {"messaging.consumer.name": durable,
                                         "messaging.batch.message_count": len(msgs)}):
                        await handle(msgs)
                    if msgs:
                        handled.inc(len(msgs))
                        redelivered.inc(sum(m.metadata.num_delivered > 1 for m in msgs))
                        lag.set(max(0.0, time.time() - msgs[-1].metadata.timestamp.timestamp()))
                    if len(msgs) < size and linger:
                        await asyncio.sleep(linger)
            except (NatsError, OSError) as e:
                log.warning("%s paused reading the stream (%s: %s); resuming", durable, type(e).__name__, e)
                await asyncio.sleep(0.5)
    finally:
        monitor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await monitor


async def _monitor(js: JetStreamContext, stream: str, durable: str) -> None:
    """Every ``MONITOR_SECONDS``: the consumer's backlog as the server counts it, and the stream's leader."""
    pending = metrics.CONSUMER_PENDING.labels(durable, stream)
    unacked = metrics.CONSUMER_ACK_PENDING.labels(durable, stream)
    leader = metrics.STREAM_LEADER.labels(stream)
    while True:
        try:
            stream_info = await js.stream_info(stream)
            # a clustered stream names its leader; a single server's stream that answers is its own leader
            leader.set(0 if stream_info.cluster is not None and not stream_info.cluster.leader else 1)
        except (NatsError, OSError, TimeoutError):
            leader.set(0)  # no answer: no leader to be seen (or no server)
        with contextlib.suppress(NatsError, OSError, TimeoutError):  # not created yet, or no server: next time
            info = await js.consumer_info(stream, durable)
            pending.set(info.num_pending or 0)
            unacked.set(info.num_ack_pending or 0)
        await asyncio.sleep(MONITOR_SECONDS)
