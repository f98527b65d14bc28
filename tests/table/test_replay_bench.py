"""``maumau bench replay``'s measured phase: one pass over the stream gives each table exactly its own record."""

from __future__ import annotations

import asyncio

from tests.table.harness import platform
from tests.table.test_record import play
from tools.bench.replay import _read_tables, _verify_tables


async def test_one_pass_over_the_stream_reads_each_table_as_its_own_read_does_and_it_verifies(nats_url: str) -> None:
    async with platform(nats_url) as p:
        ids = [await p.new_table(ruleset=r, seats=3) for r in ("classic32", "candeias", "classic52")]
        await asyncio.gather(*(play(p, tid, 200, seed=k) for k, tid in enumerate(ids)))
        own = {tid: [(s.seq, s.data) for s in await p.store.read(tid)] for tid in ids}
    read = await _read_tables(nats_url, [*ids, "absent"])
    assert read == {**own, "absent": []}
    ok, events = _verify_tables([(tid, read[tid]) for tid in ids])
    assert ok and events >= 3 * 200
    dropped = read[ids[0]][:3] + read[ids[0]][4:]  # a batch missing: that table does not verify
    assert _verify_tables([(ids[0], dropped), (ids[1], read[ids[1]])])[0] is False
