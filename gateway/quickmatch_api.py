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

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from gateway.http_api import DB_KEY, NATS_KEY, TABLES_KEY, caller, json_body, json_error
from gateway.sessions import session_of
from maumau.v1 import table_pb2
from services.matchmaking.pool import Group
from services.matchmaking.store import AlreadyWaiting, Busy, Matchmaking, pool_key
from services.readmodels.tables.projection import directory
from services.rules.rulesets import OptionError, make_ruleset
from services.rules.wire import option_to_pb
from services.runtime.settings import Settings
from services.table.client import send
from services.table.domain import Status
from services.table.lobby import entry
from services.table.repository import Tables

QUICK_KEY: web.AppKey[QuickMatch] = web.AppKey("quick_match")
TURN_SECONDS = (0, 15, 30, 60, 120)  # the speeds offered: 0 is no turn timer
MAX_WAIT = 10  # seconds a long poll may wait: the ticket must be asked about within SEEN_SECONDS
OPEN_LISTED = 100
REMEMBERED = 1000  # tables created lately kept in mind (_creation): half a minute of 2,000 players asking
UNREACHABLE = (NatsError, OSError, TimeoutError)


class Refusal(Exception):
    """A quick-match request refused: ``code`` and message as the HTTP API's errors and the socket's acks say."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _whole(body: dict[str, Any], name: str, default: int) -> int:
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refusal(400, "bad_options", f"{name} is a whole number")
    return value


@dataclass
class QuickMatch:
    """The quick match as the HTTP API and the WebSocket both offer it (answers are the HTTP API's bodies)."""

    pools: Matchmaking
    nc: NATS
    tables: Tables
    # the tables this replica creates or created lately: the polls it answers the moment a group forms here
    # wait for that creation instead of reading the table and sending its creation again, one each
    created: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    async def ask(self, identity: str, name: str, account: bool, body: dict[str, Any]) -> dict[str, Any]:
        ruleset, seats = str(body.get("ruleset", "")), _whole(body, "seats", 2)
        turn = _whole(body, "turn_seconds", 0)
        try:
            make_ruleset(ruleset, {}).check_seats(seats)
        except OptionError as e:
            raise Refusal(400, "bad_options", str(e)) from None
        if turn not in TURN_SECONDS:
            raise Refusal(400, "bad_options", f"turn_seconds is one of {TURN_SECONDS} (0: no timer)")
        try:
            ticket, state, table_id, group = await self.pools.ask(pool_key(ruleset, seats, turn), seats, identity, name,
                                                                  account, time.time())
            if group is not None:
                await asyncio.shield(self._creation(group))
        except AlreadyWaiting:
            raise Refusal(409, "already_waiting", "you are waiting for another quick match already (another tab?): "
                          "cancel it first") from None
        except (Busy, *UNREACHABLE):
            raise Refusal(503, "unavailable", "the quick match did not answer; try again") from None
        return {"ticket": ticket, "status": state, "table_id": table_id or None}

    async def wait(self, ticket: str, seconds: float) -> dict[str, Any]:
        try:
            state, table_id, group = await self.pools.wait(ticket, seconds)
            if group is not None and (table_id in self.created
                                      or (await self.tables.get(table_id)).status == Status.NONE):
                await asyncio.shield(self._creation(group))
        except UNREACHABLE:
            raise Refusal(503, "unavailable", "the quick match did not answer; try again") from None
        return {"status": state, "table_id": table_id or None}

    async def cancel(self, ticket: str) -> dict[str, Any]:
        try:
            state, table_id = await self.pools.cancel(ticket)
        except (Busy, *UNREACHABLE):
            raise Refusal(503, "unavailable", "the quick match did not answer; try again") from None
        return {"status": state, "table_id": table_id or None}

    def _creation(self, group: Group) -> asyncio.Task[None]:
        """The creation of the group's table by this replica, begun now or earlier (forgotten if it failed)."""
        task = self.created.get(group.table_id)
        if task is None:
            task = self.created[group.table_id] = asyncio.ensure_future(self._create(group))
            task.add_done_callback(lambda t: t.cancelled() or t.exception() is None
                                   or self.created.pop(group.table_id, None))
            while len(self.created) > REMEMBERED:
                del self.created[next(iter(self.created))]  # the oldest
        return task

    async def _create(self, group: Group) -> None:
        """The group's table, full and started (a table that exists already is left as it is)."""
        ruleset, seats, turn = group.tickets[0].ticket.rsplit(".", 1)[0].split("-")
        first, *others = group.tickets
        create = table_pb2.CreateTable(ruleset=ruleset, seats=int(seats), start=True, salt=secrets.token_hex(16),
                                       seated=[table_pb2.Player(identity=t.identity, name=t.name, account=t.account)
                                               for t in others])
        if int(turn):
            create.options["turn_seconds"].CopyFrom(option_to_pb(int(turn)))
        cmd = table_pb2.TableCommand(command_id=f"quick-{group.table_id}", table_id=group.table_id,
                                     actor=first.identity, actor_name=first.name, actor_account=first.account,
                                     create=create)
        reply = await send(self.nc, cmd)
        if reply.WhichOneof("result") == "refusal" and reply.refusal.code != "table_exists":
            raise Refusal(409, reply.refusal.code, reply.refusal.message)


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
        raise json_error(400, "bad_request", f"wait is a whole number of seconds, at most {MAX_WAIT}")
    try:
        return web.json_response(await request.app[QUICK_KEY].wait(request.match_info["ticket"], int(raw)))
    except Refusal as e:
        raise _http(e) from None


async def delete_quick_match(request: web.Request) -> web.Response:
    try:
        return web.json_response(await request.app[QUICK_KEY].cancel(request.match_info["ticket"]))
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
        raise json_error(503, "unavailable", "the open tables cannot be listed right now; try again") from None
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
