"""Play with strangers over HTTP: the open tables, and the quick match ("Jogar agora") (docs/matchmaking.md).

``GET /api/open-tables``; ``POST /api/quick-match`` ``{"ruleset","seats","turn_seconds"}`` →
``{"ticket","status","table_id"}``; ``GET /api/quick-match/{ticket}[?wait=S]`` (a long poll) and
``DELETE /api/quick-match/{ticket}``. What each does is ``services.matchmaking.quick``'s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import web
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from gateway.http_api import DB_KEY, NATS_KEY, TABLES_KEY, caller, json_body, json_error
from gateway.sessions import session_of
from services.matchmaking.quick import QuickMatch, Refusal
from services.matchmaking.store import Matchmaking
from services.readmodels.tables.projection import directory
from services.runtime.refusals import Code
from services.runtime.settings import Settings
from services.table.domain import Status
from services.table.lobby import entry

QUICK_KEY: web.AppKey[QuickMatch] = web.AppKey("quick_match")
MAX_WAIT = 10  # seconds a long poll may wait: the ticket must be asked about within SEEN_SECONDS
OPEN_LISTED = 100


def _http(e: Refusal) -> web.HTTPException:
    return json_error(e.status, e.code, str(e))


async def post_quick_match(request: web.Request) -> web.Response:
    identity, name = caller(request)
    body = await json_body(request)
    try:
        answer = await request.app[QUICK_KEY].ask(identity, name, session_of(request) is not None, body)
    except Refusal as e:
        raise _http(e) from None
    return web.json_response(answer, status=201)


async def get_quick_match(request: web.Request) -> web.Response:
    """Where a ticket is; with ``?wait=S`` (at most ``MAX_WAIT``), once it is no longer waiting or S seconds passed."""
    raw = request.query.get("wait", "0")
    if not raw.isdigit() or int(raw) > MAX_WAIT:
        raise json_error(400, Code.BAD_REQUEST, f"wait is a whole number of seconds, at most {MAX_WAIT}")
    try:
        return web.json_response(await request.app[QUICK_KEY].wait(request.match_info["ticket"], int(raw)))
    except Refusal as e:
        raise _http(e) from None


async def delete_quick_match(request: web.Request) -> web.Response:
    identity, _ = caller(request)
    try:
        return web.json_response(await request.app[QUICK_KEY].cancel(request.match_info["ticket"], identity))
    except Refusal as e:
        raise _http(e) from None


async def open_tables(request: web.Request) -> web.Response:
    """The open tables waiting for players, newest first."""
    query = (select(directory).where(directory.c.open.is_(True), directory.c.status == Status.LOBBY)
             .order_by(directory.c.created_at.desc()).limit(OPEN_LISTED))
    try:
        async with request.app[DB_KEY].connect() as conn:
            rows = (await conn.execute(query)).all()
    except (SQLAlchemyError, OSError):
        raise json_error(503, Code.UNAVAILABLE, "the open tables cannot be listed right now; try again") from None
    return web.json_response({"tables": [
        entry(r.table_id, r.ruleset, r.options, r.capacity, [(p["name"], p["bot"]) for p in r.players], r.status)
        | {"created_at": r.created_at.isoformat()} for r in rows if len(r.players) < r.capacity]})


def setup(app: web.Application, cfg: Settings) -> None:
    async def matchmaking_ctx(app: web.Application) -> AsyncIterator[None]:
        pools = await Matchmaking.open(app[NATS_KEY].jetstream(), cfg.stream_replicas,
                                       partitions=cfg.stream_partitions)
        app[QUICK_KEY] = QuickMatch(pools, app[NATS_KEY], app[TABLES_KEY])
        try:
            yield
        finally:
            await pools.close()

    app.cleanup_ctx.append(matchmaking_ctx)
    app.add_routes([web.get("/api/open-tables", open_tables),
                    web.post("/api/quick-match", post_quick_match, name="quick_match"),
                    web.get("/api/quick-match/{ticket}", get_quick_match),
                    web.delete("/api/quick-match/{ticket}", delete_quick_match)])
