"""``maumau verify --all``'s pass (``services/record/verify_all.py``): a stream pushed once, each table's batches
checked as they come by the process that holds it — what a read and ``verify`` of each table find, table by table."""

from __future__ import annotations

import asyncio

import nats

from services.eventlog.delivered import delivered
from services.record.verify import Verifier, verify
from services.record.verify_all import Verifiers
from services.runtime import subjects
from services.table.store import STREAM, Stored
from tests.table.harness import platform
from tests.table.test_record import play

RULESETS = ("classic32", "candeias", "classic52")


async def _played(nats_url: str) -> dict[str, list[Stored]]:
    async with platform(nats_url) as p:
        ids = [await p.new_table(ruleset=r, seats=3) for r in RULESETS]
        await asyncio.gather(*(play(p, tid, 200, seed=k) for k, tid in enumerate(ids)))
        return {tid: await p.store.read(tid) for tid in ids}


async def test_a_pushed_pass_over_the_stream_gives_each_table_its_own_record_in_order(nats_url: str) -> None:
    own = await _played(nats_url)
    nc = await nats.connect(nats_url)
    try:
        read: dict[str, list[tuple[int, bytes]]] = {}
        async for chunk in delivered(nc, STREAM, subjects.TABLE_EVENTS):
            for m in chunk:
                read.setdefault(subjects.table_of(m.subject), []).append((m.seq, m.data))
    finally:
        await nc.close()
    assert read == {tid: [(s.seq, s.data) for s in stored] for tid, stored in own.items()}


async def test_a_pass_over_a_subject_nothing_was_stored_on_gives_nothing(nats_url: str) -> None:
    await _played(nats_url)
    nc = await nats.connect(nats_url)
    try:
        assert [chunk async for chunk in delivered(nc, STREAM, "tables.nobody")] == []
    finally:
        await nc.close()


async def test_the_workers_verdicts_are_verifys_table_by_table_and_only_of_the_tables_asked(nats_url: str) -> None:
    own = await _played(nats_url)
    asked = list(own)[:2]
    nc = await nats.connect(nats_url)
    try:
        with Verifiers(workers=2) as verifiers:
            verdicts = await verifiers.verify(nc, STREAM, subjects.TABLE_EVENTS, only=set(asked))
            again = await verifiers.verify(nc, STREAM, subjects.TABLE_EVENTS)  # a second pass starts afresh
    finally:
        await nc.close()
    assert verdicts == {tid: verify(tid, own[tid]) for tid in asked}
    assert all(v.ok and v.events >= 200 for v in verdicts.values())
    assert again == {tid: verify(tid, stored) for tid, stored in own.items()}


async def test_a_record_checked_a_batch_at_a_time_is_judged_as_a_whole_one_is(nats_url: str) -> None:
    own = await _played(nats_url)
    tid, stored = next(iter(own.items()))
    dropped = stored[:3] + stored[4:]  # a batch missing: it does not verify, and where is named
    garbled = [*stored[:5], Stored(stored[5].seq, stored[5].batch, b"\x07not a batch"), *stored[6:]]
    for records in (stored, dropped):
        checking = Verifier(tid)
        for s in records:
            checking.add_bytes(s.seq, s.data or b"")
        assert checking.verdict() == verify(tid, records)
    checking = Verifier(tid)
    assert [checking.add_bytes(s.seq, s.data or b"") for s in garbled[:7]] == [True] * 5 + [False, False]
    assert not verify(tid, dropped).ok
    assert checking.verdict().bad == 5 and "cannot be read" in checking.verdict().why
