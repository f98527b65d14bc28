"""Reading one subject of a stream in batches: many messages per round trip.

A batched direct get (NATS ≥ 2.11) answers with up to ``batch`` messages of the subject and
an end-of-batch status that says how many are still pending: one round trip per batch
instead of one per message (5 ms instead of 25–50 ms for 100 messages here). nats-py has no
call for it, so the request is made on the context's connection.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

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
    inbox = nc.new_inbox()
    sub = await nc.subscribe(inbox)
    try:
        while True:
            wanted = batch if until is None else min(batch, until - last)
            request = {"seq": last + 1, "next_by_subj": subject, "batch": wanted}
            await nc.publish(f"{js._prefix}.DIRECT.GET.{stream}", json.dumps(request).encode(), reply=inbox)
            while True:
                msg = await sub.next_msg(timeout=timeout)
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
