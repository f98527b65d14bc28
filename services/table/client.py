"""Sending a command to the table service, as the gateway, the bots and the clock do.

The request carries the trace context of the sender's span, so the table service's span and
the events it stores continue the trace that began where the command was made.

``deliver`` is how a sender gets a command stored through a stream's election: the table
service answers ``unavailable`` ("send it again") while a stream has no leader, and an answer
is lost with a NATS server that dies; the same command (same command id: stored once, a
command sent again after it was stored is answered "done" with its sequence) goes again after
a short pause, for as long as one full election may take (docs/operations.md, "A clustered
JetStream").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError

from maumau.v1 import table_pb2
from services.runtime import tracing
from services.runtime.backoff import pauses
from services.runtime.refusals import Code
from services.runtime.subjects import table_command

log = logging.getLogger("maumau.table.client")
# One try's wait for an answer: a command takes milliseconds, an answer lost with a dead server is
# found in 3 s, not 10 (a try the table service is still deciding is answered "done" to the next one);
# more than the table service's own wait for an append (eventlog.store.APPEND_SECONDS, 2 s).
ANSWER_SECONDS = 3.0
# How long a command answered "unavailable" (or not answered) is sent again: a follower waits
# 4-9 s for a dead leader before it calls an election (nats-server's minElectionTimeoutDefault
# and maxElectionTimeoutDefault, server/raft.go); 20 s covers one full election, a second
# round and the answer.
RETRY_SECONDS = 20.0
FIRST_PAUSE, LONGEST_PAUSE = 0.1, 1.0  # between tries: doubling from 0.1 s, at most 1 s
# A try still unanswered looks this often whether the connection moved to another server meanwhile:
# then its answer (or the request itself) went with the server left, and it is sent again at once.
MOVED_CHECK_SECONDS = 0.25


async def send(nc: NATS, cmd: table_pb2.TableCommand, timeout: float = 10) -> table_pb2.CommandReply:
    """The table service's reply to ``cmd`` (raises NATS' errors when it does not answer in time)."""
    raw = await tracing.request(nc, table_command(cmd.table_id), cmd.SerializeToString(), "send table command",
                                timeout, {"maumau.table_id": cmd.table_id,
                                          "maumau.command": cmd.WhichOneof("command") or ""})
    return table_pb2.CommandReply.FromString(raw.data)


async def deliver(nc: NATS, cmd: table_pb2.TableCommand, *, retry_seconds: float = RETRY_SECONDS,
                  timeout: float = ANSWER_SECONDS,
                  waiting: Callable[[], Awaitable[object]] | None = None) -> table_pb2.CommandReply:
    """The table service's reply to ``cmd``, sent again while it is "unavailable" or unanswered.

    Tries again with the same command id after a pause (``backoff.pauses``) until a reply other
    than ``unavailable`` comes or ``retry_seconds`` have gone by; then the last ``unavailable``
    reply is returned, or the last NATS error (a timeout, no responders) raised. ``waiting``
    is awaited before each pause (a consumer's ``in_progress``, so its message is not handed
    to another replica meanwhile).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + retry_seconds
    for tries, pause in enumerate(pauses(FIRST_PAUSE, LONGEST_PAUSE), start=1):
        failure: Exception | None = None
        try:
            reply = await _try(nc, cmd, timeout)
        except (NatsError, OSError, TimeoutError) as e:
            failure = e
        else:
            if reply.WhichOneof("result") != "refusal" or reply.refusal.code != Code.UNAVAILABLE:
                if tries > 1:
                    log.info("command %s answered after %d tries", cmd.command_id, tries)
                return reply
        if loop.time() + pause >= deadline:
            if failure is not None:
                raise failure
            return reply
        if waiting is not None:
            await waiting()
        await asyncio.sleep(pause)
    raise AssertionError("pauses() never ends")


async def _try(nc: NATS, cmd: table_pb2.TableCommand, timeout: float) -> table_pb2.CommandReply:
    """One sending of ``cmd``: its reply, or ``TimeoutError`` when none came within ``timeout`` or the
    connection reconnected (to another server) while it waited (the reply would be lost)."""
    reconnects = nc.stats["reconnects"]
    sending = asyncio.ensure_future(send(nc, cmd, timeout))
    while True:
        done, _ = await asyncio.wait({sending}, timeout=MOVED_CHECK_SECONDS)
        if done:
            return sending.result()
        if nc.stats["reconnects"] != reconnects:
            sending.cancel()
            await asyncio.gather(sending, return_exceptions=True)
            raise TimeoutError("the connection moved to another server while the command waited")
