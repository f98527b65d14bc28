"""The staff role: granted and revoked by ``maumau staff`` through the accounts service, an event of the
account's stream, projected in the accounts' ``staff`` column (SQLite always, PostgreSQL when given)."""

from __future__ import annotations

import io

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from maumau.v1 import accounts_pb2
from services.accounts.staff import set_staff, staff_command
from services.accounts.store import STREAM
from services.eventlog.direct import read_subject
from services.readmodels.accounts.projection import accounts
from services.readmodels.accounts.projector import AccountsProjector
from services.runtime import subjects
from tests.accounts.harness import accounts_service, code
from tests.service_task import project_to_end
from tests.table.test_projections import database  # noqa: F401  (the fixture: SQLite, and PostgreSQL when given)


async def test_staff_is_granted_and_revoked_by_name(nats_url: str, database: tuple[str, AsyncEngine]) -> None:  # noqa: F811
    _, db = database
    async with accounts_service(nats_url) as s:
        sol = await s.register("Sól")
        await s.register("Ana")
        granted = await set_staff(s.nc, "SOL", True)  # any spelling of the name
        again = await set_staff(s.nc, "sol", True)  # nothing more is stored
        unknown = await set_staff(s.nc, "Ninguém", True)
        stored = await read_subject(s.nc.jetstream(), STREAM, subjects.account_events(sol))
        events = [ev.WhichOneof("body") for m in stored
                  for ev in accounts_pb2.AccountEventBatch.FromString(m.data).events]
        await project_to_end(AccountsProjector(s.nc.jetstream(), db), s.nc.jetstream(), STREAM)
        async with db.connect() as conn:
            projected = {r.name: r.staff for r in (await conn.execute(select(accounts.c.name, accounts.c.staff))).all()}
        out = io.StringIO()
        revoked = await staff_command(nats_url, "Sól", False, out)
        staff_now = (await s.store.load(sol)).staff
    assert granted.account.staff and again.account.staff and code(unknown) == "no_account"
    assert events == ["registered", "staff_changed"]
    assert projected == {"Sól": True, "Ana": False}
    assert revoked == 0 and "no longer staff" in out.getvalue() and not staff_now
