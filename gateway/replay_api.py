"""``GET /api/tables/{id}/replay``: a table's history as the web client's replay viewer steps through it.

The steps are ``services/record/replay.py``'s (``replay.steps``): each stored batch as the
caller saw it then, from the seat they held (a spectator's view while they held none), every
round's hands shown once that round is over, as at the table.

Staff (the account's own stream says so, as for the desk) see every hand only where no game
is to be won by it (docs/disputes.md, "What staff see"): a table that is over (``over`` or
``ended``), in full; a table still being played only from a dispute about it
(``?relato=<dispute id>``), in full up to the dispute's moment and as a spectator after it;
and never a table that seats them (they get their seat's view, like anyone). Every full look
is recorded in the DISPUTES stream (``looked``: who, which table, when) before anything is
sent: on the dispute it was opened from, else on the table's own subject there
(``disputes.table-<table id>``); the desk lists them all (``GET /api/staff/looks``).

Each body is made once per (table, sequence, viewer kind) and kept (``gateway/replaycache.py``),
in a worker process of its own (``gateway/replaymaker.py``): the kinds are the full one, a
spectator's (everyone the table does not seat and who did not create it: one body for them
all), and each seated person's (or creator's) own.
"""

from __future__ import annotations

import re
import time
import uuid
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from aiohttp import web

from gateway.accounts_api import ACCOUNTS_KEY
from gateway.disputes_api import DISPUTES_KEY, UNREACHABLE
from gateway.http_api import NATS_KEY, TABLES_KEY, caller, json_error
from gateway.replaycache import Body, ReplayCache
from gateway.replaymaker import ReplayMaker
from gateway.sessions import session_of
from maumau.v1 import disputes_pb2
from services.accounts.domain import Account
from services.disputes.domain import looks_subject
from services.runtime.refusals import Code
from services.table.domain import Status, Table
from services.table.store import EventStore

CACHE_KEY = web.AppKey("replay_cache", ReplayCache)
MAKER_KEY = web.AppKey("replay_maker", ReplayMaker)
OVER = (Status.OVER, Status.ENDED)  # no match under way: its hands are no secret worth a game
SPECTATOR = "spectator"


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


async def _moment(request: web.Request, table_id: str) -> tuple[str, int] | None:
    """The dispute about this table the replay was opened from (``?relato=``) and its moment, if any."""
    relato = request.query.get("relato", "")
    if not re.fullmatch(r"[0-9a-f]{24}", relato):  # a dispute's id (disputes_api chooses them)
        return None
    d = await request.app[DISPUTES_KEY].load(relato)
    return (relato, d.table_seq) if d.table_id == table_id else None


@dataclass(frozen=True)
class Seen:
    """What the replay depends on, read from the table at once (the cached aggregate moves on meanwhile)."""

    table_id: str
    seq: int
    over: bool
    seated: bool  # the caller holds a seat now
    creator: bool


def seen(t: Table, identity: str) -> Seen:
    """What the replay for ``identity`` depends on, of the table as it is now."""
    return Seen(t.table_id, t.seq, t.status in OVER, t.seat_of(identity) >= 0, t.creator == identity)


async def _full_until(request: web.Request, staff: Account, s: Seen) -> int | None:
    """How far a staff member sees every hand (None: not at all), the look recorded first (on its dispute, if any)."""
    if s.seated:
        return None  # playing it: their seat's view, like anyone
    moment = await _moment(request, s.table_id)
    if s.over:
        until = s.seq
    elif moment is not None:
        until = min(moment[1], s.seq)
    else:
        return None
    ev = disputes_pb2.DisputeEvent(looked=disputes_pb2.StaffLooked(account_id=staff.account_id, name=staff.name,
                                                                    table_id=s.table_id))
    ev.time.FromNanoseconds(time.time_ns())
    subject = moment[0] if moment is not None else looks_subject(s.table_id)
    await request.app[DISPUTES_KEY].append(subject, ev, None, uuid.uuid4().hex)
    return until


def _kind(s: Seen, identity: str, full_until: int | None) -> str:
    """The cache's viewer kind: ``full@seq``, a person's own (seated now, or the creator), or the spectator's.

    >>> _kind(Seen("t", 9, False, False, True), "g-ana", None), _kind(Seen("t", 9, True, False, False), "g-gil", 9)
    ('own:g-ana', 'full@9')
    """
    if full_until is not None:
        return f"full@{full_until}"
    if s.seated or s.creator:
        return f"own:{identity}"
    return SPECTATOR


async def get_replay(request: web.Request) -> web.Response:
    table_id = request.match_info["table_id"]
    identity, _ = caller(request)
    staff = await _staff(request)
    try:
        s = seen(await request.app[TABLES_KEY].get(table_id), identity)
        full_until = await _full_until(request, staff, s) if staff is not None and s.seq else None
    except UNREACHABLE:
        raise json_error(503, Code.UNAVAILABLE, "the table's record cannot be read right now; try again") from None
    if not s.seq:
        raise json_error(404, Code.UNKNOWN_TABLE, f"there is no table {table_id!r}")
    kind = _kind(s, identity, full_until)
    shared_identity = identity if kind.startswith("own:") else ""  # one body for every spectator

    async def make() -> Body:
        try:
            records = await EventStore(request.app[NATS_KEY].jetstream()).read(table_id, until=s.seq)
            return await request.app[MAKER_KEY].make(table_id, records, shared_identity, full_until)
        except (*UNREACHABLE, BrokenProcessPool):
            raise json_error(503, Code.UNAVAILABLE, "the table's record cannot be read right now; try again") from None

    body = await request.app[CACHE_KEY].get(table_id, s.seq, kind, make)
    headers = {"Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        return web.Response(body=body.gzipped, content_type="application/json",
                            headers={**headers, "Content-Encoding": "gzip"})
    return web.Response(body=body.raw, content_type="application/json", headers=headers)


def setup(app: web.Application) -> None:
    app[CACHE_KEY] = ReplayCache()
    app[MAKER_KEY] = maker = ReplayMaker()

    async def close_maker(app: web.Application) -> None:
        maker.close()

    app.on_cleanup.append(close_maker)
    app.add_routes([web.get("/api/tables/{table_id}/replay", get_replay, name="replay")])  # its rate limit's name
