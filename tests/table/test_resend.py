"""A command the table service cannot take now is sent again by its sender and stored once (``deliver``).

While a stream elects a leader the table service answers ``unavailable``, and while no replica
runs nobody answers; the senders (the gateway, the bots) send the same command again, same
command id, until it is taken. Here with a real NATS server: the tables' stream absent, then
made; no table service replica, then one.
"""

from __future__ import annotations

import asyncio
import uuid

import nats
from nats.aio.msg import Msg

from maumau.v1 import table_pb2
from services.runtime.subjects import table_command
from services.table.client import deliver
from services.table.store import STREAM
from tests.table.harness import platform, table_replica


def _create(table_id: str) -> table_pb2.TableCommand:
    return table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id=table_id, actor="alice", actor_name="Alice",
                                  create=table_pb2.CreateTable(ruleset="classic32", seats=3))


async def _until(condition: object, seconds: float = 20) -> None:
    for _ in range(int(seconds * 20)):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not seen in time")


async def test_a_command_answered_unavailable_while_the_stream_is_away_is_stored_once_when_it_is_back(
        nats_url: str) -> None:
    async with platform(nats_url) as p:
        tap = await nats.connect(nats_url)
        sendings: list[Msg] = []
        unavailable: list[table_pb2.CommandReply] = []

        async def reply(msg: Msg) -> None:
            answer = table_pb2.CommandReply.FromString(msg.data)
            if answer.WhichOneof("result") == "refusal" and answer.refusal.code == "unavailable":
                unavailable.append(answer)

        async def sent(msg: Msg) -> None:
            sendings.append(msg)

        tid = uuid.uuid4().hex[:16]
        await tap.subscribe(table_command(tid), cb=sent)
        await tap.subscribe("_INBOX.>", cb=reply)
        await tap.flush()
        await p.store.js.delete_stream(STREAM)  # as while its leader is elected: appends find no stream
        cmd = _create(tid)
        sending = asyncio.create_task(deliver(p.client, cmd))
        await _until(lambda: len(unavailable) >= 2)
        await p.store.ensure_stream()
        answer = await sending
        stored = await p.store.read(tid)
        await tap.close()
    assert answer.WhichOneof("result") == "done", answer
    assert len(sendings) >= 3  # twice answered "unavailable", then taken
    assert {m.data for m in sendings} == {cmd.SerializeToString()}  # the same command each time
    assert [s.batch.events[0].command_id for s in stored] == [cmd.command_id]  # stored once
    assert list(answer.done.sequences) == [stored[0].seq]


async def test_a_command_sent_while_no_table_service_runs_is_taken_by_the_replica_that_comes(nats_url: str) -> None:
    async with platform(nats_url, replicas=0) as p:
        tid = uuid.uuid4().hex[:16]
        cmd = _create(tid)
        sending = asyncio.create_task(deliver(p.client, cmd))
        await asyncio.sleep(1.0)  # nobody answers: tried again and again
        assert not sending.done()
        async with table_replica(p):
            answer = await sending
            again = await deliver(p.client, cmd)  # a command sent once more after it was stored
        stored = await p.store.read(tid)
    assert answer.WhichOneof("result") == again.WhichOneof("result") == "done", (answer, again)
    assert list(answer.done.sequences) == list(again.done.sequences) == [stored[0].seq]
    assert [s.batch.events[0].command_id for s in stored] == [cmd.command_id]
