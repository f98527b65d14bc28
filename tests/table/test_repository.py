"""Tables folded by the stream's consumers, batch by batch, as their consumer delivers them."""

from __future__ import annotations

import asyncio

import pytest

from services.eventlog import repository
from services.eventlog.direct import StaleRead
from services.runtime import subjects
from services.table.domain import Table, evolve
from services.table.repository import tables
from services.table.store import stream_of
from tests.table.harness import platform


async def test_a_batch_after_a_redelivered_one_is_folded_on_everything_before_it(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic32", seats=3)
        for _ in range(3):
            await p.play_one(tid)
        stored = await p.store.read(tid)
        folder = tables(p.store)
        for s in stored[:-1]:
            await folder.after(tid, s)
        # the batch before the last comes again (not acknowledged in time), then the last one
        await folder.after(tid, stored[-2])
        await folder.after(tid, stored[-3])
        last = await folder.after(tid, stored[-1], previous=stored[-2].seq)
    whole = Table(tid)
    for s in stored:
        for ev in s.batch.events:
            evolve(whole, s.seq, ev)
    assert last.seq == whole.seq and last.match is not None and whole.match is not None
    assert last.match.hands == whole.match.hands and last.match.discard == whole.match.discard


async def test_a_batch_whose_previous_one_a_read_does_not_hold_yet_is_folded_once_it_does(nats_url: str) -> None:
    # a follower answering a read before it stored the latest batch looks, to the reader, like a batch not yet stored
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic32", seats=3)
        stream = stream_of(subjects.table_partition(tid))
        previous = (await p.store.js.stream_info(stream)).state.last_seq + 1  # the next batch's: not stored yet

        async def store_it_soon() -> None:
            await asyncio.sleep(0.1)
            assert (await p.play_one(tid)).WhichOneof("result") == "done"

        storing = asyncio.create_task(store_it_soon())
        folded = await tables(p.store).before(tid, previous + 1, previous)
        await storing
        truth = await p.table(tid)
    assert folded.seq == previous == truth.seq
    assert folded.match is not None and truth.match is not None and folded.match.hands == truth.match.hands


async def test_a_read_that_never_holds_the_batch_known_to_be_stored_is_a_stale_read(
        nats_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repository, "STALE_PAUSE", 0.001)
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic32", seats=3)
        last = await p.last_seq(tid)
        folder = tables(p.store)
        with pytest.raises(StaleRead, match=f"seq {last + 5} is stored"):
            await folder.before(tid, last + 9, previous=last + 5)
        assert folder.cached(tid) is None  # a table folded short of what is stored is not kept


async def test_a_table_folded_behind_the_stream_is_brought_to_the_leaders_last_batch(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic32", seats=3)
        first = (await p.store.read(tid))[0].seq
        await p.play_one(tid)
        folder = tables(p.store)
        behind = await folder.get(tid, until=first)
        assert await folder.fast_forward_to_leader(behind)
        assert behind.seq == await p.last_seq(tid) > first
        assert not await folder.fast_forward_to_leader(behind)  # nothing more: nothing folded


async def test_a_table_the_leader_has_nothing_of_stays_unknown(nats_url: str) -> None:
    async with platform(nats_url) as p:
        folder = tables(p.store)
        nobody = await folder.get("never-made")
        assert not await folder.fast_forward_to_leader(nobody)
        assert nobody.seq == 0 and nobody.status == "none"
