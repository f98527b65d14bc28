"""Aggregates as their streams have them: the one place stored batches are folded into aggregates.

In the spirit of the ``eventsourcing`` library's ``Repository.get(id, version=...)``:
``get(table_id)`` is the table now (from a bounded cache, fast-forwarded from the stream),
``get(table_id, until=seq)`` the table as it was at a sequence (folded afresh). Reads fetch
many batches per round trip (the store's ``read``). A repository folds one kind of
aggregate: the table service, the gateway and the stream's consumers fold whole tables
(``services.table.repository.tables``); the chat folds only who is seated
(``services.chat.seating``).

A reader that knows a sequence of the table is stored (the batch before the one its
consumer delivered, a republished batch) reads until it has it: a follower may answer a read
before it stored the latest batches (``services.eventlog.direct``), and a table folded short
of one would be decided on as it no longer is (a bot that sees another seat's turn, a timer
for a turn already played).

A folded aggregate belongs to the repository's cache: whoever gets one may read it and
fold the batches it appends or receives into it (``apply``), nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Generic, Protocol, TypeVar

from cachetools import LRUCache

from services.eventlog.direct import StaleRead
from services.runtime.backoff import pauses


class Aggregate(Protocol):
    table_id: str
    seq: int  # the last stream sequence folded in
    head: bytes | None  # the SHA-256 of the last batch folded in (None: none yet, or its bytes were not at hand)


class Batch(Protocol):
    @property
    def events(self) -> Iterable[Any]: ...


class Stored(Protocol):
    """One stored batch as a store reads it."""

    @property
    def seq(self) -> int: ...
    @property
    def batch(self) -> Batch: ...
    @property
    def digest(self) -> bytes | None: ...


S = TypeVar("S", bound=Stored)


class Store(Protocol[S]):
    """What a repository reads: the stored batches of one aggregate, and its last sequence at the leader."""

    async def read(self, aggregate_id: str, after: int = 0, until: int | None = None) -> list[S]: ...
    async def last_seq(self, aggregate_id: str) -> int: ...


A = TypeVar("A", bound=Aggregate)
E = TypeVar("E")
T = TypeVar("T")
STALE_PAUSE = 0.05  # seconds before a read that came back short is asked again, doubled each time
STALE_TRIES = 6  # reads after the first before it is a StaleRead: 3.15 s, a replica catching up


def fold_stream(a: T, batches: Iterable[tuple[int, Iterable[E]]], fold: Callable[[T, int, E], None]) -> T:
    """Fold stored batches (each its sequence and its events, in stream order) into ``a``; ``a`` again.

    The one loop of every fold: the ``Repository``'s own (``apply``), and the readers that hold
    an aggregate's whole stream already or read it whole (a record's replay and the desk's steps,
    an account or a dispute: a handful of batches, under ids a ``Repository`` of tables does not
    key by), so that no other module spells the loop over a stream's events.

    >>> fold_stream([], [(1, "ab"), (2, "c")], lambda a, seq, ev: a.append((seq, ev)))
    [(1, 'a'), (1, 'b'), (2, 'c')]
    """
    for seq, events in batches:
        for ev in events:
            fold(a, seq, ev)
    return a


@dataclass
class Repository(Generic[A, S]):
    store: Store[S]
    new: Callable[[str], A]  # the aggregate of a table nothing happened at yet
    fold: Callable[[A, int, Any], None]  # one event, stored at a sequence, into the aggregate
    cache_size: int = 10_000
    cache: LRUCache[str, A] = field(init=False)

    def __post_init__(self) -> None:
        self.cache = LRUCache(max(1, self.cache_size))  # a size of 0 (keep none) is _keep's to honour

    async def get(self, table_id: str, until: int | None = None) -> A:
        """The table as the stream has it now (cached), or as it was at sequence ``until`` (not cached)."""
        if until is not None:
            a = self.new(table_id)
            await self.fast_forward(a, until)
            return a
        a = self.cache.pop(table_id, None) or self.new(table_id)
        await self.fast_forward(a)  # if this fails, the half-folded aggregate is not kept
        self._keep(a)
        return a

    def cached(self, table_id: str) -> A | None:
        """The cached aggregate as it is (it may lag the stream: ``fast_forward`` it)."""
        return self.cache.get(table_id)

    async def fast_forward(self, a: A, until: int | None = None, reaching: int = 0) -> bool:
        """Fold what the stream holds after ``a`` (up to ``until``, at least to ``reaching``); whether there was any."""
        folded = False
        async for _ in self.catch_up(a, until, reaching):
            folded = True
        return folded

    async def fast_forward_to_leader(self, a: A) -> bool:
        """Fold what the stream's leader says the table holds; whether there was any.

        For a decision that would go against what ``a`` says (a refusal): a read may have been
        answered by a follower behind the leader; this costs a round trip to the leader.
        """
        return await self.fast_forward(a, reaching=await self.store.last_seq(a.table_id))

    async def catch_up(self, a: A, until: int | None = None, reaching: int = 0) -> AsyncIterator[S]:
        """Fold the stored batches after ``a`` one by one, yielding each once it is folded in.

        ``reaching`` is a sequence of the table known to be stored: a read that ends before it is
        made again (``STALE_TRIES`` times, then ``StaleRead``).
        """
        waits = islice(pauses(STALE_PAUSE), STALE_TRIES)
        while True:
            for stored in await self.store.read(a.table_id, a.seq, until):
                self.apply(a, stored)
                yield stored
            if a.seq >= reaching:
                return
            pause = next(waits, None)
            if pause is None:
                break
            await asyncio.sleep(pause)
        raise StaleRead(f"table {a.table_id} read up to seq {a.seq}; seq {reaching} is stored")

    def apply(self, a: A, stored: S) -> None:
        """Fold one stored batch into ``a``."""
        fold_stream(a, ((stored.seq, stored.batch.events),), self.fold)
        a.head = stored.digest

    async def history(self, table_id: str, until: int | None = None,
                      reaching: int = 0) -> AsyncIterator[tuple[A, S]]:
        """Every batch (up to ``until``, at least to ``reaching``), each with the table as it was right after it
        (one aggregate, moving on)."""
        a = self.new(table_id)
        async for stored in self.catch_up(a, until, reaching):
            yield a, stored

    async def before(self, table_id: str, seq: int, previous: int | None = None) -> A:
        """The table just before the batch at ``seq``, which followed ``previous`` (from its headers).

        The cached aggregate when it is right there; caught up when ``previous`` is past it (a
        batch redelivered out of order had sent it back); else folded again from the stream
        (after a restart, an eviction, or a redelivery).
        """
        a = self.cache.pop(table_id, None)
        if a is not None and previous is not None and a.seq < previous < seq:
            await self.fast_forward(a, previous, reaching=previous)
        if a is None or a.seq >= seq:
            a = self.new(table_id)
            await self.fast_forward(a, seq - 1, reaching=previous or 0)
        self._keep(a)
        return a

    async def after(self, table_id: str, stored: S, previous: int | None = None) -> A:
        """The table with a stored batch (which followed ``previous``) folded in."""
        a = await self.before(table_id, stored.seq, previous)
        try:
            self.apply(a, stored)
        except Exception:
            self.forget(table_id)
            raise
        return a

    def forget(self, table_id: str) -> None:
        """Drop a table whose fold can no longer be trusted (what was folded into it did not happen)."""
        self.cache.pop(table_id, None)

    def _keep(self, a: A) -> None:
        if self.cache_size:
            self.cache[a.table_id] = a

