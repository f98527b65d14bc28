"""Reading one subject of a stream in batches: many messages per round trip.

A batched direct get (NATS ≥ 2.11) answers with up to ``batch`` messages of the subject and
an end-of-batch status that says how many are still pending: one round trip per batch
instead of one per message (5 ms instead of 25–50 ms for 100 messages here). nats-py has no
call for it, so the request is made on the context's connection.

The replies are taken as the connection's parser hands them over, before nats-py turns
their headers into a dict and a ``Msg``: each reply carries ten headers (the stored ones,
then the stream's, the subject's, the sequence, the time, the pending count…) and nats-py's
parser looks at every character of every name; of them a read needs the status and two
numbers, found here in the raw header bytes. That made a read a third of what it cost
(docs/record.md, "How fast"). Every other subscription of the connection is handled by
nats-py as before.

A direct get is answered by any replica of the stream, a follower too, and JetStream lets a
follower answer from when it holds 90 % of the stream: a read may end short of what the
stream holds. A reader that knows a sequence is stored (a consumer's batch names the
table's one before it) asks again until it has it (``services.table.repository``), and
says ``StaleRead`` when the replicas keep answering without it.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.errors import APIError

from services.runtime.timeouts import within

BATCH = 256

Raw = Callable[[bytes, bytes, bytes, bytes | None], None]  # a message's subject, reply, payload and raw header block
_ROUTES: weakref.WeakKeyDictionary[Client, dict[int, Raw]] = weakref.WeakKeyDictionary()


class StaleRead(NatsError):
    """The replicas that answered a read had not stored yet what the reader knows the stream holds.

    A NATS error like a timeout: every caller that waits out the server (a consumer redelivers,
    a command is answered "send it again") waits this out the same way.
    """


class Message(NamedTuple):
    seq: int
    data: bytes
    subject: str = ""  # read_subjects: the subject it was stored on


def raw_routes(nc: Client) -> dict[int, Raw]:
    """The subscriptions of ``nc`` whose messages come here raw, by subscription id (hooked in once)."""
    routes = _ROUTES.get(nc)
    if routes is None:
        routes = _ROUTES[nc] = {}
        parsed: Callable[..., Awaitable[None]] = nc._process_msg  # nats-py types headers as bytes: None too

        async def process(sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
            route = routes.get(sid)
            if route is None:
                await parsed(sid, subject, reply, data, headers)
            else:
                route(subject, reply, data, headers)

        nc._process_msg = process  # type: ignore[method-assign]  # the parser calls the connection's
    return routes


def status(headers: bytes | None) -> bytes:
    """The status code of a reply's header block (``NATS/1.0 204 EOB``: ``b"204"``), empty for a message.

    >>> status(b"NATS/1.0 404 No Messages\\r\\n\\r\\n"), status(b"NATS/1.0\\r\\nNats-Sequence: 7\\r\\n\\r\\n")
    (b'404', b'')
    """
    if headers is None or headers[8:9] != b" ":
        return b""
    return headers[9:12].strip()


def header(headers: bytes | None, name: bytes) -> bytes | None:
    """The value of header ``name`` in a raw header block (its last, as nats-py's dict keeps), or None.

    >>> block = b"NATS/1.0\\r\\nNats-Msg-Id: a\\r\\nNats-Sequence: 41\\r\\nNats-Num-Pending: 3\\r\\n\\r\\n"
    >>> header(block, b"Nats-Sequence"), header(block, b"Nats-Num-Pending"), header(block, b"Status")
    (b'41', b'3', None)
    """
    if headers is None:
        return None
    start = headers.rfind(b"\r\n" + name + b":")
    if start < 0:
        return None
    start += len(name) + 3
    return headers[start:headers.index(b"\r\n", start)].strip()


def _description(headers: bytes) -> str:
    line = headers[:headers.find(b"\r\n")] if b"\r\n" in headers else headers
    return line[13:].strip().decode("utf-8", "replace")


async def read_subject(js: JetStreamContext, stream: str, subject: str, after: int = 0, until: int | None = None,
                       batch: int = BATCH, timeout: float = 5.0) -> list[Message]:
    """The messages stored on ``subject`` after stream sequence ``after`` (up to ``until``), in order.

    The server bounds a batch by count only: messages past ``until`` are dropped here.
    """
    return await _read(js, stream, subject, after, until, batch, timeout, named=False)


async def read_subjects(js: JetStreamContext, stream: str, wildcard: str, after: int = 0, batch: int = BATCH,
                        timeout: float = 5.0) -> list[Message]:
    """Every message stored on a subject ``wildcard`` matches after ``after``, in stream order, with its subject.

    One pass over many subjects costs the server half what a read of each costs: a read of one
    subject has it step over the others' messages between.
    """
    return await _read(js, stream, wildcard, after, None, batch, timeout, named=True)


async def _read(js: JetStreamContext, stream: str, subject: str, after: int, until: int | None, batch: int,
                timeout: float, named: bool) -> list[Message]:
    nc = js._nc
    out: list[Message] = []
    last = after
    if until is not None and until <= after:
        return out
    arrived: list[tuple[bytes, bytes | None]] = []
    loop = asyncio.get_running_loop()
    ended = loop.create_future()

    def collect(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        arrived.append((data, headers))
        if headers is not None and headers[8:9] == b" " and not ended.done():  # a status: the batch's end
            ended.set_result(None)

    async def ask(first: int) -> None:
        wanted = batch if until is None else min(batch, until - first + 1)
        request = {"seq": first, "next_by_subj": subject, "batch": wanted}
        await nc.publish(f"{js._prefix}.DIRECT.GET.{stream}", json.dumps(request).encode(), reply=inbox)

    inbox = nc.new_inbox()
    sub = await nc.subscribe(inbox)
    routes = raw_routes(nc)
    routes[sub._id] = collect
    try:
        await ask(last + 1)
        while True:
            await within(ended, timeout)
            ended = loop.create_future()
            replies, arrived[:] = arrived[:], []
            asked = _ahead(replies, until)
            if asked:  # the server gathers the next batch while this one is taken apart
                await ask(asked)
            for data, headers in replies:
                code = status(headers)
                if code == b"404":  # nothing (more) on the subject
                    return out
                if code == b"204":  # end of the batch
                    if (until is not None and last >= until) or int(header(headers, b"Nats-Num-Pending") or 0) == 0:
                        return out
                    if not asked:
                        await ask(last + 1)
                    break
                seq = header(headers, b"Nats-Sequence")
                if code or seq is None:
                    raise APIError(code=int(code or 0), description=_description(headers or b""))
                last = int(seq)
                if named:
                    out.append(Message(last, data, (header(headers, b"Nats-Subject") or b"").decode()))
                elif until is None or last <= until:
                    out.append(Message(last, data))
    finally:
        routes.pop(sub._id, None)
        await sub.unsubscribe()


def _ahead(replies: list[tuple[bytes, bytes | None]], until: int | None) -> int:
    """Where the batch after ``replies`` starts, if they end a batch with more to come (the sequence after
    their last message's), else 0: read from the last two replies, before the rest is taken apart."""
    if len(replies) < 2:
        return 0
    end, last = replies[-1][1], replies[-2][1]
    if status(end) != b"204" or status(last) or int(header(end, b"Nats-Num-Pending") or 0) == 0:
        return 0
    seq = header(last, b"Nats-Sequence")
    if seq is None or (until is not None and int(seq) >= until):
        return 0
    return int(seq) + 1
