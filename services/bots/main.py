"""``maumau bots serve``."""

from __future__ import annotations

import logging

from services.bots.service import BotSettings, BotsService
from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings
from services.table.store import EventStore

log = logging.getLogger("maumau.bots")


async def serve_bots(cfg: Settings) -> None:
    setup_logging("bots", cfg.log_level)
    tracing.setup("bots")
    nc = await connect(cfg.nats_url, "bots")
    await EventStore(nc.jetstream(), replicas=cfg.stream_replicas, partitions=cfg.stream_partitions).ensure_stream()
    settings = BotSettings(think_seconds=cfg.bot_think_seconds, budget_ms=cfg.bot_budget_ms)
    log.info("bots playing (nats %s, think %.1f s, search %.0f ms)", cfg.nats_url, settings.think_seconds,
             settings.budget_ms)
    try:
        await run_until_stopped(BotsService(nc, settings).run(), nc, cfg.health_port)
    finally:
        log.info("bots stopped")
