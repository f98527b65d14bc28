"""One feed per watched table: one JetStream subscription, however many local sockets watch it.

A feed folds its table from the stream (nothing another gateway replica would need lives
only here) and hands every stored batch to its watchers, each redacting it for itself.
Chat lines come through one core subscription per table as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import ConsumerConfig, DeliverPolicy

from maumau.v1 import chat_pb2, events_pb2
from services.chat.store import subject as chat_subject
from services.table.domain import Table, evolve
from services.table.store import EventStore, subject

log = logging.getLogger("maumau.gateway")


class Watcher(Protocol):
    identity: str

    async def on_batch(self, feed: Feed, seq: int, batch: events_pb2.EventBatch) -> None: ...

    async def on_chat(self, table_id: str, lines: list[dict[str, Any]]) -> None: ...


def chat_line(line: chat_pb2.ChatLine) -> dict[str, Any]:
    return {"seat": line.seat, "name": line.name, "text": line.text, "time": line.time.ToMilliseconds()}


@dataclass
class Feed:
    table_id: str
    table: Table
    watchers: set[Watcher] = field(default_factory=set)
    subscriptions: list[Subscription] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class Feeds:
    nc: NATS
    feeds: dict[str, Feed] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.js = self.nc.jetstream()
        self.store = EventStore(self.js)
        self.opening: dict[str, asyncio.Lock] = {}

    async def watch(self, table_id: str, watcher: Watcher) -> Feed:
        lock = self.opening.setdefault(table_id, asyncio.Lock())
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
            for sub in feed.subscriptions:
                with contextlib.suppress(Exception):
                    await sub.unsubscribe()

    async def _open(self, table_id: str) -> Feed:
        t = Table(table_id)
        for stored in await self.store.read(table_id):
            for ev in stored.batch.events:
                evolve(t, stored.seq, ev)
        feed = Feed(table_id, t)

        async def on_table(msg: Msg) -> None:
            await self._on_table(feed, msg)

        async def on_chat(msg: Msg) -> None:
            line = chat_line(chat_pb2.ChatLine.FromString(msg.data))
            for w in list(feed.watchers):
                await w.on_chat(table_id, [line])

        config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=t.seq + 1)
        if t.seq == 0:
            config = ConsumerConfig(deliver_policy=DeliverPolicy.NEW)
        feed.subscriptions.append(await self.js.subscribe(subject(table_id), cb=on_table, ordered_consumer=True,
                                                          config=config))
        feed.subscriptions.append(await self.nc.subscribe(chat_subject(table_id), cb=on_chat))
        return feed

    async def _on_table(self, feed: Feed, msg: Msg) -> None:
        seq = msg.metadata.sequence.stream
        async with feed.lock:
            if seq <= feed.table.seq:
                return
            batch = events_pb2.EventBatch.FromString(msg.data)
            for ev in batch.events:
                evolve(feed.table, seq, ev)
        for w in list(feed.watchers):
            try:
                await w.on_batch(feed, seq, batch)
            except Exception:
                log.exception("a watcher of table %s failed", feed.table_id)

    async def replay(self, table_id: str, since: int, until: int, emit: Callable[[Table, int, events_pb2.EventBatch],
                                                                               Awaitable[None]]) -> bool:
        """Emit the batches after ``since`` up to ``until``, each with the table as it was after it.

        False when too many were missed (the caller sends the whole state instead).
        """
        stored = await self.store.read(table_id, 0, until=until)
        missed = [s for s in stored if s.seq > since]
        if len(missed) > 200 or not missed:
            return not missed
        t = Table(table_id)
        for s in stored:
            for ev in s.batch.events:
                evolve(t, s.seq, ev)
            if s.seq > since:
                await emit(t, s.seq, s.batch)
        return True
