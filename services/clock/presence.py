"""Who is at their table: the gateways' presence marks, read by the clock, told to the tables.

Each open socket marks the seats it holds at the tables it follows in the ``maumau_presence``
bucket (``p.<table>.<seat>.<socket>``, rewritten every ``REFRESH_SECONDS``, living
``TTL_SECONDS``: a socket that closes takes its marks away; a gateway that dies lets them run
out). Every ``SCAN_SECONDS`` the clock compares the marks with what each playing table
believes (``Table.away``) and sends the table a ``presence`` command for every seat that
came or went; the table stores ``PlayerAway`` / ``PlayerBack`` (every viewer's log and seat
dot follow the stream), and a stand-in timer puts a seat away long enough at a timed table
into automatic mode (``services/clock/timers.py``). Commands are named after the table's
sequence and the change, so the replicas' clocks sending the same one store it once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.errors import NoKeysError
from nats.js.kv import KeyValue

from maumau.v1 import table_pb2
from services.table.client import send
from services.table.domain import Status, Table

BUCKET = "maumau_presence"
TTL_SECONDS, REFRESH_SECONDS, SCAN_SECONDS = 30.0, 10.0, 3.0
log = logging.getLogger("maumau.clock")


async def bucket(js: JetStreamContext, replicas: int = 1) -> KeyValue:
    return await js.create_key_value(bucket=BUCKET, history=1, ttl=TTL_SECONDS, replicas=replicas)


def mark(table_id: str, seat: int, socket: str) -> str:
    """
    >>> mark("t1", 2, "s9")
    'p.t1.2.s9'
    """
    return f"p.{table_id}.{seat}.{socket}"


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


async def scan(nc: NATS, kv: KeyValue, playing: Callable[[], Iterable[str]],
               fold: Callable[[str], Awaitable[Table]]) -> int:
    """One look: tell every playing table who came and went; how many commands were sent."""
    try:
        here = seats_here(await kv.keys())
    except NoKeysError:
        here = set()
    sent = 0
    for table_id in list(playing()):
        t = await fold(table_id)
        for seat, present in changes(t, here):
            reply = await send(nc, command(t, seat, present))
            sent += reply.WhichOneof("result") == "done"
    return sent


async def follow(nc: NATS, kv: KeyValue, playing: Callable[[], Iterable[str]],
                 fold: Callable[[str], Awaitable[Table]], every: float = SCAN_SECONDS) -> None:
    """Scan every ``every`` seconds until cancelled."""
    while True:
        try:
            await scan(nc, kv, playing, fold)
        except (NatsError, OSError, TimeoutError) as e:
            log.warning("presence not scanned (%s); again", e or type(e).__name__)
        await asyncio.sleep(every)
