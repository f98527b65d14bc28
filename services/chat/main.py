"""``maumau chat serve``: the chat process (NATS settings from the environment, like every service).

Besides the shared settings (``NATS_URL``, ``MAUMAU_STREAM_REPLICAS``, ``MAUMAU_HEALTH_PORT``):
``MAUMAU_CHAT_MAX_CHARS`` (300) and ``MAUMAU_CHAT_RATE`` (``5/10``: 5 lines per player and
table in any 10 seconds, per replica).
"""

from __future__ import annotations

import logging

from services.chat.service import ChatService
from services.chat.service import Settings as ChatSettings
from services.chat.store import ensure_stream
from services.runtime import tracing
from services.runtime.lifecycle import connect, run_until_stopped, setup_logging
from services.runtime.settings import Settings, parse_rate
from services.table.store import EventStore

log = logging.getLogger("maumau.chat")


def chat_settings(cfg: Settings) -> ChatSettings:
    count, seconds = parse_rate(cfg.chat_rate)
    return ChatSettings(max_chars=cfg.chat_max_chars, rate_count=count, rate_seconds=seconds)


async def serve_chat(cfg: Settings, settings: ChatSettings | None = None) -> None:
    setup_logging("chat", cfg.log_level)
    tracing.setup("chat")
    settings = settings or chat_settings(cfg)
    nc = await connect(cfg.nats_url, "chat")
    js = nc.jetstream()
    await ensure_stream(js, replicas=cfg.stream_replicas)
    tables = EventStore(js, replicas=cfg.stream_replicas, partitions=cfg.stream_partitions)
    await tables.ensure_stream()  # membership is read from it, even before the table service's first start
    service = ChatService(js, tables, settings)
    log.info("chat service answering lines (nats %s, %d characters, %d lines per %g s)", cfg.nats_url,
             settings.max_chars, settings.rate_count, settings.rate_seconds)
    try:
        await run_until_stopped(service.serve(nc), nc, cfg.health_port, service.answering.is_set)
    finally:
        log.info("chat service stopped")
