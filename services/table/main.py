"""``maumau table serve`` and ``maumau projector``: the processes around the table stream.

The projector also writes the accounts' projection: one process owns the SQL projections.
"""

from __future__ import annotations

import asyncio
import logging

from services.accounts.projector import AccountsProjector
from services.accounts.store import AccountStore
from services.disputes.projector import DisputesProjector
from services.disputes.store import DisputeStore
from services.rankings.periods import zone
from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings
from services.table.lobby import announcer
from services.table.projections import engine, migrate
from services.table.projector import Projector, reset
from services.table.rules_client import GrpcRules
from services.table.service import Settings as TableSettings
from services.table.service import TableService
from services.table.store import EventStore

log = logging.getLogger("maumau.table")


async def serve_table(cfg: Settings) -> None:
    setup_logging("table", cfg.log_level)
    tracing.setup("table")
    nc = await connect(cfg.nats_url, "table")
    store = EventStore(nc.jetstream(), replicas=cfg.stream_replicas, partitions=cfg.stream_partitions)
    await store.ensure_stream()
    rules = GrpcRules(cfg.rules_addr)
    service = TableService(store, rules, TableSettings(absence_seconds=cfg.absence_seconds,
                                                       expiry_seconds=cfg.expiry_seconds,
                                                       standin_seconds=cfg.standin_seconds,
                                                       solo_seconds=cfg.solo_seconds),
                           announce=announcer(nc))
    log.info("table service answering commands (nats %s, rules %s)", cfg.nats_url, cfg.rules_addr)
    try:
        await run_until_stopped(service.serve(nc), nc, cfg.health_port, service.answering.is_set)
    finally:
        await rules.close()
        log.info("table service stopped")


async def run_projector(cfg: Settings, rebuild: bool = False) -> None:
    setup_logging("projector", cfg.log_level)
    tracing.setup("projector")
    nc = await connect(cfg.nats_url, "projector")
    js = nc.jetstream()
    await EventStore(js, replicas=cfg.stream_replicas, partitions=cfg.stream_partitions).ensure_stream()
    await AccountStore(js, replicas=cfg.stream_replicas).ensure_stream()
    await DisputeStore(js, replicas=cfg.stream_replicas).ensure_stream()
    db = engine(cfg.database_url)
    await migrate(cfg.database_url)
    if rebuild:
        await reset(db, cfg.database_url, js)
        log.info("projections dropped: rebuilding from the stream")
    log.info("projector running (nats %s, database %s)", cfg.nats_url, db.url.render_as_string(hide_password=True))
    try:
        projector, accounts = Projector(js, db, tz=zone(cfg.time_zone)), AccountsProjector(js, db)
        disputes = DisputesProjector(js, db)  # docs/disputes.md

        async def both() -> None:
            await asyncio.gather(projector.run(), accounts.run(), disputes.run())

        await run_until_stopped(both(), nc, cfg.health_port,
                                lambda: projector.writing and accounts.writing and disputes.writing)
    finally:
        await db.dispose()
        log.info("projector stopped")
