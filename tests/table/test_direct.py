"""Batched direct gets take their replies raw (services/eventlog/direct.py): the rest of the connection is nats-py's."""

from __future__ import annotations

import asyncio

import nats
import pytest
from nats.aio.msg import Msg
from nats.js.errors import APIError

from maumau.v1 import events_pb2
from services.eventlog.direct import read_subject, read_subjects
from services.runtime import subjects
from services.table.store import STREAM, EventStore


async def test_reads_at_once_and_other_subscriptions_of_the_connection_get_their_messages_as_before(
        nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    await store.ensure_stream()
    seen: list[Msg] = []

    async def plain(msg: Msg) -> None:
        seen.append(msg)

    sub = await nc.subscribe("plain.>", cb=plain)
    try:
        last = {"a": 0, "b": 0}
        for n in range(300):
            for tid in ("a", "b") if n % 2 else ("a",):
                batch = events_pb2.EventBatch(events=[events_pb2.Event(command_id=f"{tid}{n}")])
                last[tid] = (await store.append(tid, batch, last[tid], f"c{n}"))[0].seq
        js = nc.jetstream()

        async def chatter() -> None:
            for k in range(50):
                await nc.publish(f"plain.{k}", b"x", headers={"Nats-Sequence": "no", "K": str(k)})

        a, b, c, _ = await asyncio.gather(
            read_subject(js, STREAM, subjects.table_events("a"), batch=7),
            read_subject(js, STREAM, subjects.table_events("b"), batch=11),
            read_subject(js, STREAM, subjects.table_events("a"), after=last["b"] - 20, until=last["a"] - 3),
            chatter())
        await nc.flush()
        await asyncio.sleep(0.1)
    finally:
        await sub.unsubscribe()
        await nc.close()
    names = [events_pb2.EventBatch.FromString(m.data).events[0].command_id for m in a]
    assert names == [f"a{n}" for n in range(300)] and a[-1].seq == last["a"]
    assert [events_pb2.EventBatch.FromString(m.data).events[0].command_id for m in b] == [
        f"b{n}" for n in range(1, 300, 2)]
    assert c == [m for m in a if last["b"] - 20 < m.seq <= last["a"] - 3] and c
    assert sorted(int(m.headers["K"]) for m in seen if m.headers) == list(range(50))


async def test_a_stream_that_is_not_there_is_an_error_not_an_empty_read(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        with pytest.raises(APIError):
            await read_subject(nc.jetstream(), "NOSUCH", "tables.x", timeout=2)
    finally:
        await nc.close()


async def test_a_pass_over_many_subjects_gives_every_message_in_stream_order_with_its_subject(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    await store.ensure_stream()
    try:
        stored: list[tuple[int, str]] = []
        last: dict[str, int] = {}
        for n in range(120):
            tid = f"t{n % 7}"
            batch = events_pb2.EventBatch(events=[events_pb2.Event(command_id=f"c{n}")])
            last[tid] = (await store.append(tid, batch, last.get(tid, 0), f"c{n}"))[0].seq
            stored.append((last[tid], subjects.table_events(tid)))
        every = await read_subjects(nc.jetstream(), STREAM, subjects.TABLE_EVENTS, batch=16)
        later = await read_subjects(nc.jetstream(), STREAM, subjects.TABLE_EVENTS, after=stored[99][0])
    finally:
        await nc.close()
    assert [(m.seq, m.subject) for m in every] == stored
    assert [events_pb2.EventBatch.FromString(m.data).events[0].command_id for m in every] == [
        f"c{n}" for n in range(120)]
    assert later == every[100:]
