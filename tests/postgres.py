"""The tests' PostgreSQL: a database of this run's own on the server ``MAUMAU_TEST_DATABASE_URL`` names
(.ci/run sets it), made when the run starts and dropped when it ends.

The tests empty and drop the projections' tables; on one shared database two runs on one machine
(CI beside a developer's, two worktrees) deleted each other's rows and positions mid-test, and a
projector waited for a position another run had just erased.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # no stubs; the driver SQLAlchemy uses too
from sqlalchemy.engine import make_url

VARIABLE = "MAUMAU_TEST_DATABASE_URL"


def _in_a_loop_of_its_own(work: Callable[[], Any]) -> None:
    """Run the coroutine ``work()`` makes to its end, even from a thread whose event loop is running."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(work())
        except BaseException as e:  # raised again in the caller's thread
            failed.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


async def _execute(server: str, statement: str) -> None:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@contextmanager
def own_database(url: str) -> Iterator[str]:
    """A new, empty database on ``url``'s server, named after ``url``'s; its URL (same driver) while it lives."""
    given = make_url(url)
    name = f"{given.database or 'maumau'}_run_{secrets.token_hex(4)}"
    server = given.set(drivername="postgresql").render_as_string(hide_password=False)
    _in_a_loop_of_its_own(lambda: _execute(server, f'CREATE DATABASE "{name}"'))
    try:
        yield given.set(database=name).render_as_string(hide_password=False)
    finally:
        _in_a_loop_of_its_own(lambda: _execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
