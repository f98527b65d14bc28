"""``maumau accounts serve``: the accounts process.

Its settings are the shared ones: ``NATS_URL``, ``MAUMAU_STREAM_REPLICAS``, ``MAUMAU_HEALTH_PORT``.
"""

from __future__ import annotations

import logging

from services.accounts.service import AccountsService
from services.accounts.store import AccountStore
from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings

log = logging.getLogger("maumau.accounts")


async def serve_accounts(cfg: Settings) -> None:
    setup_logging("accounts", cfg.log_level)
    tracing.setup("accounts")
    nc = await connect(cfg.nats_url, "accounts")
    store = AccountStore(nc.jetstream(), replicas=cfg.stream_replicas)
    await store.ensure_stream()
    service = AccountsService(store=store)
    log.info("accounts service answering requests (nats %s)", cfg.nats_url)
    try:
        await run_until_stopped(service.serve(nc), nc, cfg.health_port, service.answering.is_set)
    finally:
        log.info("accounts service stopped")
