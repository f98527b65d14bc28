"""Tables folded by the stream's consumers, batch by batch, as their consumer delivers them."""

from __future__ import annotations

from services.table.domain import Table, evolve
from services.table.repository import tables
from tests.table.harness import platform


async def test_a_batch_after_a_redelivered_one_is_folded_on_everything_before_it(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic32", seats=3)
        for _ in range(3):
            await p.play_one(tid)
        stored = await p.store.read(tid)
        folder = tables(p.store)
        for s in stored[:-1]:
            await folder.after(tid, s.seq, s.batch)
        # the batch before the last comes again (not acknowledged in time), then the last one
        await folder.after(tid, stored[-2].seq, stored[-2].batch)
        await folder.after(tid, stored[-3].seq, stored[-3].batch)
        last = await folder.after(tid, stored[-1].seq, stored[-1].batch, previous=stored[-2].seq)
    whole = Table(tid)
    for s in stored:
        for ev in s.batch.events:
            evolve(whole, s.seq, ev)
    assert last.seq == whole.seq and last.match is not None and whole.match is not None
    assert last.match.hands == whole.match.hands and last.match.discard == whole.match.discard
