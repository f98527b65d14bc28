"""Reading one subject of a stream in batches: many messages per round trip.

A batched direct get (NATS ≥ 2.11) answers with up to ``batch`` messages of the subject and
an end-of-batch status that says how many are still pending: one round trip per batch
instead of one per message (5 ms instead of 25–50 ms for 100 messages here). nats-py has no
call for it, so the request is made on the context's connection.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.errors import APIError

BATCH = 256


@dataclass(frozen=True)
class Message:
    seq: int
    data: bytes


async def read_subject(js: JetStreamContext, stream: str, subject: str, after: int = 0, until: int | None = None,
                       batch: int = BATCH, timeout: float = 5.0) -> list[Message]:
    """The messages stored on ``subject`` after stream sequence ``after`` (up to ``until``), in order.

    The server bounds a batch by count only: messages past ``until`` are dropped here.
    """
    nc = js._nc
    out: list[Message] = []
    last = after
    if until is not None and until <= after:
        return out
    arrived: list[Msg] = []
    ended = asyncio.get_running_loop().create_future()

    async def collect(msg: Msg) -> None:
        # a callback, not next_msg: that costs two tasks and a timer per message (4× slower reads)
        arrived.append(msg)
        if (msg.headers or {}).get("Status") and not ended.done():
            ended.set_result(None)

    inbox = nc.new_inbox()
    sub = await nc.subscribe(inbox, cb=collect)
    try:
        while True:
            wanted = batch if until is None else min(batch, until - last)
            request = {"seq": last + 1, "next_by_subj": subject, "batch": wanted}
            await nc.publish(f"{js._prefix}.DIRECT.GET.{stream}", json.dumps(request).encode(), reply=inbox)
            await asyncio.wait_for(ended, timeout)
            ended = asyncio.get_running_loop().create_future()
            replies, arrived[:] = arrived[:], []
            for msg in replies:
                headers = msg.headers or {}
                status = headers.get("Status")
                if status == "404":  # nothing (more) on the subject
                    return out
                if status == "204":  # end of the batch
                    if (until is not None and last >= until) or int(headers.get("Nats-Num-Pending", "0")) == 0:
                        return out
                    break
                if status or "Nats-Sequence" not in headers:
                    raise APIError(code=int(status or 0), description=headers.get("Description", ""))
                last = int(headers["Nats-Sequence"])
                if until is None or last <= until:
                    out.append(Message(last, msg.data))
    finally:
        await sub.unsubscribe()
