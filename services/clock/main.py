"""``maumau clock serve``."""

from __future__ import annotations

import logging

from services.clock.service import ClockService
from services.clock.timers import Durations
from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings
from services.table.store import EventStore

log = logging.getLogger("maumau.clock")


async def serve_clock(cfg: Settings) -> None:
    setup_logging("clock", cfg.log_level)
    tracing.setup("clock")
    nc = await connect(cfg.nats_url, "clock")
    await EventStore(nc.jetstream(), replicas=cfg.stream_replicas, partitions=cfg.stream_partitions).ensure_stream()
    clock = ClockService(nc, Durations(cfg.absence_seconds, cfg.expiry_seconds, cfg.standin_seconds, cfg.solo_seconds),
                         replicas=cfg.stream_replicas)
    log.info("clock running (nats %s)", cfg.nats_url)
    try:
        await run_until_stopped(clock.run(), nc, cfg.health_port)
    finally:
        log.info("clock stopped")
