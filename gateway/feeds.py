"""One feed per watched table: core subscriptions, however many local sockets watch it.

A feed folds its table from the stream (nothing another gateway replica would need lives
only here) and hands every stored batch to its watchers, each redacting it for itself.
Batches arrive as the stream republishes them (``services.runtime.subjects.live_table``): a
plain subscription, no JetStream consumer, so a gateway can follow tens of thousands of
tables. Each republished batch names the table's sequence before it; a batch that does not
follow the feed's table (one missed while NATS was away) makes the feed read what it lacks
from the stream. Chat lines come through one core subscription per table as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from gateway.frames import BatchFrames, ChatLine, EventsFrame, chat_line
from maumau.v1 import chat_pb2, events_pb2
from services.eventlog.direct import StaleRead
from services.runtime import subjects, tracing
from services.runtime.timeouts import stop
from services.table.domain import Table
from services.table.repository import tables
from services.table.store import EventStore, Stored

log = logging.getLogger("maumau.gateway")
CATCH_UP_CONCURRENCY = 32
REPLAYED = 200  # batches a reconnecting socket is sent one by one; past that, the whole state
CONNECTION_CHECK_SECONDS = 1.0


Framer = Callable[[Table, int, events_pb2.EventBatch], EventsFrame]  # a batch as one viewer sees it


class UnknownTable(Exception):
    """No table has this id: nothing is subscribed for it."""


class Watcher(Protocol):
    identity: str

    async def on_batch(self, feed: Feed, frames: BatchFrames) -> None: ...

    async def on_chat(self, table_id: str, lines: list[ChatLine]) -> None: ...


@dataclass
class Feed:
    table_id: str
    table: Table
    watchers: set[Watcher] = field(default_factory=set)
    subscriptions: list[Subscription] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one writer of the table at a time


@dataclass
class Feeds:
    nc: NATS
    feeds: dict[str, Feed] = field(default_factory=dict)
    opening: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)

    def __post_init__(self) -> None:
        self.tables = tables(EventStore(self.nc.jetstream()), cache_size=0)  # the feeds hold their own

    async def watch(self, table_id: str, watcher: Watcher) -> Feed:
        """The table's feed with ``watcher`` among its watchers (raises UnknownTable)."""
        lock = self.opening.get(table_id)
        if lock is None:
            lock = self.opening[table_id] = asyncio.Lock()
        async with lock:
            feed = self.feeds.get(table_id)
            if feed is None:
                feed = await self._open(table_id)
                self.feeds[table_id] = feed
            feed.watchers.add(watcher)
            return feed

    async def unwatch(self, table_id: str, watcher: Watcher) -> None:
        feed = self.feeds.get(table_id)
        if feed is None:
            return
        feed.watchers.discard(watcher)
        if not feed.watchers:
            del self.feeds[table_id]
            await _unsubscribe(feed)

    async def _open(self, table_id: str) -> Feed:
        feed = Feed(table_id, self.tables.new(table_id))
        async with feed.lock:
            await self._catch_up(feed)
            if feed.table.status == "none":  # or a follower answered that had not stored it yet: the leader says
                await self.tables.fast_forward_to_leader(feed.table)  # nobody watches it yet: nothing to hand out
        if feed.table.status == "none":
            raise UnknownTable(table_id)

        async def on_table(msg: Msg) -> None:
            await self._on_table(feed, msg)

        async def on_chat(msg: Msg) -> None:
            line = chat_line(chat_pb2.ChatLine.FromString(msg.data))
            for w in list(feed.watchers):
                await w.on_chat(table_id, [line])

        try:
            feed.subscriptions.append(await self.nc.subscribe(subjects.live_table(table_id), cb=on_table))
            feed.subscriptions.append(await self.nc.subscribe(subjects.chat_lines(table_id), cb=on_chat))
            async with feed.lock:
                await self._catch_up(feed)  # what was stored between the first read and the subscription
        except BaseException:
            await _unsubscribe(feed)
            raise
        return feed

    async def _on_table(self, feed: Feed, msg: Msg) -> None:
        headers = msg.headers or {}
        try:
            seq, before = int(headers["Nats-Sequence"]), int(headers["Nats-Last-Sequence"])
        except (KeyError, ValueError):
            log.warning("a message on %s is not a republished batch", msg.subject)
            return
        async with feed.lock:
            if seq <= feed.table.seq:
                return
            if before != feed.table.seq:  # missed one: the stream has it, and this one
                try:
                    await self._catch_up(feed, reaching=seq)
                except StaleRead as e:
                    log.warning("table %s could not be caught up (%s); it will be at its next batch", feed.table_id, e)
                return
            stored = Stored(seq, events_pb2.EventBatch.FromString(msg.data))
            if not tracing.recording():  # a span sampled out is only cost: some 3 % of the gateway's CPU per move
                self.tables.apply(feed.table, stored)
                await self._hand_out(feed, stored)
                return
            with tracing.linked("fan out", [headers], {"maumau.table_id": feed.table_id, "maumau.sequence": seq,
                                                      "maumau.watchers": len(feed.watchers)}):
                self.tables.apply(feed.table, stored)
                await self._hand_out(feed, stored)

    async def _catch_up(self, feed: Feed, reaching: int = 0) -> None:
        async for stored in self.tables.catch_up(feed.table, reaching=reaching):
            await self._hand_out(feed, stored)

    async def _hand_out(self, feed: Feed, stored: Stored) -> None:
        """Hand a batch just folded to every watcher, while the table is as it left it."""
        frames = BatchFrames(feed.table, stored.seq, stored.batch)  # shared: viewers alike get one frame
        for w in list(feed.watchers):
            try:
                await w.on_batch(feed, frames)
            except Exception:
                log.exception("a watcher of table %s failed", feed.table_id)

    async def catch_up_all(self) -> None:
        """Read what every feed missed (after NATS was away: core messages are not kept for us)."""
        limit = asyncio.Semaphore(CATCH_UP_CONCURRENCY)

        async def one(feed: Feed) -> None:
            async with limit, feed.lock:
                await self._catch_up(feed)

        results = await asyncio.gather(*(one(f) for f in list(self.feeds.values())), return_exceptions=True)
        failed = sum(isinstance(r, Exception) for r in results)
        if failed:
            log.warning("%d of %d feeds could not catch up; they will at their next batch", failed, len(results))

    async def follow_reconnects(self) -> None:
        """Catch every feed up after each reconnection to NATS, until cancelled."""
        seen = self.nc.stats["reconnects"]
        while True:
            await asyncio.sleep(CONNECTION_CHECK_SECONDS)
            if self.nc.stats["reconnects"] != seen and self.nc.is_connected:
                seen = self.nc.stats["reconnects"]
                await self.catch_up_all()

    async def replay(self, table_id: str, since: int, until: int, frame: Framer) -> list[EventsFrame] | None:
        """The frames of the batches after ``since`` up to ``until``, each made with the table as it was after it.

        None when too many were missed (the caller sends the whole state instead).
        """
        frames: list[EventsFrame] = []
        async for t, stored in self.tables.history(table_id, until, reaching=until):  # the feed holds until
            if stored.seq > since:
                if len(frames) == REPLAYED:
                    return None
                frames.append(frame(t, stored.seq, stored.batch))
        return frames


@contextlib.asynccontextmanager
async def following(feeds: Feeds) -> AsyncIterator[None]:
    """``feeds`` catching up after reconnections for as long as the context lasts."""
    task = asyncio.create_task(feeds.follow_reconnects())
    try:
        yield
    finally:
        await stop(task)


async def _unsubscribe(feed: Feed) -> None:
    for sub in feed.subscriptions:
        with contextlib.suppress(Exception):
            await sub.unsubscribe()
    feed.subscriptions.clear()
