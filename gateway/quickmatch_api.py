"""Play with strangers over HTTP: the open tables, and the quick match ("Jogar agora") (docs/matchmaking.md).

``GET /api/open-tables``; ``POST /api/quick-match`` ``{"ruleset","seats","turn_seconds"}`` →
``{"ticket","status","table_id"}``; ``GET /api/quick-match/{ticket}[?wait=S]`` (a long poll) and
``DELETE /api/quick-match/{ticket}``. The pools
live in a key-value bucket every replica shares (``services/matchmaking/store.py``). The replica
whose request fills a pool creates the table, full and started; any replica asked about a
matched ticket whose table does not exist yet creates it too (the same command id: stored once),
so a replica that dies between the two loses nobody.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from nats.errors import Error as NatsError
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from gateway.http_api import DB_KEY, NATS_KEY, TABLES_KEY, caller, json_body, json_error
from gateway.sessions import session_of
from maumau.v1 import table_pb2
from services.matchmaking.pool import Group
from services.matchmaking.store import Busy, Matchmaking, pool_key
from services.rules.rulesets import OptionError, make_ruleset
from services.rules.wire import option_to_pb
from services.runtime.settings import Settings
from services.table.client import send
from services.table.domain import Status
from services.table.lobby import entry
from services.table.projections import directory

MATCHMAKING_KEY = web.AppKey("matchmaking", Matchmaking)
TURN_SECONDS = (0, 15, 30, 60, 120)  # the speeds offered: 0 is no turn timer
MAX_WAIT = 10  # seconds a long poll may wait: the ticket must be asked about within SEEN_SECONDS
OPEN_LISTED = 100
UNREACHABLE = (NatsError, OSError, TimeoutError)


def _whole(body: dict[str, Any], name: str, default: int) -> int:
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise json_error(400, "bad_options", f"{name} is a whole number")
    return value


async def post_quick_match(request: web.Request) -> web.Response:
    identity, name = caller(request)
    body = await json_body(request)
    ruleset, seats = str(body.get("ruleset", "")), _whole(body, "seats", 2)
    turn = _whole(body, "turn_seconds", 0)
    try:
        make_ruleset(ruleset, {}).check_seats(seats)
    except OptionError as e:
        raise json_error(400, "bad_options", str(e)) from None
    if turn not in TURN_SECONDS:
        raise json_error(400, "bad_options", f"turn_seconds is one of {TURN_SECONDS} (0: no timer)")
    try:
        ticket, state, table_id, group = await request.app[MATCHMAKING_KEY].ask(
            pool_key(ruleset, seats, turn), seats, identity, name, session_of(request) is not None, time.time())
        if group is not None:
            await _create(request, group)
    except (Busy, *UNREACHABLE):
        raise json_error(503, "unavailable", "the quick match did not answer; try again") from None
    return web.json_response({"ticket": ticket, "status": state, "table_id": table_id or None}, status=201)


async def get_quick_match(request: web.Request) -> web.Response:
    """Where a ticket is; with ``?wait=S`` (at most ``MAX_WAIT``), once it is no longer waiting or S seconds passed."""
    raw = request.query.get("wait", "0")
    if not raw.isdigit() or int(raw) > MAX_WAIT:
        raise json_error(400, "bad_request", f"wait is a whole number of seconds, at most {MAX_WAIT}")
    try:
        state, table_id, group = await request.app[MATCHMAKING_KEY].wait(request.match_info["ticket"], int(raw))
        if group is not None and (await request.app[TABLES_KEY].get(table_id)).status == Status.NONE:
            await _create(request, group)
    except UNREACHABLE:
        raise json_error(503, "unavailable", "the quick match did not answer; try again") from None
    return web.json_response({"status": state, "table_id": table_id or None})


async def delete_quick_match(request: web.Request) -> web.Response:
    try:
        state, table_id = await request.app[MATCHMAKING_KEY].cancel(request.match_info["ticket"])
    except (Busy, *UNREACHABLE):
        raise json_error(503, "unavailable", "the quick match did not answer; try again") from None
    return web.json_response({"status": state, "table_id": table_id or None})


async def _create(request: web.Request, group: Group) -> None:
    """The group's table, full and started (a table that exists already is left as it is)."""
    ruleset, seats, turn = group.tickets[0].ticket.rsplit(".", 1)[0].split("-")
    first, *others = group.tickets
    create = table_pb2.CreateTable(ruleset=ruleset, seats=int(seats), start=True, salt=secrets.token_hex(16),
                                   seated=[table_pb2.Player(identity=t.identity, name=t.name, account=t.account)
                                           for t in others])
    if int(turn):
        create.options["turn_seconds"].CopyFrom(option_to_pb(int(turn)))
    cmd = table_pb2.TableCommand(command_id=f"quick-{group.table_id}", table_id=group.table_id, actor=first.identity,
                                 actor_name=first.name, actor_account=first.account, create=create)
    reply = await send(request.app[NATS_KEY], cmd)
    if reply.WhichOneof("result") == "refusal" and reply.refusal.code != "table_exists":
        raise json_error(409, reply.refusal.code, reply.refusal.message)


async def open_tables(request: web.Request) -> web.Response:
    """The open tables waiting for players, newest first."""
    query = (select(directory).where(directory.c.open.is_(True), directory.c.status == Status.LOBBY)
             .order_by(directory.c.created_at.desc()).limit(OPEN_LISTED))
    try:
        async with request.app[DB_KEY].connect() as conn:
            rows = (await conn.execute(query)).all()
    except (SQLAlchemyError, OSError):
        raise json_error(503, "unavailable", "the open tables cannot be listed right now; try again") from None
    return web.json_response({"tables": [
        entry(r.table_id, r.ruleset, r.options, r.capacity, [(p["name"], p["bot"]) for p in r.players], r.status)
        | {"created_at": r.created_at.isoformat()} for r in rows if len(r.players) < r.capacity]})


def setup(app: web.Application, cfg: Settings) -> None:
    async def matchmaking_ctx(app: web.Application) -> AsyncIterator[None]:
        app[MATCHMAKING_KEY] = matchmaking = await Matchmaking.open(app[NATS_KEY].jetstream(), cfg.stream_replicas)
        try:
            yield
        finally:
            await matchmaking.close()

    app.cleanup_ctx.append(matchmaking_ctx)
    app.add_routes([web.get("/api/open-tables", open_tables),
                    web.post("/api/quick-match", post_quick_match, name="quick_match"),
                    web.get("/api/quick-match/{ticket}", get_quick_match),
                    web.delete("/api/quick-match/{ticket}", delete_quick_match)])
