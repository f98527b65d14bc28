"""A whole stream's messages on a subject, pushed by the server: the cheapest read of everything.

A pass over a stream by batched direct gets (``direct.read_subjects``) costs nats-server
11–14 µs of CPU a message, as it answers each request; an ordered push consumer (no acks,
the server flow-controlled by the reader, in memory) costs it 4–5 µs, as it sends the
stream as it lies (docs/record.md, "How fast"). The messages are taken raw from the
connection's parser (``direct.raw_routes``): the stream sequence and what is still pending
are in the reply subject, so no header is read.

The read ends at the first message the server sends with nothing pending after it. A gap
in what the consumer delivered (a message the server dropped for a slow reader) ends it
with ``ReadGap``: the caller reads again.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js.errors import APIError

from services.eventlog.direct import Message, raw_routes, status
from services.runtime.timeouts import within

HEARTBEAT_NS = 2_000_000_000  # the server says it is there this often when it has nothing to send
FORGOTTEN_NS = 30_000_000_000  # a consumer whose reader is gone is removed by the server after this


class ReadGap(NatsError):
    """The server skipped messages in what it delivered (it dropped them for a slow reader): read again."""


def acked(reply: bytes) -> tuple[int, int, int]:
    """The stream sequence, the consumer's own sequence (one more per message it delivers) and the messages
    pending after one delivered message, from its reply subject (with and without the domain and account tokens).

    >>> acked(b"$JS.ACK.TABLES.c1.1.41.7.1700000000000000000.3")
    (41, 7, 3)
    >>> acked(b"$JS.ACK.hub.acc.TABLES.c1.1.41.7.1700000000000000000.3.tok")
    (41, 7, 3)
    """
    tokens = reply.split(b".")
    at = 5 if len(tokens) == 9 else 7
    return int(tokens[at]), int(tokens[at + 1]), int(tokens[at + 3])


async def delivered(nc: Client, stream: str, subject: str, timeout: float = 10.0) -> AsyncIterator[list[Message]]:
    """Every message of ``stream`` on ``subject`` (a wildcard too), in stream order, a chunk at a time as they come."""
    inbox = nc.new_inbox()
    sub = await nc.subscribe(inbox)
    routes = raw_routes(nc)
    arrived: list[Message] = []
    expected, done = 1, False
    woken = asyncio.Event()
    failure: list[NatsError] = []
    answering: set[asyncio.Task[None]] = set()

    def take(subj: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        nonlocal expected, done
        code = status(headers)
        if code:  # 100: a heartbeat, or a flow-control request answered at once
            if reply:
                sent = asyncio.ensure_future(nc.publish(reply.decode(), b""))
                answering.add(sent)
                sent.add_done_callback(answering.discard)
            return
        seq, delivery, pending = acked(reply)
        if delivery != expected:
            failure.append(ReadGap(f"{stream}: delivery {delivery} came after {expected - 1}"))
        expected = delivery + 1
        arrived.append(Message(seq, data, subj.decode()))
        if pending == 0:
            done = True
        woken.set()

    routes[sub._id] = take
    name = ""
    try:
        config = {"deliver_subject": inbox, "deliver_policy": "all", "ack_policy": "none", "max_deliver": 1,
                  "filter_subject": subject, "flow_control": True, "idle_heartbeat": HEARTBEAT_NS,
                  "mem_storage": True, "num_replicas": 1, "inactive_threshold": FORGOTTEN_NS}
        answer = json.loads((await nc.request(f"$JS.API.CONSUMER.CREATE.{stream}",
                                              json.dumps({"stream_name": stream, "config": config}).encode(),
                                              timeout=timeout)).data)
        if "error" in answer:
            raise APIError(code=answer["error"].get("code"), description=answer["error"].get("description"))
        name = answer["name"]
        if answer.get("num_pending", 0) == 0:  # nothing to send
            done = True
        while True:
            if not arrived and not done:
                woken.clear()
                await within(woken.wait(), timeout)
            if failure:
                raise failure[0]
            if arrived:
                chunk, arrived[:] = arrived[:], []
                yield chunk
            elif done:
                return
    finally:
        routes.pop(sub._id, None)
        await sub.unsubscribe()
        if name:
            await nc.publish(f"$JS.API.CONSUMER.DELETE.{stream}.{name}", b"")
