"""``maumau projector``: the one process that owns the SQL read models, their migrations and their rebuild.

``READ_MODELS`` is the list it runs: a new read model is one module (its stream's consumer, its
handlers, its ``migrations/`` folder named in ``schema.VERSIONS``) and one line here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from nats.js import JetStreamContext
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from services.accounts.store import AccountStore
from services.disputes.store import DisputeStore
from services.eventlog.sql import engine, metadata
from services.readmodels.accounts.projector import AccountsProjector
from services.readmodels.disputes.projector import DisputesProjector
from services.readmodels.rankings.periods import zone
from services.readmodels.schema import migrate
from services.readmodels.tables.projector import Projector
from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings
from services.table.store import EventStore

log = logging.getLogger("maumau.projector")


class ReadModel(Protocol):
    writing: bool  # its last transaction went through: readiness says so

    async def run(self) -> None: ...
    async def consumers(self) -> list[tuple[str, str]]: ...  # (stream, durable consumer): dropped by a rebuild


Make = Callable[[JetStreamContext, AsyncEngine, Settings], ReadModel]

READ_MODELS: list[Make] = [
    lambda js, db, cfg: Projector(js, db, tz=zone(cfg.time_zone)),  # tables' directory and the rankings
    lambda js, db, cfg: AccountsProjector(js, db),  # docs/accounts.md
    lambda js, db, cfg: DisputesProjector(js, db),  # docs/disputes.md
]


async def ensure_streams(js: JetStreamContext, cfg: Settings) -> None:
    """The streams the read models follow, made here too: the projector may start before their writers."""
    await EventStore(js, replicas=cfg.stream_replicas, partitions=cfg.stream_partitions).ensure_stream()
    await AccountStore(js, replicas=cfg.stream_replicas).ensure_stream()
    await DisputeStore(js, replicas=cfg.stream_replicas).ensure_stream()


async def reset(db: AsyncEngine, url: str, js: JetStreamContext, cfg: Settings | None = None) -> None:
    """Drop every read model and its consumers: the next run rebuilds them from the streams."""
    async with db.begin() as conn:
        await conn.run_sync(lambda c: metadata.drop_all(c, checkfirst=True))  # every projection: all are rebuilt
        await conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    made = [make(js, db, cfg or Settings.from_env()) for make in READ_MODELS]
    for model in made:
        for stream, durable in await model.consumers():
            try:
                await js.delete_consumer(stream, durable)
            except Exception as e:
                log.info("no consumer to delete: %s", e)
    await migrate(url)


async def run_projector(cfg: Settings, rebuild: bool = False) -> None:
    setup_logging("projector", cfg.log_level)
    tracing.setup("projector")
    nc = await connect(cfg.nats_url, "projector")
    js = nc.jetstream()
    await ensure_streams(js, cfg)
    db = engine(cfg.database_url)
    await migrate(cfg.database_url)
    if rebuild:
        await reset(db, cfg.database_url, js, cfg)
        log.info("projections dropped: rebuilding from the stream")
    log.info("projector running (nats %s, database %s)", cfg.nats_url, db.url.render_as_string(hide_password=True))
    try:
        models = [make(js, db, cfg) for make in READ_MODELS]

        async def every() -> None:
            await asyncio.gather(*(model.run() for model in models))

        await run_until_stopped(every(), nc, cfg.health_port, lambda: all(model.writing for model in models))
    finally:
        await db.dispose()
        log.info("projector stopped")


