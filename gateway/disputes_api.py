"""Disputes over HTTP (docs/disputes.md, docs/protocol.md): "Reportar problema", "Meus relatos" and the staff's desk.

The gateway appends the DISPUTES stream's events itself (``services.disputes.store``), each
with the dispute subject's expected last sequence: no service between, as nothing here needs
one (a report, a look and a close are each one event about one dispute, decided from that
dispute's few events). Who is staff is read from the account's own stream at every staff
request, so a revoked role ends at once. The lists are read from the SQL projection.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from nats.errors import Error as NatsError
from sqlalchemy.exc import SQLAlchemyError

from gateway.accounts_api import ACCOUNTS_KEY
from gateway.http_api import DB_KEY, NATS_KEY, TABLES_KEY, caller, json_body, json_error
from gateway.sessions import session_of
from maumau.v1 import table_pb2
from services.accounts.domain import Account
from services.disputes import desk, domain
from services.disputes.domain import Dispute, Status
from services.disputes.store import DisputeStore
from services.eventlog.store import Conflict
from services.readmodels.disputes import projection as projections
from services.readmodels.rankings import fairplay
from services.record.verify import verify
from services.runtime.refusals import Refused
from services.table.client import send
from services.table.domain import Status as TableStatus
from services.table.store import EventStore

DISPUTES_KEY = web.AppKey("disputes", DisputeStore)
UNREACHABLE = (NatsError, OSError, TimeoutError)
TRIES = 3  # a close that met a look appended meanwhile decides again on the dispute as it is now
_STATUS = {"unknown_dispute": 404, "dispute_closed": 409, "dispute_exists": 409}  # any other refusal: 400


def _refused(e: Refused) -> web.HTTPException:
    return json_error(_STATUS.get(e.code, 400), e.code, str(e))


def _unavailable(what: str) -> web.HTTPException:
    return json_error(503, "unavailable", f"{what} cannot be reached right now; try again")


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise json_error(400, "bad_request", f"{key} is text")
    return value


async def _staff(request: web.Request) -> Account:
    """The staff account making the request (its own stream says so), else 403 ``not_staff``."""
    session = session_of(request)
    if session is None:
        raise json_error(403, "not_staff", "only staff may do this: sign in to a staff account")
    try:
        account = await request.app[ACCOUNTS_KEY].load(session.account_id)
    except UNREACHABLE:
        raise _unavailable("the account") from None
    if not account.staff:
        raise json_error(403, "not_staff", "only staff may do this")
    return account


def _shown(d: Dispute) -> dict[str, Any]:
    return {"dispute_id": d.dispute_id, "table_id": d.table_id, "table_seq": d.table_seq, "match_no": d.match_no,
            "reporter_name": d.reporter_name, "seat": d.seat, "text": d.text, "status": d.status,
            "verdict": d.verdict, "note": d.note, "closed_by": d.closed_by, "annulled": d.annulled,
            "opened_at": _iso(d.opened_at), "closed_at": _iso(d.closed_at) if d.closed_at else None}


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds % 1 * 1000):03d}+00:00"


async def _load(request: web.Request) -> Dispute:
    try:
        d = await request.app[DISPUTES_KEY].load(request.match_info["dispute_id"])
    except UNREACHABLE:
        raise _unavailable("the disputes") from None
    try:
        return domain.existing(d)
    except Refused as e:
        raise _refused(e) from None


async def report(request: web.Request) -> web.Response:
    """"Reportar problema": someone seated at the table (a guest too), or its creator, says what went wrong.

    Watching leaves no record, so anyone could claim to have watched: only a seat or the creation,
    which the table's record holds, lets one report (``403 not_at_table`` otherwise; docs/disputes.md).
    """
    identity, name = caller(request)
    table_id = request.match_info["table_id"]
    body = await json_body(request)
    try:
        t = await request.app[TABLES_KEY].get(table_id)
    except UNREACHABLE:
        raise _unavailable("the table") from None
    if t.status == TableStatus.NONE:
        raise json_error(404, "unknown_table", f"there is no table {table_id!r}")
    seat = t.seat_of(identity)
    if seat < 0 and identity != t.creator:  # a creator watching the bots it seated saw the whole match
        raise json_error(403, "not_at_table", "only someone seated at this table may report a problem with it")
    d = Dispute(uuid.uuid4().hex[:24])
    try:
        opened = domain.report(d, table_id, t.seq, t.match_no, identity, name, seat,
                               _text(body, "text"), now=time.time())
        await request.app[DISPUTES_KEY].append(d.dispute_id, opened, 0, "opened")
    except Refused as e:
        raise _refused(e) from None
    except UNREACHABLE:
        raise _unavailable("the disputes") from None
    return web.json_response({"dispute_id": d.dispute_id, "table_id": table_id, "table_seq": t.seq,
                              "match_no": t.match_no}, status=201)


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
        raise json_error(400, "bad_request", "status is open or closed")
    return web.json_response({"disputes": await _listed(
        request, lambda conn: projections.open_disputes(conn, status=Status(status))),
        "marks": await _listed(request, fairplay.latest)})


async def look(request: web.Request) -> web.Response:
    """A dispute on the staff's desk: the table's record verified, and its steps around the moment, in full.

    The look is recorded first (who, which table, when): nobody sees a table from here unrecorded.
    Staff seated at the table judge none of its disputes (``403 staff_seated``), and past the
    moment they see in full only a table that is over (docs/disputes.md, "What staff see").
    """
    staff = await _staff(request)
    d = await _load(request)
    disputes = request.app[DISPUTES_KEY]
    try:
        t = await request.app[TABLES_KEY].get(d.table_id)
    except UNREACHABLE:
        raise _unavailable("the table") from None
    if t.seat_of(staff.identity) >= 0:
        raise json_error(403, "staff_seated", "staff seated at this table cannot look at its disputes")
    after = desk.AFTER if t.status in (TableStatus.OVER, TableStatus.ENDED) else 0
    try:
        await disputes.append(d.dispute_id, domain.look(d, staff.account_id, staff.name, now=time.time()), None,
                              uuid.uuid4().hex)
        records = await EventStore(request.app[NATS_KEY].jetstream()).read(d.table_id)
        events = await disputes.events(d.dispute_id)
    except UNREACHABLE:
        raise _unavailable("the record") from None
    verdict = await asyncio.to_thread(verify, d.table_id, records)  # the engine re-decides every action
    names = [p.name for p in (await request.app[TABLES_KEY].get(d.table_id, until=d.table_seq)).players]
    looks = [{"name": ev.looked.name, "at": _iso(ev.time.ToNanoseconds() / 1e9)}
             for _, ev in events if ev.WhichOneof("body") == "looked"]
    return web.json_response({"dispute": _shown(d), "players": names, "verification": desk.verification(verdict),
                              "steps": desk.steps(d.table_id, records, d.table_seq, after=after),
                              "looks": looks})


async def staff_looks(request: web.Request) -> web.Response:
    """Every staff look, newest first (at a dispute, or at the replay of a table that is over): who, when, where."""
    await _staff(request)
    return web.json_response({"looks": await _listed(request, projections.recent_looks)})


async def _annul(request: web.Request, staff: Account, d: Dispute) -> None:
    """Annul the disputed match at the table service, the gateway vouching that the actor is staff."""
    if d.match_no < 1:
        raise json_error(409, "no_match", "no match had started when this was reported")
    cmd = table_pb2.TableCommand(command_id=f"annul-{d.dispute_id}", table_id=d.table_id, actor=staff.identity,
                                 actor_name=staff.name, actor_staff=True,
                                 annul=table_pb2.AnnulMatch(match_no=d.match_no, dispute_id=d.dispute_id))
    try:
        reply = await send(request.app[NATS_KEY], cmd)
    except UNREACHABLE:
        raise _unavailable("the table service") from None
    if reply.WhichOneof("result") == "refusal" and reply.refusal.code != "annulled":  # annulled already: so be it
        raise json_error(409, reply.refusal.code, reply.refusal.message)


async def close(request: web.Request) -> web.Response:
    """Close a dispute as dismissed or upheld, with a note the reporter sees; upheld, it may annul the match."""
    staff = await _staff(request)
    body = await json_body(request)
    verdict, note, annul = _text(body, "verdict"), _text(body, "note"), body.get("annul") is True
    d = await _load(request)
    for attempt in range(TRIES):
        try:
            closed = domain.close(d, verdict, note, staff.account_id, staff.name, annulled=annul, now=time.time())
        except Refused as e:
            raise _refused(e) from None
        if annul and attempt == 0:
            await _annul(request, staff, d)
        try:
            seq, _ = await request.app[DISPUTES_KEY].append(d.dispute_id, closed, d.seq, f"closed/{staff.account_id}")
        except Conflict:  # another staff's close, or a look, came first: decide again on the dispute as it is
            d = await _load(request)
            continue
        except UNREACHABLE:
            raise _unavailable("the disputes") from None
        domain.evolve(d, seq, closed)
        return web.json_response({"dispute": _shown(d)})
    raise _unavailable("the dispute (it keeps changing)")


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
        yield

    app.cleanup_ctx.append(disputes_ctx)
    app.add_routes(routes())
