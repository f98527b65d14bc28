"""The event store's reads over a real JetStream: long tables, other tables between, bounds."""

from __future__ import annotations

import nats
import pytest

from maumau.v1 import events_pb2
from services.eventlog.store import Conflict
from services.table.store import EventStore


def _batch(n: int) -> events_pb2.EventBatch:
    return events_pb2.EventBatch(events=[events_pb2.Event(command_id=f"c{n}")])


async def test_a_long_table_is_read_whole_in_order_past_other_tables_messages(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    await store.ensure_stream()
    try:
        last = {"long": 0, "other": 0}
        for n in range(700):
            for table_id in ("long", "other") if n % 3 == 0 else ("long",):
                last[table_id] = (await store.append(table_id, _batch(n), last[table_id], f"c{n}"))[0].seq
        stored = await store.read("long")
    finally:
        await nc.close()
    assert [s.batch.events[0].command_id for s in stored] == [f"c{n}" for n in range(700)]
    assert stored[-1].seq == last["long"]


async def test_a_read_starts_after_a_sequence_and_stops_at_another(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    await store.ensure_stream()
    try:
        seqs = [0]
        for n in range(600):
            seqs.append((await store.append("t", _batch(n), seqs[-1], f"c{n}"))[0].seq)
        middle = await store.read("t", after=seqs[100], until=seqs[500])
        unknown = await store.read("nobody")
    finally:
        await nc.close()
    assert [s.seq for s in middle] == seqs[101:501]
    assert unknown == []


async def test_an_append_expecting_an_older_sequence_is_a_conflict_naming_the_tables_last(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    await store.ensure_stream()
    try:
        first = (await store.append("t", _batch(0), 0, "c0"))[0].seq
        second = (await store.append("t", _batch(1), first, "c1"))[0].seq
        with pytest.raises(Conflict) as conflict:
            await store.append("t", _batch(2), first, "c2")
        leaders = await store.last_seq("t"), await store.last_seq("nobody")
    finally:
        await nc.close()
    assert conflict.value.last == second
    assert leaders == (second, 0)
