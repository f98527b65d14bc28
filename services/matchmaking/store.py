"""The pools in a JetStream key-value bucket, changed by compare-and-set: correct across any number of replicas.

One key per pool (``pool.<ruleset>-<seats>-<turn>``): every change reads it, changes it
(``services/matchmaking/pool.py``) and writes it back naming the revision it read; a
replica that lost the race reads again. So a ticket is in one place only — waiting, or in
one group — and a full pool becomes exactly one group, whichever replica filled it.

A waiting player's page asks about its ticket every second or two; each question marks the
ticket seen in a second bucket whose entries live ``SEEN_SECONDS``. A ticket nobody asked
about for that long (a closed tab, a lost phone) is dropped the next time the pool changes,
rather than seated at a table nobody will play. Each player's latest ticket is remembered
(``who.<identity digest>``) so that asking again, anywhere, first takes back the old one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable
from typing import TypeVar

from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from services.matchmaking.pool import (
    Group,
    Pool,
    Ticket,
    ask,
    cancel,
    drop,
    group_from_json,
    group_of,
    group_to_json,
    status,
)
from services.runtime.timeouts import stop, within

log = logging.getLogger("maumau.matchmaking")
BUCKET, SEEN_BUCKET = "maumau_quick", "maumau_quick_seen"
SEEN_SECONDS = 45.0  # a page long-polls every 10 s: a busy gateway may answer late, so four polls missed
BUCKET_TTL = 3600.0  # what nobody writes again for an hour goes: old groups, players' last tickets, idle pools
RETRIES = 100
T = TypeVar("T")
Status = tuple[str, str, Group | None]  # waiting, matched or cancelled; the table; the group once matched


def pool_key(ruleset: str, seats: int, turn_seconds: int) -> str:
    """
    >>> pool_key("classic52", 4, 30)
    'classic52-4-30'
    """
    return f"{ruleset}-{seats}-{turn_seconds}"


def _pool_of(ticket: str) -> str:
    return ticket.rsplit(".", 1)[0]


def _who(identity: str) -> str:
    return "who." + hashlib.sha256(identity.encode()).hexdigest()[:32]


async def _bucket(js: JetStreamContext, name: str, ttl: float, replicas: int) -> KeyValue:
    """The bucket as it is (an older version's settings kept), else made."""
    try:
        return await js.key_value(name)
    except NatsError:
        return await js.create_key_value(bucket=name, history=1, ttl=ttl, replicas=replicas)


class Busy(Exception):
    """The pool kept changing under this request (it may be sent again)."""


class Matchmaking:
    def __init__(self, kv: KeyValue, seen: KeyValue, partitions: int = 1) -> None:
        self.kv, self.seen = kv, seen
        self.partitions = partitions  # the streams new tables spread over (MAUMAU_STREAM_PARTITIONS)
        self.waiting: dict[str, dict[str, asyncio.Future[Status]]] = {}  # per pool: the long polls, by ticket
        self.followers: dict[str, asyncio.Task[None]] = {}  # one watcher per pool asked about here
        # one change of a pool at a time in this process: requests racing each other for the same
        # revision would lose to one another (each round one winner: a crowd's work grows as its square)
        self.locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def close(self) -> None:
        await stop(*self.followers.values())

    @classmethod
    async def open(cls, js: JetStreamContext, replicas: int = 1, seen_seconds: float = SEEN_SECONDS,
                   partitions: int = 1) -> Matchmaking:
        return cls(await _bucket(js, BUCKET, BUCKET_TTL, replicas),
                   await _bucket(js, SEEN_BUCKET, seen_seconds, replicas), partitions)

    async def _change(self, key: str, change: Callable[[Pool], T], check_seen: bool = False) -> tuple[Pool, T]:
        async with self.locks[key]:
            return await self._change_now(key, change, check_seen)

    async def _change_now(self, key: str, change: Callable[[Pool], T], check_seen: bool) -> tuple[Pool, T]:
        for _ in range(RETRIES):
            try:
                entry = await self.kv.get(f"pool.{key}")
                pool, revision = Pool.from_json(json.loads(entry.value or b"{}")), entry.revision
            except KeyNotFoundError:
                pool, revision = Pool(), None
            if check_seen:
                drop(pool, {w.ticket for w in pool.waiting if not await self._alive(w.ticket)})
            result = change(pool)
            value = json.dumps(pool.to_json()).encode()
            try:
                if revision is None:
                    await self.kv.create(f"pool.{key}", value)
                else:
                    await self.kv.update(f"pool.{key}", value, last=revision)
                return pool, result
            except KeyWrongLastSequenceError:
                continue
        raise Busy(f"the pool {key} kept changing")

    async def _alive(self, ticket: str) -> bool:
        try:
            await self.seen.get(f"seen.{ticket}")
            return True
        except KeyNotFoundError:
            return False

    async def ask(self, key: str, seats: int, identity: str, name: str, account: bool,
                  now: float) -> tuple[str, str, str, Group | None]:
        """Wait in pool ``key``: (ticket, status, table id, the group when this request completed it)."""
        await self.leave(identity)
        ticket = Ticket(f"{key}.{secrets.token_hex(8)}", identity, name, account)
        await self.seen.put(f"seen.{ticket.ticket}", b"")
        pool, _ = await self._change(key, lambda p: ask(p, ticket, seats, now, self.partitions), check_seen=True)
        mine = next((w.ticket for w in pool.waiting if w.identity == identity), ticket.ticket)  # another tab's
        state, table_id = status(pool, mine)
        await self.kv.put(_who(identity), mine.encode())
        group = group_of(pool, table_id) if table_id else None
        if group is not None:  # this request filled the pool: each of its tickets keeps its group
            for t in group.tickets:
                await self.kv.put(f"seated.{t.ticket}", json.dumps(group_to_json(group)).encode())
        return mine, state, table_id, group

    async def status(self, ticket: str) -> Status:
        """Where ``ticket`` is, marking it seen: (status, table id, its group once matched)."""
        await self.seen.put(f"seen.{ticket}", b"")
        try:
            entry = await self.kv.get(f"pool.{_pool_of(ticket)}")
        except KeyNotFoundError:
            return "cancelled", "", None
        pool = Pool.from_json(json.loads(entry.value or b"{}"))
        state, table_id = status(pool, ticket)
        if state == "cancelled":  # or matched a while ago: its group is no longer in the pool
            try:
                seated = group_from_json(json.loads((await self.kv.get(f"seated.{ticket}")).value or b"{}"))
                return "matched", seated.table_id, seated
            except KeyNotFoundError:
                pass
        return state, table_id, group_of(pool, table_id) if table_id else None

    async def wait(self, ticket: str, seconds: float) -> Status:
        """``status``, once it is no longer "waiting" or ``seconds`` have passed (a long poll).

        The pool's watcher answers the poll from the change itself: a busy pool's many waiting
        pages cost one read per change, not one each.
        """
        key = _pool_of(ticket)
        if key not in self.followers:
            self.followers[key] = asyncio.create_task(self._follow(key), name=f"quick-{key}")
        answer: asyncio.Future[Status] = asyncio.get_running_loop().create_future()
        polls = self.waiting.setdefault(key, {})
        polls[ticket] = answer  # before reading: a change in between answers it
        try:
            now = await self.status(ticket)
            if now[0] != "waiting":
                return now
            with contextlib.suppress(TimeoutError):
                return await within(answer, seconds)
            return now
        finally:
            if polls.get(ticket) is answer:
                del polls[ticket]

    async def _follow(self, key: str) -> None:
        """Answer the long polls on pool ``key`` at each of its changes (one watcher per pool in this process)."""
        while True:
            try:
                watcher = await self.kv.watch(f"pool.{key}")
                async for entry in watcher:
                    polls = self.waiting.get(key)
                    if entry is None or entry.value is None or not polls:
                        continue
                    pool = Pool.from_json(json.loads(entry.value))
                    for ticket, answer in list(polls.items()):
                        state, table_id = status(pool, ticket)
                        # only a match answers here: a ticket missing from a change may be one the
                        # watcher delivers late, written before the ticket was; the poll reads again
                        if state == "matched" and not answer.done():
                            answer.set_result((state, table_id, group_of(pool, table_id)))
            except (NatsError, OSError) as e:
                log.warning("stopped following the quick-match pool %s (%s); again", key, type(e).__name__)
                await asyncio.sleep(0.5)

    async def cancel(self, ticket: str) -> tuple[str, str]:
        """Take ``ticket`` out of its pool: ("cancelled", "") or, too late, ("matched", table id)."""
        try:
            await self.kv.get(f"pool.{_pool_of(ticket)}")
        except KeyNotFoundError:
            return "cancelled", ""
        pool, _ = await self._change(_pool_of(ticket), lambda p: cancel(p, ticket))
        state, table_id = status(pool, ticket)
        return ("matched", table_id) if state == "matched" else ("cancelled", "")

    async def leave(self, identity: str) -> None:
        """Take back the player's waiting ticket, wherever it waits (asking anew, or sitting down elsewhere)."""
        try:
            previous = (await self.kv.get(_who(identity))).value
        except KeyNotFoundError:
            return
        if previous:
            await self.cancel(previous.decode())
