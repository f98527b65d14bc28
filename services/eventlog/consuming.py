"""Reading the tables' stream through a durable pull consumer, in batches, for as long as the service runs.

Each fetch is a request to the server and each batch a round of work (a transaction, a
key-value write per table): after a batch that came short, the reader waits ``linger``
seconds so that the next one is fuller. A consumer that may lag a little (projections,
timers, bots that think for a second anyway) trades that lag for far fewer round trips.

The batches are pulled here rather than with nats-py's ``fetch``: that waits for each message
of a batch apart (a task, a timer and a fresh id per message: 33 µs of CPU per message read
and acknowledged, against 15 µs here), where a subscription of the reader's own collects a
batch's messages as the connection delivers them (``Pulls``).

Every consumer is measured here (``services.runtime.metrics``): messages handled and
redelivered, the age of the last batch handled, and every ``MONITOR_SECONDS`` what the server
says of the consumer (messages pending and unacknowledged) and whether its stream has a leader.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig
from nats.js.errors import APIError, NotFoundError

from services.runtime import metrics, tracing
from services.runtime.timeouts import stop, within

MONITOR_SECONDS = 5.0
# A consumer's info asked (at each start) waits this long: while the consumer's own leader is elected
# (4-9 s after its server died) nobody answers, and the reader asks again 0.5 s later, so it goes on
# within 1.5 s of the election, not up to 5.5 s after it (JetStream's 5 s default).
START_SECONDS = 1.0
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
        await stop(*reading.values())


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
            pulls = Pulls(js, stream, durable)
            try:
                await pulls.start(config)
                while True:
                    msgs = await pulls.fetch(size, timeout=1)
                    if not msgs:  # nothing came within the second
                        continue
                    with tracing.linked(f"{durable} batch", (m.headers for m in msgs),
                                        {"messaging.consumer.name": durable,
                                         "messaging.batch.message_count": len(msgs)}):
                        await handle(msgs)
                    handled.inc(len(msgs))
                    redelivered.inc(sum(m.metadata.num_delivered > 1 for m in msgs))
                    lag.set(max(0.0, time.time() - msgs[-1].metadata.timestamp.timestamp()))
                    if len(msgs) < size and linger:
                        await asyncio.sleep(linger)
            except (NatsError, OSError) as e:
                log.warning("%s paused reading the stream (%s: %s); resuming", durable, type(e).__name__, e)
                await asyncio.sleep(0.5)
            finally:
                await pulls.stop()
    finally:
        await stop(monitor)


class Pulls:
    """A durable pull consumer's batches, delivered to a subscription of this reader's own.

    JetStream's pull protocol as nats-py's ``fetch`` speaks it, with the same answers: one
    request for what is there now (``no_wait``), which, when nothing is, the server holds
    until the first messages come or the time asked for runs out (``expires``). Each
    request has a reply subject of its own under the reader's inbox, so that the end of an
    earlier one (a status that came late) ends nothing now; its messages are deliveries
    like any other, read with the next batch.
    """

    def __init__(self, js: JetStreamContext, stream: str, durable: str) -> None:
        self.js, self.stream, self.durable = js, stream, durable
        self.nc: Client = js._nc  # the connection the context speaks through (as services/eventlog/direct.py)
        self.inbox = self.nc.new_inbox()
        self.arrived: list[Msg] = []  # delivered, not yet handed out
        self.request = ""  # the reply subject of the request being answered
        self.wanted = 0  # messages that end it
        self.ended = asyncio.Event()
        self.error: APIError | None = None
        self.sub: Subscription | None = None
        self.asked = 0

    async def start(self, config: ConsumerConfig) -> None:
        """Make the durable consumer if there is none yet (as ``pull_subscribe`` does) and subscribe."""
        try:
            await self.js.consumer_info(self.stream, self.durable, timeout=START_SECONDS)
        except NotFoundError:
            await self.js.add_consumer(self.stream, config)
        self.sub = await self.nc.subscribe(f"{self.inbox}.*", cb=self._arrive)

    async def stop(self) -> None:
        if self.sub is not None:
            with contextlib.suppress(NatsError, OSError):
                await self.sub.unsubscribe()

    async def _arrive(self, msg: Msg) -> None:
        status = msg.headers.get("Status") if msg.headers else None
        if not status:
            self.arrived.append(msg)
            if len(self.arrived) >= self.wanted:
                self.ended.set()
        elif msg.subject != self.request or status == "100":  # an earlier request's end, or a heartbeat
            return
        elif status in ("404", "408", "409"):  # no messages, expired, or a limit: it ends, nothing is wrong
            self.ended.set()
        else:
            self.error = APIError(code=int(status), description=msg.headers.get("Description", "") if msg.headers
                                  else "")
            self.ended.set()

    async def fetch(self, size: int, timeout: float) -> list[Msg]:
        """Up to ``size`` messages: those there now, else the first that come within ``timeout`` seconds."""
        if len(self.arrived) < size:
            await self._pull(size - len(self.arrived), time.monotonic() + timeout)
        msgs, self.arrived = self.arrived[:size], self.arrived[size:]
        return msgs

    async def _pull(self, batch: int, deadline: float) -> None:
        """One request for ``batch`` more messages, answered with those there now; when there are none
        and none were delivered before it, the server holds it until some come or ``deadline``."""
        self.asked += 1
        self.request = f"{self.inbox}.{self.asked}"
        self.wanted = len(self.arrived) + batch
        self.ended.clear()
        request: dict[str, int | bool] = {"batch": batch, "no_wait": True}
        if not self.arrived:  # no_wait with expires: wait for the first messages, then end with what is there
            request["expires"] = int((deadline - time.monotonic()) * 1e9) - 100_000
        await self.nc.publish(f"{self.js._prefix}.CONSUMER.MSG.NEXT.{self.stream}.{self.durable}",
                              json.dumps(request).encode(), reply=self.request)
        with contextlib.suppress(TimeoutError):
            await within(self.ended.wait(), max(0.0, deadline - time.monotonic()))
        if self.error is not None:
            error, self.error = self.error, None
            raise error


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
