"""Tables spread over partitioned streams (``MAUMAU_STREAM_PARTITIONS``): an address says where a table lives."""

from __future__ import annotations

import asyncio
import logging

import nats
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from maumau.v1 import events_pb2
from services.eventlog.consuming import consume_all
from services.runtime import subjects
from services.table.store import EventStore


def _batch(n: int) -> events_pb2.EventBatch:
    return events_pb2.EventBatch(events=[events_pb2.Event(command_id=f"c{n}")])


def _address_in(partition: int, of: int) -> str:
    """A new table's address that the hash puts in ``partition`` of ``of``."""
    return next(a for n in range(50) if subjects.table_partition(a := subjects.table_address(f"t{n}", of)) == partition)


async def _subjects_of(nc: NATS, stream: str) -> set[str]:
    info = await nc.jetstream().stream_info(stream, subjects_filter=">")
    return set(info.state.subjects or {})


async def test_each_table_is_stored_in_the_stream_of_the_partition_its_address_names(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        store = EventStore(nc.jetstream(), partitions=3)
        await store.ensure_stream()
        ids = [subjects.table_address(f"t{n}", 3) for n in range(12)]
        for table_id in ids:
            await store.append(table_id, _batch(0), 0, "c0")
        by_stream = {stream: await _subjects_of(nc, stream) for stream in ("TABLES", "TABLES-1", "TABLES-2")}
    finally:
        await nc.close()
    assert {subjects.table_partition(t) for t in ids} == {0, 1, 2}  # twelve names reach every partition
    for k, stream in enumerate(("TABLES", "TABLES-1", "TABLES-2")):
        assert by_stream[stream] == {subjects.table_events(t) for t in ids if subjects.table_partition(t) == k}


async def test_fewer_partitions_later_still_read_every_table_where_it_was_put(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        before = EventStore(nc.jetstream(), partitions=3)
        await before.ensure_stream()
        table_id = _address_in(2, of=3)
        await before.append(table_id, _batch(0), 0, "c0")
        after = EventStore(nc.jetstream(), partitions=1)  # the setting lowered: new tables all go to partition 0
        await after.ensure_stream()
        read = await after.read(table_id)
        streams = await after.streams()
    finally:
        await nc.close()
    assert [s.batch.events[0].command_id for s in read] == ["c0"]
    assert streams == [("TABLES", "tables.*"), ("TABLES-1", "tables.p1.*"), ("TABLES-2", "tables.p2.*")]


async def test_an_address_naming_a_partition_nobody_made_is_an_unknown_table(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        store = EventStore(nc.jetstream(), partitions=2)
        await store.ensure_stream()
        read = await store.read("p7-nowhere")
    finally:
        await nc.close()
    assert read == []


async def test_the_live_subject_of_a_partitioned_table_is_its_address_alone(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        store = EventStore(nc.jetstream(), partitions=2)
        await store.ensure_stream()
        table_id = _address_in(1, of=2)
        live = await nc.subscribe(subjects.live_table(table_id))
        stored, _ = await store.append(table_id, _batch(0), 0, "c0")
        msg = await live.next_msg(timeout=5)
    finally:
        await nc.close()
    assert msg.data == stored.data and msg.headers and msg.headers["Nats-Sequence"] == str(stored.seq)


async def test_a_reader_of_every_partition_fails_as_soon_as_one_partitions_reader_does(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        store = EventStore(nc.jetstream(), partitions=2)
        await store.ensure_stream()
        table_id = _address_in(1, of=2)
        await store.append(table_id, _batch(0), 0, "c0")

        async def handle(msgs: list[Msg]) -> None:
            if msgs:
                raise ValueError("a handler that cannot go on")

        config = ConsumerConfig(durable_name="failing", deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.EXPLICIT)
        with pytest.raises(ValueError):  # not after the next look for partitions (30 s): at once
            await asyncio.wait_for(consume_all(nc.jetstream(), store.streams, config, handle, size=10, linger=0,
                                               log=logging.getLogger("test")), timeout=10)
    finally:
        await nc.close()
