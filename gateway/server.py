"""``maumau gateway serve``: the aiohttp application (HTTP API, WebSocket, the web client's files)."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import web

from gateway.feeds import Feeds
from gateway.http_api import DB_KEY, NATS_KEY, caller, routes
from gateway.identity import clean_name
from gateway.ws import serve_socket
from services.chat.store import ensure_stream as ensure_chat_stream
from services.runtime import tracing
from services.runtime.lifecycle import connect, setup_logging
from services.runtime.settings import Settings
from services.table.projections import engine
from services.table.store import EventStore

log = logging.getLogger("maumau.gateway")
STATIC = Path(__file__).parent / "static"
FEEDS_KEY = web.AppKey("feeds", Feeds)
ORIGINS_KEY = web.AppKey("origins", frozenset)


def _origin_ok(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser: tools and tests
    return urlsplit(origin).netloc == request.host or origin in request.app[ORIGINS_KEY]


async def websocket(request: web.Request) -> web.StreamResponse:
    if not _origin_ok(request):
        raise web.HTTPForbidden(text="origin not allowed")
    identity, _ = caller(request)
    name = request.query.get("name") or "Jogador"
    return await serve_socket(request, identity, clean_name(name, "Jogador"), request.app[FEEDS_KEY],
                              request.app[NATS_KEY])


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


async def readyz(request: web.Request) -> web.Response:
    ready = request.app[NATS_KEY].is_connected
    return web.json_response({"ready": ready}, status=200 if ready else 503)


def make_app(cfg: Settings) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)
    app[ORIGINS_KEY] = frozenset(o for o in os.environ.get("MAUMAU_ALLOWED_ORIGINS", "").split(",") if o)

    async def nats_ctx(app: web.Application) -> AsyncIterator[None]:
        nc = await connect(cfg.nats_url, "gateway")
        await EventStore(nc.jetstream(), replicas=cfg.stream_replicas).ensure_stream()
        await ensure_chat_stream(nc.jetstream(), replicas=cfg.stream_replicas)
        app[NATS_KEY] = nc
        app[FEEDS_KEY] = Feeds(nc)
        try:
            yield
        finally:
            await nc.close()

    async def db_ctx(app: web.Application) -> AsyncIterator[None]:
        db = engine(cfg.database_url)
        app[DB_KEY] = db
        try:
            yield
        finally:
            await db.dispose()

    app.cleanup_ctx.extend([nats_ctx, db_ctx])
    app.add_routes([*routes(), web.get("/ws", websocket), web.get("/healthz", healthz), web.get("/readyz", readyz),
                    web.get("/", index), web.get("/m/{table_id}", index), web.static("/static", STATIC)])
    return app


def serve(cfg: Settings, host: str, port: int) -> None:
    setup_logging("gateway")
    tracing.setup("gateway")
    log.info("gateway on http://%s:%d (nats %s)", host, port, cfg.nats_url)
    # no access log: WebSocket URLs carry device tokens, which must not end up in logs
    web.run_app(make_app(cfg), host=host, port=port, print=None, handle_signals=True, shutdown_timeout=5,
                access_log=None)
