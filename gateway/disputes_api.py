"""Disputes over HTTP (docs/disputes.md, docs/protocol.md): "Reportar problema", "Meus relatos" and the staff's desk.

What each request does is ``services.disputes.service``'s; here are who asks (a staff account
is read from its own stream at every staff request, so a revoked role ends at once), the
answers' shapes and statuses, and the lists read from the SQL projection.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from nats.errors import Error as NatsError
from sqlalchemy.exc import SQLAlchemyError

from gateway.accounts_api import ACCOUNTS_KEY
from gateway.http_api import DB_KEY, NATS_KEY, TABLES_KEY, caller, json_body, json_error
from gateway.sessions import session_of
from services.accounts.domain import Account
from services.disputes.domain import Dispute, Status
from services.disputes.service import AnnulRefused, Changing, Disputes
from services.disputes.store import DisputeStore
from services.readmodels.disputes import projection as projections
from services.readmodels.rankings import fairplay
from services.runtime.refusals import Code, Refused

DISPUTES_KEY = web.AppKey("disputes", DisputeStore)
SERVICE_KEY = web.AppKey("disputes_service", Disputes)
UNREACHABLE = (NatsError, OSError, TimeoutError)
_STATUS = {"unknown_dispute": 404, "unknown_table": 404, "not_at_table": 403, "staff_seated": 403,
           "dispute_closed": 409, "dispute_exists": 409, "no_match": 409}  # any other refusal: 400


def _refused(e: Refused) -> web.HTTPException:
    return json_error(409 if isinstance(e, AnnulRefused) else _STATUS.get(e.code, 400), e.code, str(e))


def _unavailable(what: str) -> web.HTTPException:
    return json_error(503, Code.UNAVAILABLE, f"{what} cannot be reached right now; try again")


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise json_error(400, Code.BAD_REQUEST, f"{key} is text")
    return value


async def _staff(request: web.Request) -> Account:
    """The staff account making the request (its own stream says so), else 403 ``not_staff``."""
    session = session_of(request)
    if session is None:
        raise json_error(403, Code.NOT_STAFF, "only staff may do this: sign in to a staff account")
    try:
        account = await request.app[ACCOUNTS_KEY].load(session.account_id)
    except UNREACHABLE:
        raise _unavailable("the account") from None
    if not account.staff:
        raise json_error(403, Code.NOT_STAFF, "only staff may do this")
    return account


def _shown(d: Dispute) -> dict[str, Any]:
    return {"dispute_id": d.dispute_id, "table_id": d.table_id, "table_seq": d.table_seq, "match_no": d.match_no,
            "reporter_name": d.reporter_name, "seat": d.seat, "text": d.text, "status": d.status,
            "verdict": d.verdict, "note": d.note, "closed_by": d.closed_by, "annulled": d.annulled,
            "opened_at": _iso(d.opened_at), "closed_at": _iso(d.closed_at) if d.closed_at else None}


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds % 1 * 1000):03d}+00:00"


async def report(request: web.Request) -> web.Response:
    """"Reportar problema": someone seated at the table (a guest too), or its creator, says what went wrong."""
    identity, name = caller(request)
    table_id = request.match_info["table_id"]
    body = await json_body(request)
    try:
        dispute_id, seq, match_no = await request.app[SERVICE_KEY].report(table_id, identity, name,
                                                                          _text(body, "text"))
    except Refused as e:
        raise _refused(e) from None
    except UNREACHABLE:
        raise _unavailable("the disputes") from None
    return web.json_response({"dispute_id": dispute_id, "table_id": table_id, "table_seq": seq,
                              "match_no": match_no}, status=201)


async def _listed(request: web.Request, rows: Any) -> list[dict[str, Any]]:
    try:
        async with request.app[DB_KEY].connect() as conn:
            return list(await rows(conn))
    except (SQLAlchemyError, OSError):
        raise _unavailable("the disputes") from None


async def mine(request: web.Request) -> web.Response:
    """"Meus relatos": what the caller reported, newest first, with the staff's verdict and note."""
    identity, _ = caller(request)
    found = await _listed(request, lambda conn: projections.reported_by(conn, identity))
    for d in found:
        del d["looks"], d["closed_by"]  # the staff's own business
    return web.json_response({"disputes": found})


async def open_disputes(request: web.Request) -> web.Response:
    """The open disputes, newest first; ``?status=closed``: the closed ones. Beside them, the newest
    matches fair play settled for nothing (``marks``: docs/rankings.md), to look at too."""
    await _staff(request)
    status = request.query.get("status", Status.OPEN)
    if status not in (Status.OPEN, Status.CLOSED):
        raise json_error(400, Code.BAD_REQUEST, "status is open or closed")
    return web.json_response({"disputes": await _listed(
        request, lambda conn: projections.open_disputes(conn, status=Status(status))),
        "marks": await _listed(request, fairplay.latest)})


async def look(request: web.Request) -> web.Response:
    """A dispute on the staff's desk (``Disputes.look``): the record verified, the steps around the moment."""
    staff = await _staff(request)
    try:
        desk = await request.app[SERVICE_KEY].look(request.match_info["dispute_id"], staff)
    except Refused as e:
        raise _refused(e) from None
    except UNREACHABLE:
        raise _unavailable("the record") from None
    desk["dispute"] = _shown(desk["dispute"])
    desk["looks"] = [{"name": seen["name"], "at": _iso(seen["at"])} for seen in desk["looks"]]
    return web.json_response(desk)


async def staff_looks(request: web.Request) -> web.Response:
    """Every staff look, newest first (at a dispute, or at the replay of a table that is over): who, when, where."""
    await _staff(request)
    return web.json_response({"looks": await _listed(request, projections.recent_looks)})


async def close(request: web.Request) -> web.Response:
    """Close a dispute as dismissed or upheld, with a note the reporter sees; upheld, it may annul the match."""
    staff = await _staff(request)
    body = await json_body(request)
    verdict, note, annul = _text(body, "verdict"), _text(body, "note"), body.get("annul") is True
    try:
        d = await request.app[SERVICE_KEY].close(request.match_info["dispute_id"], staff, verdict, note, annul)
    except Refused as e:
        raise _refused(e) from None
    except (*UNREACHABLE, Changing):
        raise _unavailable("the disputes") from None
    return web.json_response({"dispute": _shown(d)})


def routes() -> list[web.RouteDef]:
    return [
        web.post("/api/tables/{table_id}/disputes", report, name="report"),  # the name is its rate limit's
        web.get("/api/disputes/mine", mine),
        web.get("/api/staff/disputes", open_disputes),
        web.get("/api/staff/looks", staff_looks),
        web.get("/api/staff/disputes/{dispute_id}", look),
        web.post("/api/staff/disputes/{dispute_id}/close", close),
    ]


def setup(app: web.Application, replicas: int) -> None:
    async def disputes_ctx(app: web.Application) -> AsyncIterator[None]:
        app[DISPUTES_KEY] = store = DisputeStore(app[NATS_KEY].jetstream(), replicas=replicas)
        await store.ensure_stream()
        app[SERVICE_KEY] = Disputes(app[NATS_KEY], store, app[TABLES_KEY])
        yield

    app.cleanup_ctx.append(disputes_ctx)
    app.add_routes(routes())
