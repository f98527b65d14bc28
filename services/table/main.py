"""``maumau table serve``: the table service's process."""

from __future__ import annotations

import logging

from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings
from services.table.lobby import announcer
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

