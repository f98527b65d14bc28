"""Who is at their table: the gateways' presence marks, read by the clock, told to the tables.

Each open socket marks the seats it holds at the tables it follows in the ``maumau_presence``
bucket (``p.<table>.<seat>.<socket>``, rewritten every ``REFRESH_SECONDS``, living
``TTL_SECONDS``: a socket that closes takes its marks away; a gateway that dies lets them run
out). Every ``SCAN_SECONDS`` the clock compares the marks with what each playing table
believes (``Table.away``) and sends the table a ``presence`` command for every seat that
came or went; the table stores ``PlayerAway`` / ``PlayerBack`` (every viewer's log and seat
dot follow the stream), and a stand-in timer puts a seat away long enough at a timed table
into automatic mode (``services/clock/timers.py``). A timed table whose people have all been
away for the solo time, which no socket watches either (watchers mark ``p.<table>.w.<socket>``),
is ended (``Abandon``): its bots would otherwise play on for nobody. Commands are named after the table's
sequence and the change, so the replicas' clocks sending the same one store it once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.kv import KV_DEL, KV_MARKER_REASON, KV_OP, KV_PURGE, KeyValue

from maumau.v1 import table_pb2
from services.runtime.settings import SOLO_SECONDS
from services.table.client import ANSWER_SECONDS, send
from services.table.domain import Status, Table, solo_since

BUCKET = "maumau_presence"
TTL_SECONDS, REFRESH_SECONDS, SCAN_SECONDS = 30.0, 10.0, 3.0
log = logging.getLogger("maumau.clock")


async def bucket(js: JetStreamContext, replicas: int = 1) -> KeyValue:
    return await js.create_key_value(bucket=BUCKET, history=1, ttl=TTL_SECONDS, replicas=replicas)


async def marks_now(js: JetStreamContext) -> list[str]:
    """The bucket's live keys.

    Not ``KeyValue.keys()``: its watcher may say "no more" before the first key has reached its
    callback (nats-py compares the consumer's pending count, already 0 once the server has sent
    everything, with the callbacks run so far: 3 reads in 300 came back empty on a quiet machine),
    and an empty read tells every playing table that all its people left. Here the count taken
    when the consumer is made is what is fetched.
    """
    prefix = f"$KV.{BUCKET}."
    config = ConsumerConfig(deliver_policy=DeliverPolicy.LAST_PER_SUBJECT, ack_policy=AckPolicy.NONE,
                            headers_only=True, mem_storage=True, inactive_threshold=10 * SCAN_SECONDS)
    sub = await js.pull_subscribe(prefix + ">", stream=f"KV_{BUCKET}", config=config)
    info = await sub.consumer_info()
    keys: list[str] = []
    try:
        left = info.num_pending or 0
        while left > 0:
            try:
                msgs = await sub.fetch(min(left, 1000), timeout=2)
            except NatsTimeout:
                break  # the last marks ran out (TTL) after they were counted
            left -= len(msgs)
            keys += [m.subject[len(prefix):] for m in msgs if not _gone(m.headers)]
    finally:
        await sub.unsubscribe()
        await js.delete_consumer(info.stream_name, info.name)
    return keys


def _gone(headers: dict[str, str] | None) -> bool:
    """A delete or purge marker, which is what a key's last message is once it was taken away."""
    if not headers:
        return False
    return headers.get(KV_OP) in (KV_DEL, KV_PURGE) or KV_MARKER_REASON in headers


WATCHING = -1  # the "seat" of a socket that follows a table without a seat there


def mark(table_id: str, seat: int, socket: str) -> str:
    """
    >>> mark("t1", 2, "s9"), mark("t1", WATCHING, "s9")
    ('p.t1.2.s9', 'p.t1.w.s9')
    """
    return f"p.{table_id}.{'w' if seat == WATCHING else seat}.{socket}"


def watched(keys: Iterable[str]) -> set[str]:
    """
    >>> sorted(watched(["p.t1.w.a", "p.t2.0.b", "p.t3.w.c"]))
    ['t1', 't3']
    """
    return {parts[1] for key in keys if len(parts := key.split(".")) == 4 and parts[0] == "p" and parts[2] == "w"}


def seats_here(keys: Iterable[str]) -> set[tuple[str, int]]:
    """
    >>> sorted(seats_here(["p.t1.0.a", "p.t1.0.b", "p.t2.1.c", "other"]))
    [('t1', 0), ('t2', 1)]
    """
    here = set()
    for key in keys:
        parts = key.split(".")
        if len(parts) == 4 and parts[0] == "p" and parts[2].isdigit():
            here.add((parts[1], int(parts[2])))
    return here


def changes(t: Table, here: set[tuple[str, int]]) -> list[tuple[int, bool]]:
    """The (seat, here) the table should be told: people whose presence differs from what it believes."""
    if t.status != Status.PLAYING:
        return []
    return [(seat, (t.table_id, seat) in here) for seat, p in enumerate(t.players)
            if not p.bot and ((t.table_id, seat) in here) == (seat in t.away)]


def command(t: Table, seat: int, here: bool) -> table_pb2.TableCommand:
    cmd = table_pb2.TableCommand(command_id=f"clock:presence:{t.table_id}:{seat}:{t.seq}:{int(here)}",
                                 table_id=t.table_id, actor="clock", actor_name="Relógio")
    cmd.presence.seat, cmd.presence.here = seat, here
    return cmd


def abandon(t: Table) -> table_pb2.TableCommand:
    cmd = table_pb2.TableCommand(command_id=f"clock:abandon:{t.table_id}:{t.seq}", table_id=t.table_id,
                                 actor="clock", actor_name="Relógio")
    cmd.abandon.nobody_watching = True
    return cmd


async def scan(nc: NATS, playing: Callable[[], Iterable[str]],
               fold: Callable[[str], Awaitable[Table]], solo_seconds: float = SOLO_SECONDS,
               now: Callable[[], float] = time.time) -> int:
    """One look: tell every playing table who came and went, and end the timed ones left to bots for
    ``solo_seconds`` with nobody watching; how many commands were stored."""
    keys = await marks_now(nc.jetstream())
    here, seen = seats_here(keys), watched(keys)
    sent = 0
    for table_id in list(playing()):
        t = await fold(table_id)
        commands = [command(t, seat, present) for seat, present in changes(t, here)]
        since = solo_since(t)
        if not commands and since is not None and table_id not in seen and now() - since >= solo_seconds:
            commands.append(abandon(t))
        for cmd in commands:
            reply = await send(nc, cmd, ANSWER_SECONDS)  # unanswered: the next scan sends it again
            sent += reply.WhichOneof("result") == "done"
    return sent


async def follow(nc: NATS, playing: Callable[[], Iterable[str]],
                 fold: Callable[[str], Awaitable[Table]], solo_seconds: float = SOLO_SECONDS,
                 now: Callable[[], float] = time.time, every: float = SCAN_SECONDS) -> None:
    """Scan every ``every`` seconds until cancelled."""
    while True:
        try:
            await scan(nc, playing, fold, solo_seconds, now)
        except (NatsError, OSError, TimeoutError) as e:
            log.warning("presence not scanned (%s); again", e or type(e).__name__)
        await asyncio.sleep(every)
