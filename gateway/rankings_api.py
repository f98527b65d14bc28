"""Rankings and players' profiles over HTTP (docs/protocol.md): read from the SQL projections.

``GET /api/rankings?ruleset=R&category=official|training&period=today|week|month|season|all&by=wins|xp&page=N``
and ``GET /api/players/{name}``. Both are public: a ranking shows names and avatars, a profile
a player's statistics and last matches (with the tables they link to), as other players see them.
One's own profile is found even before the projection has the account (just registered or
renamed): the session's account is read from its stream then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from aiohttp import web
from sqlalchemy.exc import SQLAlchemyError

from gateway.accounts_api import ACCOUNTS_KEY, UNREACHABLE
from gateway.http_api import DB_KEY, ZONE_KEY, json_error
from gateway.sessions import session_of
from services.accounts.names import normalise
from services.readmodels.rankings import queries
from services.readmodels.rankings.periods import Period, key, utc
from services.rules.rulesets import RULESETS
from services.runtime.refusals import Code
from services.table.domain import Category

MAX_PAGE = 1_000


def _choice(request: web.Request, name: str, choices: list[str], default: str) -> str:
    value = request.query.get(name, default)
    if value not in choices:
        raise json_error(400, Code.BAD_REQUEST, f"{name} is one of {', '.join(choices)}")
    return value


def _page(request: web.Request) -> int:
    raw = request.query.get("page", "0")
    if not raw.isdigit() or int(raw) > MAX_PAGE:
        raise json_error(400, Code.BAD_REQUEST, f"page is a whole number from 0 to {MAX_PAGE}")
    return int(raw)


def _unavailable() -> web.HTTPException:
    return json_error(503, Code.UNAVAILABLE, "the rankings cannot be read right now; try again")


async def get_rankings(request: web.Request) -> web.Response:
    ruleset = _choice(request, "ruleset", sorted(RULESETS), "classic52")
    category = _choice(request, "category", list(Category), Category.OFFICIAL)
    period = Period(_choice(request, "period", list(Period), Period.ALL))
    by = queries.Score(_choice(request, "by", list(queries.Score), queries.Score.WINS))
    page, now, tz = _page(request), datetime.now(UTC), request.app[ZONE_KEY]
    try:
        async with request.app[DB_KEY].connect() as conn:
            rows, more = await queries.ranking(conn, ruleset, category, period, now, tz, page, by=by)
    except (SQLAlchemyError, OSError):
        raise _unavailable() from None
    return web.json_response({
        "ruleset": ruleset, "category": category, "period": period, "period_key": key(period, now, tz), "by": by,
        "page": page, "more": more,
        "rows": [{"position": r.position, "name": r.name, "avatar": r.avatar, by: r.score} for r in rows]})


@dataclass(frozen=True)
class Profiled:
    identity: str
    name: str
    avatar: str
    since: datetime


async def _own(request: web.Request, normalised: str) -> Profiled | None:
    """The session's own account when it bears this name (the projection may not have it yet)."""
    session = session_of(request)
    if session is None:
        return None
    try:
        a = await request.app[ACCOUNTS_KEY].load(session.account_id)
    except UNREACHABLE:
        return None
    if not a.exists or normalise(a.name) != normalised:
        return None
    return Profiled(a.identity, a.name, a.avatar, datetime.fromtimestamp(a.registered_at, UTC))


async def get_player(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    try:
        async with request.app[DB_KEY].connect() as conn:
            row = await queries.account_by_name(conn, normalise(name))
            who = (Profiled(row.identity, row.name, row.avatar, utc(row.registered_at)) if row is not None
                   else await _own(request, normalise(name)))
            if who is None:
                raise json_error(404, Code.UNKNOWN_PLAYER, f"nobody is called {name!r}")
            statistics = await queries.statistics(conn, who.identity)
            history = await queries.history(conn, who.identity)
            chips = await queries.chips(conn, who.identity, datetime.now(UTC), request.app[ZONE_KEY])
    except (SQLAlchemyError, OSError):
        raise _unavailable() from None
    return web.json_response({"name": who.name, "avatar": who.avatar, "since": who.since.isoformat(), "chips": chips,
                              "statistics": statistics, "history": history})


def setup(app: web.Application) -> None:
    app.add_routes([web.get("/api/rankings", get_rankings), web.get("/api/players/{name}", get_player)])
