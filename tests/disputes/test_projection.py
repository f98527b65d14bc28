"""The disputes' SQL projection on every database (SQLite always, PostgreSQL when given): written from the
DISPUTES stream, skipped when redelivered, rebuilt the same after the projections are dropped."""

from __future__ import annotations

from typing import Any

import nats
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from services.disputes import domain
from services.disputes.domain import Dispute
from services.disputes.store import STREAM, DisputeStore
from services.readmodels.disputes import projection as projections
from services.readmodels.disputes.projector import DisputesProjector
from services.readmodels.main import reset
from services.runtime.refusals import Refused
from tests.service_task import project_to_end
from tests.table.test_projections import database  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)


async def _rows(db: AsyncEngine) -> list[tuple[Any, ...]]:
    async with db.connect() as conn:
        return sorted(tuple(r) for r in (await conn.execute(select(projections.disputes))).all())


async def test_the_projection_follows_the_stream_and_is_rebuilt(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    url, db = database
    nc = await nats.connect(nats_url)
    try:
        js = nc.jetstream()
        store = DisputeStore(js)
        await store.ensure_stream()
        for n, (who, text) in enumerate([("g-ana", "Ele não tinha o 7!"), ("a-bia", "travou")], 1):
            d = Dispute(f"d{n}")
            await store.append(d.dispute_id, domain.report(d, "t1", 10 * n, 1, who, who[2:], 0, text, now=1e9 + n), 0,
                               "opened")
        d1 = await store.load("d1")
        await store.append("d1", domain.look(d1, "s1", "Sol", now=1e9 + 5), None, "look-1")
        d1 = await store.load("d1")
        await store.append("d1", domain.close(d1, "upheld", "Anulada.", "s1", "Sol", annulled=True, now=1e9 + 6),
                           d1.seq, "closed")
        await project_to_end(DisputesProjector(js, db), js, STREAM)
        async with db.connect() as conn:
            opened = await projections.open_disputes(conn)
            ana = await projections.reported_by(conn, "g-ana")
        live = await _rows(db)
        again = await DisputesProjector(js, db).apply_many(  # redelivered: nothing new
            [(seq, "d1", ev) for seq, ev in await store.events("d1")])
        await reset(db, url, js)
        await project_to_end(DisputesProjector(js, db), js, STREAM)
        rebuilt = await _rows(db)
    finally:
        await nc.close()
    assert [d["dispute_id"] for d in opened] == ["d2"]
    (a,) = ana
    assert (a["status"], a["verdict"], a["note"], a["annulled"], a["looks"], a["table_seq"]) == (
        "closed", "upheld", "Anulada.", True, 1, 10)
    assert again == 0 and live == rebuilt and len(live) == 2


def test_a_dispute_is_closed_once_and_only_as_dismissed_or_upheld() -> None:
    d = Dispute("d1")
    domain.evolve(d, 1, domain.report(d, "t1", 3, 0, "g-a", "Ana", -1, "?", now=0.0))
    codes = []
    for verdict, annul in (("maybe", False), ("dismissed", True)):
        try:
            domain.close(d, verdict, "n", "s", "Sol", annulled=annul, now=1.0)
        except Refused as e:
            codes.append(e.code)
    domain.evolve(d, 2, domain.close(d, "dismissed", "n", "s", "Sol", annulled=False, now=1.0))
    try:
        domain.close(d, "upheld", "n", "s", "Sol", annulled=False, now=2.0)
    except Refused as e:
        codes.append(e.code)
    assert codes == ["bad_verdict", "bad_verdict", "dispute_closed"]
