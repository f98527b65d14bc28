"""The pools in a JetStream key-value bucket, changed by compare-and-set: correct across any number of replicas.

One key per pool (``pool.<ruleset>-<seats>-<turn>``): every change reads it, changes it
(``services/matchmaking/pool.py``) and writes it back naming the revision it read; a
replica that lost the race reads again. So a ticket is in one place only — waiting, or in
one group — and a full pool becomes exactly one group, whichever replica filled it.

A waiting player's page asks about its ticket every second or two; each question marks the
ticket seen in a second bucket whose entries live ``SEEN_SECONDS``. A ticket nobody asked
about for that long (a closed tab, a lost phone) is dropped the next time the pool changes,
rather than seated at a table nobody will play.

A player has one live ticket across all pools: ``who.<identity digest>`` is claimed by
compare-and-set (created, or updated naming the revision read) before the ticket enters its
pool, so of two asks racing from two tabs on two replicas one claims it and the other sees the
claim. A claim holds while its ticket waits, was matched a moment ago (its group still in the
pool) or is on its way in (seen, not yet in its pool); a ticket matched, cancelled (its seen
mark deleted) or unseen for ``SEEN_SECONDS`` frees it. A ticket cancelled on its way in is kept
out of its pool by a tombstone (``pool.cancel``). Asking again in the same pool takes the
waiting ticket back; in another, it is refused (docs/matchmaking.md: what a second tab gets).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

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
    stale,
    status,
    take_back,
)
from services.runtime.timeouts import stop, within

log = logging.getLogger("maumau.matchmaking")
BUCKET, SEEN_BUCKET = "maumau_quick", "maumau_quick_seen"
SEEN_SECONDS = 45.0  # a page long-polls every 10 s: a busy gateway may answer late, so four polls missed
BUCKET_TTL = 3600.0  # what nobody writes again for an hour goes: old groups, players' last tickets, idle pools
RETRIES = 100
MATCHED_HOLD = 30.0  # seconds a ticket just matched still holds its player's claim: a racing ask waits it out
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


class AlreadyWaiting(Exception):
    """The player waits in another pool already (``ticket``): one live ticket per player."""

    def __init__(self, ticket: str) -> None:
        super().__init__(ticket)
        self.ticket = ticket


class NotYours(Exception):
    """The ticket is another player's: only its own player may take it back."""


@dataclass
class _Pending:
    """A change of a pool waiting for its writer: what to do, who waits for it, and an ask's time."""

    change: Callable[[Pool], Any]
    done: asyncio.Future[tuple[Pool, Any]]
    now: float | None


class Matchmaking:
    def __init__(self, kv: KeyValue, seen: KeyValue, partitions: int = 1, seen_seconds: float = SEEN_SECONDS) -> None:
        self.kv, self.seen = kv, seen
        # a ticket asked for less than half of this ago is seen (its mark was put as it asked, a cancel takes
        # it out of the pool): only older ones are looked up, one round trip each, before a pool changes
        self.seen_seconds = seen_seconds
        self.partitions = partitions  # the streams new tables spread over (MAUMAU_STREAM_PARTITIONS)
        self.waiting: dict[str, dict[str, asyncio.Future[Status]]] = {}  # per pool: the long polls, by ticket
        self.followers: dict[str, asyncio.Task[None]] = {}  # one watcher per pool asked about here
        # one writer per pool in this process, taking every change asked for meanwhile into its next write:
        # requests racing each other for the same revision would lose to one another (a crowd's work
        # growing as its square), and one write per request queues a busy pool's asks behind each other
        # at a few round trips each (2,000 players waited seconds)
        self.pending: defaultdict[str, list[_Pending]] = defaultdict(list)
        self.writers: dict[str, asyncio.Task[None]] = {}

    async def close(self) -> None:
        await stop(*self.followers.values(), *self.writers.values())

    @classmethod
    async def open(cls, js: JetStreamContext, replicas: int = 1, seen_seconds: float = SEEN_SECONDS,
                   partitions: int = 1) -> Matchmaking:
        return cls(await _bucket(js, BUCKET, BUCKET_TTL, replicas),
                   await _bucket(js, SEEN_BUCKET, seen_seconds, replicas), partitions, seen_seconds)

    async def _change(self, key: str, change: Callable[[Pool], T], now: float | None = None) -> tuple[Pool, T]:
        """Change pool ``key`` by compare-and-set, in the pool writer's next write; with ``now`` (an ask), its
        unseen tickets are dropped and its old groups settled first. The pool as written, and what ``change``
        answered."""
        done: asyncio.Future[tuple[Pool, Any]] = asyncio.get_running_loop().create_future()
        self.pending[key].append(_Pending(change, done, now))
        if key not in self.writers:
            self.writers[key] = asyncio.create_task(self._write(key), name=f"quick-write-{key}")
        pool, answer = await done
        return pool, cast(T, answer)

    async def _write(self, key: str) -> None:
        """Write pool ``key``'s changes, all of those waiting at once, until none waits."""
        try:
            while self.pending[key]:
                batch = self.pending.pop(key)
                asks = [p.now for p in batch if p.now is not None]
                try:
                    pool, answers = await self._change_now(key, [p.change for p in batch], max(asks, default=None))
                except Exception as e:  # told to every request of the batch: none waits for ever
                    for p in batch:
                        if not p.done.done():
                            p.done.set_exception(e)
                    continue
                for p, answer in zip(batch, answers, strict=True):
                    if not p.done.done():  # its request may have gone
                        p.done.set_result((pool, answer))
        finally:
            del self.writers[key]

    async def _change_now(self, key: str, changes: list[Callable[[Pool], Any]],
                          now: float | None) -> tuple[Pool, list[Any]]:
        for _ in range(RETRIES):
            try:
                entry = await self.kv.get(f"pool.{key}")
                pool, revision = Pool.from_json(json.loads(entry.value or b"{}")), entry.revision
            except KeyNotFoundError:
                pool, revision = Pool(), None
            if now is not None:  # the round trips at once: a busy pool's writes queue behind them
                doubtful = [w.ticket for w in pool.waiting if now - w.asked > self.seen_seconds / 2]
                alive, _ = await asyncio.gather(asyncio.gather(*(self._alive(t) for t in doubtful)),
                                                asyncio.gather(*(self._settle(g) for g in stale(pool, now))))
                drop(pool, {t for t, seen in zip(doubtful, alive, strict=True) if not seen})
            answers = [change(pool) for change in changes]
            value = json.dumps(pool.to_json()).encode()
            try:
                if revision is None:
                    await self.kv.create(f"pool.{key}", value)
                else:
                    await self.kv.update(f"pool.{key}", value, last=revision)
                return pool, answers
            except KeyWrongLastSequenceError:
                continue
        raise Busy(f"the pool {key} kept changing")

    async def _seat(self, group: Group) -> None:
        """Each ticket of ``group`` keeps it under its own key (the pool keeps it a moment only)."""
        value = json.dumps(group_to_json(group)).encode()
        *first, last = group.tickets
        await asyncio.gather(*(self.kv.put(f"seated.{t.ticket}", value) for t in first))
        await self.kv.put(f"seated.{last.ticket}", value)  # the last last: once it is there, all are (_settle)

    async def _settle(self, group: Group) -> None:
        """Before ``group`` leaves its pool, its tickets' keys hold it: written by the replica that formed it
        (``_seat``), else — it died in between — here."""
        if await self._seated(group.tickets[-1].ticket) is None:
            await self._seat(group)

    async def _alive(self, ticket: str) -> bool:
        try:
            await self.seen.get(f"seen.{ticket}")
            return True
        except KeyNotFoundError:
            return False

    async def ask(self, key: str, seats: int, identity: str, name: str, account: bool,
                  now: float) -> tuple[str, str, str, Group | None]:
        """Wait in pool ``key``: (ticket, status, table id, the group when this request completed it).

        The player's ticket waiting in this pool already (another tab's; one whose cancel is still on its
        way; one of an ask that failed) is taken back in the same write that brings this one in; one just
        matched here is the answer (its table); one waiting in another pool is ``AlreadyWaiting``.
        """
        ticket = Ticket(f"{key}.{secrets.token_hex(8)}", identity, name, account)
        await self.seen.put(f"seen.{ticket.ticket}", b"")  # before the claim: a claimed ticket on its way is seen
        mine, replaced = await self._claim(identity, key, ticket.ticket, now)
        if mine != ticket.ticket:
            await self.seen.delete(f"seen.{ticket.ticket}")
            state, table_id, _ = await self._where(mine)
            return mine, state, table_id, None

        def change(p: Pool) -> Group | None:
            if replaced:
                take_back(p, identity, replaced, now)
            return ask(p, ticket, seats, now, self.partitions)

        pool, group = await self._change(key, change, now)
        state, table_id = status(pool, mine)
        if group is not None:  # this request filled the pool: each of its tickets keeps its group
            await self._seat(group)
        return mine, state, table_id, group

    async def _claim(self, identity: str, key: str, ticket: str, now: float) -> tuple[str, str]:
        """Make ``ticket`` the player's one live ticket: (it, the player's ticket it replaces in pool ``key``,
        if any); or (the ticket matched a moment ago in this pool, "")."""
        who = _who(identity)
        with contextlib.suppress(KeyWrongLastSequenceError):
            await self.kv.create(who, ticket.encode())  # a player's first ask: one round trip
            return ticket, ""
        for _ in range(RETRIES):
            try:
                entry: KeyValue.Entry | None = await self.kv.get(who)
            except KeyNotFoundError:
                entry = None
            held = entry.value.decode() if entry is not None and entry.value else ""
            standing = await self._standing(held, now) if held else ""
            if standing and _pool_of(held) != key:
                raise AlreadyWaiting(held)
            if standing == "matched":
                return held, ""
            try:
                if entry is None:
                    await self.kv.create(who, ticket.encode())
                else:
                    await self.kv.update(who, ticket.encode(), last=entry.revision)
                return ticket, held if standing else ""
            except KeyWrongLastSequenceError:
                continue  # another ask of the player's claimed it first: look at that one
        raise Busy(f"the player's ticket kept changing ({key})")

    async def _standing(self, ticket: str, now: float) -> str:
        """Whether ``ticket`` holds its player's claim: "waiting"; "matched" a moment ago (its group still in
        its pool, or seated less than ``MATCHED_HOLD`` ago: a second ask racing the first is refused, not
        seated elsewhere, however late it comes); "coming" on its way in (seen, neither in its pool nor
        seated yet); else ""."""
        state, _ = status(await self._pool(_pool_of(ticket)), ticket)
        if state != "cancelled":
            return state
        seated = await self._seated(ticket)
        if seated is not None:
            return "matched" if now - seated.at < MATCHED_HOLD else ""
        return "coming" if await self._alive(ticket) else ""

    async def status(self, ticket: str) -> Status:
        """Where ``ticket`` is, marking it seen: (status, table id, its group once matched)."""
        await self.seen.put(f"seen.{ticket}", b"")
        return await self._where(ticket)

    async def _where(self, ticket: str) -> Status:
        """``status`` without marking the ticket seen."""
        pool = await self._pool(_pool_of(ticket))
        state, table_id = status(pool, ticket)
        if state == "cancelled":  # or matched a while ago: its group is no longer in the pool
            seated = await self._seated(ticket)
            if seated is not None:
                return "matched", seated.table_id, seated
        return state, table_id, group_of(pool, table_id) if table_id else None

    async def _pool(self, key: str) -> Pool:
        try:
            return Pool.from_json(json.loads((await self.kv.get(f"pool.{key}")).value or b"{}"))
        except KeyNotFoundError:
            return Pool()

    async def _seated(self, ticket: str) -> Group | None:
        try:
            return group_from_json(json.loads((await self.kv.get(f"seated.{ticket}")).value or b"{}"))
        except KeyNotFoundError:
            return None

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

    async def cancel(self, ticket: str, identity: str) -> tuple[str, str]:
        """Take ``identity``'s ``ticket`` out of its pool: ("cancelled", "") or, too late, ("matched", table
        id); ``NotYours`` if another player holds it (nothing changes, nothing of it is told). Its seen mark
        goes too: the player's claim is free at once."""
        try:
            await self.kv.get(f"pool.{_pool_of(ticket)}")  # a pool nobody asked in is not made by a cancel
        except KeyNotFoundError:
            return "cancelled", ""
        pool, taken = await self._change(_pool_of(ticket), lambda p: cancel(p, ticket, identity, time.time()))
        if taken is None:
            raise NotYours(ticket)
        state, table_id = status(pool, ticket)
        group = None
        if state == "cancelled":  # or matched a while ago: its group may have left the pool
            state, table_id, group = await self._where(ticket)
        if group is not None and any(t.ticket == ticket and t.identity != identity for t in group.tickets):
            raise NotYours(ticket)
        await self.seen.delete(f"seen.{ticket}")
        return ("matched", table_id) if state == "matched" else ("cancelled", "")
