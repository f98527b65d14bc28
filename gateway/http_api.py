"""The HTTP API: sessions, tables, invitations, my tables (see docs/protocol.md)."""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo

from aiohttp import web
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.addresses import client_address, group
from gateway.cached import Cached
from gateway.identity import clean_name, identity_of, new_token
from gateway.sessions import session_of
from gateway.stakes import vouch
from maumau.v1 import table_pb2
from services.readmodels.tables.projection import directory, seats
from services.rules.catalog import catalog
from services.rules.wire import option_to_pb
from services.runtime import subjects
from services.runtime.refusals import Code
from services.runtime.signing import load_key, public_pem
from services.table.client import deliver
from services.table.domain import Status
from services.table.repository import Tables

NATS_KEY = web.AppKey("nats", NATS)
DB_KEY = web.AppKey("db", AsyncEngine)
TABLES_KEY: web.AppKey[Tables] = web.AppKey("tables")
SIGNING_KEY = web.AppKey("signing_key", str)  # the path of the key that signs exports
PROXIES_KEY = web.AppKey("trusted_proxies", int)
PARTITIONS_KEY = web.AppKey("stream_partitions", int)  # the streams new tables spread over (docs/scaling.md)
ZONE_KEY = web.AppKey("time_zone", ZoneInfo)  # the platform's days: rankings' periods, chips' top-ups


def json_error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> web.HTTPException:
    cls = {400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden, 404: web.HTTPNotFound,
           409: web.HTTPConflict, 429: web.HTTPTooManyRequests, 503: web.HTTPServiceUnavailable}[status]
    return cls(text=json.dumps({"error": {"code": code, "message": message}}), content_type="application/json",
               headers=headers)


def bearer(request: web.Request) -> str:
    """The device token of ``Authorization: Bearer``, or ``""``."""
    auth = request.headers.get("Authorization", "")
    return auth.removeprefix("Bearer ").strip() if auth.startswith("Bearer ") else ""


def identity_or_401(token: str) -> str:
    try:
        return identity_of(token)
    except ValueError:
        raise json_error(401, Code.NO_SESSION, "start a session first (POST /api/session)") from None


def caller(request: web.Request) -> tuple[str, str]:
    """(identity, name) of the request's account session, else of its device token (only ever in a header)."""
    if "token" in request.query:  # URLs end up in proxies' logs and browsers' histories
        raise json_error(401, Code.TOKEN_IN_URL, "send the token as Authorization: Bearer, never in the URL")
    session = session_of(request)
    if session is not None:
        return session.identity, session.name
    return identity_or_401(bearer(request)), clean_name(unquote(request.headers.get("X-Player-Name", "")), "Jogador")


async def json_body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise json_error(400, Code.BAD_REQUEST, "the body is a JSON object") from None
    if not isinstance(body, dict):
        raise json_error(400, Code.BAD_REQUEST, "the body is a JSON object")
    return body


async def _command(request: web.Request, table_id: str, seating: tuple[str, int] | None = None,
                   **command: Any) -> table_pb2.Done:
    """Send a table command; ``seating``: the (salt, stake) of the table the caller takes a seat at."""
    identity, name = caller(request)
    cmd = table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id=table_id, actor=identity, actor_name=name,
                                 **command)
    try:
        if seating is not None:
            address = group(client_address(request, request.app[PROXIES_KEY]))
            await vouch(cmd, session_of(request) is not None, address, *seating, request.app[DB_KEY],
                        request.app[ZONE_KEY], request.app[NATS_KEY].jetstream())
    except (SQLAlchemyError, OSError):
        raise json_error(503, Code.UNAVAILABLE, "your chips cannot be read right now; try again") from None
    try:
        reply = await deliver(request.app[NATS_KEY], cmd)  # sent again through a stream's election
    except (NatsError, OSError, TimeoutError):
        raise json_error(503, Code.UNAVAILABLE, "the table service did not answer; try again") from None
    if reply.WhichOneof("result") == "refusal":
        status = 404 if reply.refusal.code == Code.UNKNOWN_TABLE else 409
        raise json_error(status, reply.refusal.code, reply.refusal.message)
    return reply.done


async def post_session(request: web.Request) -> web.Response:
    body = await json_body(request)
    token = new_token()
    return web.json_response({"token": token, "identity": identity_of(token),
                              "name": clean_name(body.get("name"), "Jogador")})


async def patch_session(request: web.Request) -> web.Response:
    """A rename: names travel with every request, so this only checks the token and cleans the name."""
    identity, _ = caller(request)
    body = await json_body(request)
    return web.json_response({"identity": identity, "name": clean_name(body.get("name"), "Jogador")})


async def create_table(request: web.Request) -> web.Response:
    body = await json_body(request)
    create = table_pb2.CreateTable(ruleset=str(body.get("ruleset", "")), watch=bool(body.get("watch", False)),
                                   open=body.get("open") is True)
    seats_wanted = body.get("seats", 0)
    if not isinstance(seats_wanted, int) or isinstance(seats_wanted, bool):
        raise json_error(400, Code.BAD_OPTIONS, "seats is a whole number")
    create.seats = seats_wanted
    stake = body.get("stake", 0)
    if not isinstance(stake, int) or isinstance(stake, bool) or stake < 0:
        raise json_error(400, Code.BAD_OPTIONS, "stake is a whole number of chips (0: not competitive)")
    create.stake, create.salt = stake, secrets.token_hex(16)
    options = body.get("options") or {}
    if not isinstance(options, dict) or not all(isinstance(v, bool | int | str) for v in options.values()):
        raise json_error(400, Code.BAD_OPTIONS, "options are flags, numbers or words")
    for key, value in options.items():
        create.options[str(key)].CopyFrom(option_to_pb(value))
    table_id = subjects.table_address(uuid.uuid4().hex[:12], request.app[PARTITIONS_KEY])
    done = await _command(request, table_id, (create.salt, stake), create=create)
    return web.json_response({"table_id": table_id, "invitation": done.invitation,
                              "link": f"/m/{table_id}?c={done.invitation}"}, status=201)


async def get_table(request: web.Request) -> web.Response:
    table_id = request.match_info["table_id"]
    t = await request.app[TABLES_KEY].get(table_id)
    if t.status == Status.NONE:
        raise json_error(404, Code.UNKNOWN_TABLE, f"there is no table {table_id!r}")
    return web.json_response({"table_id": table_id, "ruleset": t.ruleset, "options": t.options, "seats": t.capacity,
                              "stake": t.stake, "status": t.status,
                              "players": [{"name": p.name, "bot": p.bot} for p in t.players],
                              "match_no": t.match_no, "winners": t.winners, "end_reason": t.end_reason})


async def join_table(request: web.Request) -> web.Response:
    body = await json_body(request)
    t = await request.app[TABLES_KEY].get(request.match_info["table_id"])
    done = await _command(request, request.match_info["table_id"], (t.salt, t.stake),
                          join=table_pb2.JoinTable(invitation=str(body.get("invitation", ""))))
    return web.json_response({"seat": done.seat})


async def fill_bots(request: web.Request) -> web.Response:
    body = await json_body(request)
    await _command(request, request.match_info["table_id"],
                   fill_bots=table_pb2.FillBots(level=str(body.get("level", ""))))
    return web.json_response({"ok": True})


async def start(request: web.Request) -> web.Response:
    await _command(request, request.match_info["table_id"], start=table_pb2.StartMatch())
    return web.json_response({"ok": True})


async def my_tables(request: web.Request) -> web.Response:
    identity, _ = caller(request)
    query = (select(directory.c.table_id, directory.c.ruleset, directory.c.status, directory.c.on_turn,
                    directory.c.last_move_at, seats.c.seat)
             .join(seats, seats.c.table_id == directory.c.table_id)
             .where(seats.c.identity == identity).order_by(directory.c.last_move_at.desc()).limit(100))
    try:
        async with request.app[DB_KEY].connect() as conn:
            rows = (await conn.execute(query)).all()
    except (SQLAlchemyError, OSError):
        raise json_error(503, Code.UNAVAILABLE, "your tables cannot be listed right now; try again") from None
    return web.json_response({"tables": [
        {"table_id": r.table_id, "ruleset": r.ruleset, "status": r.status, "seat": r.seat, "on_turn": r.on_turn,
         "my_turn": r.on_turn == r.seat, "last_move_at": r.last_move_at.isoformat()} for r in rows]})


@functools.cache
def _rulesets_body() -> Cached:
    """The catalog's JSON, gzipped too, and its ETag: computed once per process (``warm_rulesets``)."""
    return Cached.of(json.dumps(catalog(), ensure_ascii=False, separators=(",", ":")).encode())


async def warm_rulesets(app: web.Application) -> None:
    """The catalog is worked out (half a second) as the gateway starts, not while the first player waits."""
    await asyncio.to_thread(_rulesets_body)


async def get_rulesets(request: web.Request) -> web.Response:
    """The rulesets as the rules engine has them: the same bytes for everyone, so caches may keep them."""
    return _rulesets_body().send(request, "application/json", "public, max-age=300")


@functools.cache
def _public_pem(path: str) -> bytes:
    return public_pem(load_key(Path(path)))


async def get_signing_key(request: web.Request) -> web.Response:
    """The public half of the key that signs exports (``maumau export``): ``maumau verify --public-key``."""
    try:
        pem = _public_pem(request.app[SIGNING_KEY])
    except (OSError, ValueError):
        raise json_error(404, Code.NO_SIGNING_KEY, "this platform has no signing key") from None
    return web.Response(body=pem, content_type="application/x-pem-file")


def routes() -> list[web.RouteDef]:
    return [
        # the routes' names are their rate limits' (gateway/ratelimit.py)
        web.post("/api/session", post_session, name="new_session"),
        web.patch("/api/session", patch_session),
        web.post("/api/tables", create_table, name="new_table"),
        web.get("/api/tables/{table_id}", get_table),
        web.post("/api/tables/{table_id}/join", join_table, name="join"),
        web.post("/api/tables/{table_id}/bots", fill_bots, name="bots"),
        web.post("/api/tables/{table_id}/start", start, name="start"),
        web.get("/api/my-tables", my_tables),
        web.get("/api/rulesets", get_rulesets),
        web.get("/api/signing-key", get_signing_key),
    ]
