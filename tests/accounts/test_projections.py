"""The accounts' SQL projection on every database (SQLite always, PostgreSQL when given): written from the stream,
skipped when replayed, rebuilt whole after its tables are dropped."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import accounts_pb2
from services.accounts.store import STREAM
from services.readmodels.accounts.projection import accounts
from services.readmodels.accounts.projector import AccountsProjector
from services.readmodels.main import reset
from tests.accounts.harness import Accounts, accounts_service
from tests.service_task import project_to_end
from tests.table.test_projections import database  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)


async def _rows(db: AsyncEngine) -> list[tuple[Any, ...]]:
    async with db.connect() as conn:
        return sorted(tuple(r) for r in (await conn.execute(select(accounts))).all())


async def _project_all(s: Accounts, db: AsyncEngine) -> None:
    await project_to_end(AccountsProjector(s.nc.jetstream(), db), s.nc.jetstream(), STREAM)


async def test_the_projection_follows_the_stream_and_is_rebuilt_after_a_drop(
        nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    url, db = database
    async with db.begin() as conn:  # a shared PostgreSQL may hold an earlier run's rows
        await conn.execute(accounts.delete())
    async with accounts_service(nats_url) as s:
        ana = await s.register("Ana")
        bia = await s.register("Bia", guest="g-42")
        await s.ask(ana, rename=accounts_pb2.Rename(name="Ána Lima"))
        await s.ask(ana, choose_avatar=accounts_pb2.ChooseAvatar(avatar="fox"))
        await _project_all(s, db)
        projected = await _rows(db)
        await reset(db, url, s.nc.jetstream())
        await _project_all(s, db)
        rebuilt = await _rows(db)
    by_id = {r[0]: r for r in projected}
    assert by_id[ana][1:5] == ("Ána Lima", "ana lima", "fox", f"a-{ana}")
    assert by_id[bia][1:5] == ("Bia", "bia", "", "g-42")
    assert rebuilt == projected
