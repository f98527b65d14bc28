"""``maumau gateway serve``: the aiohttp application (HTTP API, WebSocket, the web client's files)."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable
from urllib.parse import unquote, urlsplit

from aiohttp import web
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.kv import KeyValue

from gateway import (
    accounts_api,
    client_files,
    disputes_api,
    headers,
    learn,
    quickmatch_api,
    rankings_api,
    ratelimit,
    replay_api,
    request_spans,
)
from gateway.accounts_api import SESSIONS_KEY
from gateway.addresses import client_address, group
from gateway.feeds import Feeds, following
from gateway.http_api import (
    DB_KEY,
    NATS_KEY,
    PARTITIONS_KEY,
    PROXIES_KEY,
    SIGNING_KEY,
    TABLES_KEY,
    ZONE_KEY,
    bearer,
    identity_or_401,
    routes,
    warm_rulesets,
)
from gateway.identity import clean_name
from gateway.openlist import OpenTables
from gateway.quickmatch_api import QUICK_KEY
from gateway.revocation import SessionCheck, follow
from gateway.sessions import COOKIE, GUEST_COOKIE, session_of
from gateway.ws import Sockets, serve_socket
from services.chat.store import ensure_stream as ensure_chat_stream
from services.clock.presence import bucket as presence_bucket
from services.eventlog.sql import engine
from services.readmodels.rankings.periods import zone
from services.runtime import tracing
from services.runtime.lifecycle import connect, nats_answers, setup_logging, start_health
from services.runtime.settings import Settings
from services.table.repository import tables
from services.table.store import EventStore

log = logging.getLogger("maumau.gateway")
STATIC = client_files.STATIC
FEEDS_KEY = web.AppKey("feeds", Feeds)
TABLES_CACHED = 1_000  # tables the HTTP API looked at lately
ORIGINS_KEY = web.AppKey("origins", frozenset[str])
SOCKETS_KEY = web.AppKey("sockets", Sockets)
OPEN_TABLES_KEY = web.AppKey("open_tables", OpenTables)  # the lobby's live list (gateway/openlist.py)
REVOCATIONS_KEY = web.AppKey("revocations", JetStreamContext.PushSubscription)  # the watch of ended sessions
PRESENCE_KEY = web.AppKey("presence", KeyValue)  # where sockets mark the seats they hold (gateway/presence.py)


_QUERY = re.compile(r"\?[^\s'\"]*|token=[^\s&'\"]*")


def origin_of(url: str) -> str:
    """The origin of a URL as browsers send it in ``Origin``.

    >>> origin_of("HTTPS://MauMau.example:443/jogar"), origin_of("http://[::1]:8080")
    ('https://maumau.example', 'http://[::1]:8080')
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port not in (None, default) else "")


def allowed_origins(public_urls: Iterable[str], port: int) -> frozenset[str]:
    """The pages that may open a WebSocket: the public URLs', else this machine's on ``port``.

    Never the request's own Host: a DNS-rebinding page sends Origin and Host of its own name.
    """
    origins = frozenset(origin_of(url) for url in public_urls)
    return origins or frozenset({f"http://localhost:{port}", f"http://127.0.0.1:{port}"})


def _origin_ok(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser: tools and tests
    try:
        return origin_of(origin) in request.app[ORIGINS_KEY]
    except ValueError:
        return False  # "null": a sandboxed frame or a file


class RedactQueries(logging.Filter):
    """Takes query strings (a WebSocket URL carries its token) out of a record, traceback included.

    aiohttp logs a request line too long to parse with the line in the exception's text.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        record.msg, record.args = record.getMessage(), None
        for key, value in list(vars(record).items()):
            if isinstance(value, str):
                setattr(record, key, _QUERY.sub("?<redacted>", value))
        return True


REDACT = RedactQueries()


def redact_aiohttp_logs() -> None:
    """Filter the records of every aiohttp logger (a logger's filters do not see its children's)."""
    for name in ("access", "client", "internal", "server", "web", "websocket"):
        logging.getLogger(f"aiohttp.{name}").addFilter(REDACT)  # once: addFilter skips a known filter


async def websocket(request: web.Request) -> web.StreamResponse:
    if not _origin_ok(request):
        raise web.HTTPForbidden(text="origin not allowed")
    session = session_of(request)  # an account's cookie, else a guest's token
    check = None
    if session is not None:
        identity, name = session.identity, session.name
        check = SessionCheck(request.app[SESSIONS_KEY], request.cookies.get(COOKIE, ""))
    else:  # a guest's cookie (browsers set no header on a WebSocket), or a tool's Authorization header
        identity = identity_or_401(bearer(request) or request.cookies.get(GUEST_COOKIE, ""))
        name = clean_name(request.query.get("name") or unquote(request.headers.get("X-Player-Name", "")), "Jogador")
    address = group(client_address(request, request.app[PROXIES_KEY]))
    return await serve_socket(request, identity, name, request.app[FEEDS_KEY],
                              request.app[NATS_KEY], request.app[SOCKETS_KEY], address, check,
                              request.app[PRESENCE_KEY], request.app[OPEN_TABLES_KEY], request.app[QUICK_KEY])


async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


async def readyz(request: web.Request) -> web.Response:
    ready = await nats_answers(request.app[NATS_KEY])
    return web.json_response({"ready": ready}, status=200 if ready else 503)


def make_app(cfg: Settings, origins: frozenset[str]) -> web.Application:
    """The gateway; ``origins``: those of ``allowed_origins``."""
    redact_aiohttp_logs()
    app = web.Application(client_max_size=64 * 1024, middlewares=[request_spans.middleware()])
    app[SOCKETS_KEY] = Sockets(cfg.socket_limits)
    app[PROXIES_KEY] = cfg.trusted_proxies
    app[PARTITIONS_KEY] = cfg.stream_partitions
    app[ZONE_KEY] = zone(cfg.time_zone)
    app[ORIGINS_KEY] = origins
    app[SIGNING_KEY] = cfg.signing_key
    headers.install(app, origins)

    async def nats_ctx(app: web.Application) -> AsyncIterator[None]:
        nc = await connect(cfg.nats_url, "gateway")
        await EventStore(nc.jetstream(), cfg.stream_replicas, partitions=cfg.stream_partitions).ensure_stream()
        await ensure_chat_stream(nc.jetstream(), replicas=cfg.stream_replicas)
        app[NATS_KEY] = nc
        app[FEEDS_KEY] = feeds = Feeds(nc)
        app[PRESENCE_KEY] = await presence_bucket(nc.jetstream(), cfg.stream_replicas)
        app[OPEN_TABLES_KEY] = open_tables = OpenTables()
        await open_tables.follow(nc)
        app[TABLES_KEY] = tables(EventStore(nc.jetstream()), TABLES_CACHED)
        try:
            async with following(feeds):
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

    async def revocations_ctx(app: web.Application) -> AsyncIterator[None]:
        """Sockets of a session ended on any replica close here too (gateway/revocation.py)."""
        app[REVOCATIONS_KEY] = subscription = await follow(app[NATS_KEY].jetstream(), app[SOCKETS_KEY].end_session)
        try:
            yield
        finally:
            with contextlib.suppress(NatsError):
                await subscription.unsubscribe()

    async def close_sockets(app: web.Application) -> None:
        await app[SOCKETS_KEY].close_all()  # else shutdown waits on every open socket's handler

    async def health_port_ctx(app: web.Application) -> AsyncIterator[None]:
        """``MAUMAU_HEALTH_PORT``: /metrics (and the probes) on a port of their own, never the public one."""
        runner = await start_health(cfg.health_port, lambda: nats_answers(app[NATS_KEY]))
        try:
            yield
        finally:
            if runner is not None:
                await runner.cleanup()

    app.on_startup.append(warm_rulesets)
    app.on_shutdown.append(close_sockets)
    app.cleanup_ctx.extend([nats_ctx, db_ctx, health_port_ctx])
    accounts_api.setup(app, cfg, _origin_ok)  # its session middleware first: the rate limits count sessions
    app.cleanup_ctx.append(revocations_ctx)  # after the sessions' bucket is opened
    ratelimit.setup(app, cfg)
    rankings_api.setup(app)
    disputes_api.setup(app, cfg.stream_replicas)  # docs/disputes.md
    # the replay viewer ("Rever partida"): the table's steps as the caller saw them (docs/record.md)
    replay_api.setup(app)
    quickmatch_api.setup(app, cfg)
    app.add_routes([*routes(), web.get("/ws", websocket), web.get("/healthz", healthz), web.get("/readyz", readyz)])
    learn.setup(app)  # the Aprenda pages and the tutorials, made from the learning data
    # the client's screens, each at its own address: "/relatos" is "Meus relatos", "/staff" the staff's
    # desk (the client asks /api/me whether it is staff), "/m/<table>/rever" the replay viewer
    client_files.setup(app, "/m/{table_id}", "/", "/m/{table_id}/rever", "/ranking", "/jogador/{name}",
                       "/staff", "/relatos")
    return app


def serve(cfg: Settings, host: str, port: int) -> None:
    setup_logging("gateway", cfg.log_level)
    tracing.setup("gateway")
    log.info("gateway on http://%s:%d (nats %s)", host, port, cfg.nats_url)
    # no access log: WebSocket URLs carry device tokens, which must not end up in logs
    web.run_app(make_app(cfg, allowed_origins(cfg.public_urls, port)), host=host, port=port, print=None,
                handle_signals=True, shutdown_timeout=5, access_log=None)
