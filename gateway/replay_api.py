"""``GET /api/tables/{id}/replay``: a table's history as the web client's replay viewer steps through it.

The steps are ``services/table/replay.py``'s (``replay.steps``): each stored batch as the
caller saw it then, from the seat they held (a spectator's view while they held none), every
round's hands shown once that round is over, as at the table. Staff (the account's own stream
says so, as for the desk) see every hand from the first move, and every such look is recorded
in the DISPUTES stream (``looked``: who, which table, when) before anything is read: on the
dispute it was opened from (``?relato=<dispute id>``, a dispute about this table), else on the
table's own subject there (``disputes.table-<table id>``, which no dispute's projection row
follows). See docs/protocol.md and docs/record.md.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid

from aiohttp import web

from gateway.accounts_api import ACCOUNTS_KEY
from gateway.disputes_api import DISPUTES_KEY, UNREACHABLE
from gateway.http_api import NATS_KEY, caller, json_error
from gateway.sessions import session_of
from maumau.v1 import disputes_pb2
from services.accounts.domain import Account
from services.table import replay
from services.table.domain import Table
from services.table.store import EventStore


def looks_subject(table_id: str) -> str:
    """The DISPUTES subject's id under which staff replays of a table opened outside any dispute are recorded.

    >>> looks_subject("ab12")
    'table-ab12'
    """
    return f"table-{table_id}"


async def _staff(request: web.Request) -> Account | None:
    """The caller's account when it is staff (read from its own stream), else None: never more than a player sees."""
    session = session_of(request)
    if session is None:
        return None
    try:
        account = await request.app[ACCOUNTS_KEY].load(session.account_id)
    except UNREACHABLE:
        return None  # the role cannot be checked now: the player's view, which shows nothing more
    return account if account.staff else None


async def _record_look(request: web.Request, staff: Account, table_id: str) -> None:
    """A staff replay is a look: appended to the dispute it came from (about this table), else to the table's."""
    disputes = request.app[DISPUTES_KEY]
    subject = looks_subject(table_id)
    relato = request.query.get("relato", "")
    if re.fullmatch(r"[0-9a-f]{24}", relato):  # a dispute's id (disputes_api chooses them)
        d = await disputes.load(relato)
        if d.table_id == table_id:
            subject = relato
    ev = disputes_pb2.DisputeEvent(looked=disputes_pb2.StaffLooked(account_id=staff.account_id, name=staff.name,
                                                                    table_id=table_id))
    ev.time.FromNanoseconds(time.time_ns())
    await disputes.append(subject, ev, None, uuid.uuid4().hex)


async def get_replay(request: web.Request) -> web.Response:
    table_id = request.match_info["table_id"]
    identity, _ = caller(request)
    staff = await _staff(request)
    try:
        if staff is not None:
            await _record_look(request, staff, table_id)  # nobody sees a table in full unrecorded
        records = await EventStore(request.app[NATS_KEY].jetstream()).read(table_id)
    except UNREACHABLE:
        raise json_error(503, "unavailable", "the table's record cannot be read right now; try again") from None
    if not records:
        raise json_error(404, "unknown_table", f"there is no table {table_id!r}")

    def viewer(t: Table) -> replay.Viewer:
        if staff is not None:
            return replay.FULL
        seat = t.seat_of(identity)
        return seat if seat >= 0 else None

    steps = await asyncio.to_thread(replay.steps, table_id, records, viewer, identity)  # folds the whole table
    last = steps[-1]["table_info"]
    response = web.json_response({
        "table_id": table_id, "ruleset": last["ruleset"], "viewer": "staff" if staff is not None else (
            "seat" if last["my_seat"] >= 0 else "spectator"),
        "seat": last["my_seat"] if last["my_seat"] >= 0 else None, "steps": steps})
    response.enable_compression()
    return response


def setup(app: web.Application) -> None:
    app.add_routes([web.get("/api/tables/{table_id}/replay", get_replay, name="replay")])  # its rate limit's name
