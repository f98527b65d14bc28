"""The clock service: timers derived from the stream, kept in a JetStream key-value bucket, fired as commands.

Replicas share the work of reading the stream (one durable pull consumer, ``clock``):
after a batch, the table's running timers are written to the ``CLOCK`` bucket under the
table's id, only ever moving forward in stream sequence — but only when the bucket's timers
would fire later than the table's or not at all (a timer kind started or stopped, a due time
brought forward). A move usually only pushes the timers later, so the bucket keeps the
earlier ones: no write per move. Every replica watches the whole bucket and fires what is due
as a command whose id names the timer, so a timer fired by two replicas is stored once. A
timer that comes early (the table moved since: stale, not due, not expired) sets the table's
timers again from the table as it stands. A restarted replica finds every pending timer in
the bucket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy, KeyValueConfig, StorageType
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from services.clock import presence
from services.clock.timers import KINDS, Durations, Timer, timers
from services.eventlog.consuming import consume_all
from services.eventlog.store import previous_seq
from services.runtime import logs, metrics
from services.runtime.refusals import Code
from services.runtime.timeouts import within
from services.table.client import ANSWER_SECONDS, send
from services.table.repository import tables
from services.table.store import SUBJECTS, EventStore, Stored

FOLDED = 2000  # tables kept folded between their batches
log = logging.getLogger("maumau.clock")
BUCKET = "CLOCK"
DURABLE = "clock"
RETRY = 1.0  # seconds before a timer the table called early is tried again
EARLY = frozenset({Code.STALE_TIMER, Code.NOT_DUE, Code.NOT_EXPIRED})  # the table moved since the timer was set


def _encode(seq: int, pending: list[Timer]) -> bytes:
    return json.dumps({"seq": seq, "timers": [[x.kind, x.seq, x.due] for x in pending]}).encode()


def _decode(table_id: str, raw: bytes) -> tuple[int, list[Timer]]:
    d = json.loads(raw)
    return int(d["seq"]), [Timer(kind, table_id, int(seq), float(due)) for kind, seq, due in d["timers"]
                           if kind in KINDS]  # an earlier version's "rematch" timer is dropped


@dataclass
class ClockService:
    nc: NATS
    durations: Durations = field(default_factory=Durations)
    replicas: int = 1
    now: Callable[[], float] = time.time
    pending: dict[str, list[Timer]] = field(default_factory=dict)
    revisions: dict[str, int] = field(default_factory=dict)  # the bucket revision this replica last wrote, per table
    fired: int = 0
    linger: float = 0.25  # timers are due from the event's time: recording them a moment later moves nothing

    def __post_init__(self) -> None:
        self.js = self.nc.jetstream()
        self.store = EventStore(self.js)
        self.folder = tables(self.store, FOLDED)
        self.changed = asyncio.Event()

    async def bucket(self) -> KeyValue:
        try:
            return await self.js.key_value(BUCKET)
        except NatsError:
            return await self.js.create_key_value(KeyValueConfig(bucket=BUCKET, history=1, storage=StorageType.FILE,
                                                                 replicas=self.replicas))

    async def run(self) -> None:
        """Read the stream, watch the bucket and fire timers until cancelled."""
        kv = await self.bucket()
        await presence.bucket(self.js, self.replicas)
        await asyncio.gather(self._consume(kv), self._watch(kv), self._fire(kv),
                             presence.follow(self.nc, self._playing, self.folder.get, self.durations.solo,
                                             self.now))

    async def _consume(self, kv: KeyValue) -> None:
        config = ConsumerConfig(durable_name=DURABLE, deliver_policy=DeliverPolicy.ALL,
                                ack_policy=AckPolicy.EXPLICIT, filter_subject=SUBJECTS)

        async def handle(msgs: list[Msg]) -> None:
            latest = {}  # one write per table per batch: under load many moves share it
            for msg in msgs:
                table_id, seq = msg.subject.rsplit(".", 1)[-1], msg.metadata.sequence.stream
                # The presence scan and a timer set again read a table up to the stream's end, ahead of this
                # consumer (it lags by its linger): a batch the cached table holds is not folded again
                # (Repository.after would fold the whole table afresh); its timers are the table's as it
                # stands, which the bucket takes (it only moves forward). With 100 tables in play the
                # refolds were a quarter of the clock's CPU.
                folded = self.folder.cached(table_id)
                if folded is not None and folded.seq >= seq:
                    latest[table_id] = folded
                    continue
                latest[table_id] = await self.folder.after(table_id, Stored.decode(seq, msg.data),
                                                           previous_seq(msg.headers))
            running = {table_id: timers(t, self.durations) for table_id, t in latest.items()}
            await asyncio.gather(*(self._record(kv, table_id, latest[table_id].seq, now)
                                   for table_id, now in running.items() if not self._kept(table_id, now)))
            for msg in msgs:
                await msg.ack()

        await consume_all(self.js, self.store.streams, config, handle, size=500, linger=self.linger, log=log)

    def _playing(self) -> list[str]:
        """The tables whose people's presence matters: a match in play (its absence or turn timer runs)."""
        return [table_id for table_id, running in self.pending.items()
                if any(x.kind in ("turn", "absence") for x in running)]

    def _kept(self, table_id: str, running: list[Timer]) -> bool:
        """Whether the bucket's timers of the table may stay: the same kinds, none due later than the table's.

        Not when one is due already (a seat in automatic mode is played at once, not after a round trip).
        """
        stored = self.pending.get(table_id)
        if stored is None or sorted(x.kind for x in stored) != sorted(x.kind for x in running):
            return False
        if any(x.due <= self.now() for x in running):
            return False
        due = {x.kind: x.due for x in stored}
        return all(due[x.kind] <= x.due for x in running)

    async def _record(self, kv: KeyValue, table_id: str, seq: int, running: list[Timer]) -> None:
        """Write the table's timers unless the bucket already holds a later state of the table."""
        revision = self.revisions.get(table_id)
        if revision is not None:  # the usual case: this replica wrote the last entry
            try:
                self.revisions[table_id] = await kv.update(table_id, _encode(seq, running), last=revision)
                return
            except KeyWrongLastSequenceError:
                pass
        while True:
            try:
                entry = await kv.get(table_id)
            except KeyNotFoundError:
                try:
                    self.revisions[table_id] = await kv.create(table_id, _encode(seq, running))
                    return
                except KeyWrongLastSequenceError:
                    continue
            if entry.value is not None and _decode(table_id, entry.value)[0] >= seq:
                return
            try:
                self.revisions[table_id] = await kv.update(table_id, _encode(seq, running), last=entry.revision)
                return
            except KeyWrongLastSequenceError:
                continue

    async def _watch(self, kv: KeyValue) -> None:
        while True:
            try:
                watcher = await kv.watchall()
                async for entry in watcher:
                    if entry is None or entry.value is None:
                        continue
                    self.pending[entry.key] = _decode(entry.key, entry.value)[1]
                    self.changed.set()
            except (NatsError, OSError) as e:
                log.warning("clock paused watching timers (%s); resuming", e or type(e).__name__)
                await asyncio.sleep(0.5)

    async def _fire(self, kv: KeyValue) -> None:
        while True:
            due = [x for xs in self.pending.values() for x in xs]
            metrics.TIMERS_PENDING.set(len(due))
            soonest = min((x.due for x in due), default=None)
            wait = 3600.0 if soonest is None else max(0.0, soonest - self.now())
            if wait > 0:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await within(self.changed.wait(), min(wait, 60.0))
                continue
            now = self.now()
            await asyncio.gather(*(self._fire_one(kv, x) for x in due if x.due <= now))

    async def _fire_one(self, kv: KeyValue, timer: Timer) -> None:
        logs.TABLE_ID.set(timer.table_id)  # a task of its own (gather): its log lines name the table
        try:
            reply = await send(self.nc, timer.command(), ANSWER_SECONDS)  # unanswered: tried again RETRY s later
        except (NatsError, OSError) as e:
            log.warning("timer %s not delivered (%s); trying again", timer.command_id, e or type(e).__name__)
            metrics.TIMERS_FIRED.labels(timer.kind, "unavailable").inc()
            self._postpone(timer)
            return
        code = reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"
        metrics.TIMERS_FIRED.labels(timer.kind, metrics.code(code)).inc()
        if code == Code.UNAVAILABLE:
            self._postpone(timer)
            return
        if code in EARLY:
            await self._set_again(kv, timer)
            return
        self.fired += code == "done"
        log.info("timer %s: %s", timer.command_id, code)
        self._drop(timer)

    async def _set_again(self, kv: KeyValue, early: Timer) -> None:
        """The table's timers from the table as it stands, after ``early`` came before its time.

        The same timer again (same kind, same sequence: the table's clock is a little behind
        this one) is tried after ``RETRY`` seconds.
        """
        try:
            t = await self.folder.get(early.table_id)
        except (NatsError, OSError) as e:
            log.warning("timer %s not set again (%s); trying later", early.command_id, e or type(e).__name__)
            self._postpone(early)
            return
        running = timers(t, self.durations)
        if any(x.kind == early.kind and x.seq == early.seq for x in running):
            self._postpone(early)
            return
        self._drop(early)
        await self._record(kv, early.table_id, t.seq, running)

    def _drop(self, timer: Timer) -> None:
        running = self.pending.get(timer.table_id, [])
        self.pending[timer.table_id] = [x for x in running if x != timer]

    def _postpone(self, timer: Timer) -> None:
        self._drop(timer)
        self.pending[timer.table_id].append(Timer(timer.kind, timer.table_id, timer.seq, self.now() + RETRY))
