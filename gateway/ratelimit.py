"""Rate limits on the HTTP API's POSTs and its costliest GET (a table's replay), counted in a JetStream
stream every replica shares.

A counter is one subject per (route, address or identity, minute): fixed one-minute windows.
The stream is a JetStream counter stream (ADR-49): each request adds 1 with a ``Nats-Incr``
header, and the server answers the new total, so concurrent requests, from one replica or
many, get distinct totals and exactly the first ``limit`` of a window are let through (a
compare-and-set would make a burst retry, and refuse what loses too many rounds). The
stream keeps one message per subject, dropped a window after it was last counted.
Subjects hold a truncated SHA-256 of the address or identity, never the text: addresses are
the players' own, and the server may log subjects. (A hash without a secret can still be
tested against every IPv4 address; it keeps the subjects from reading in clear.)

>>> subject_key("join", "a", "203.0.113.9", 29000000)
'join.a.d861b7e91033ebc1.29000000'
>>> group("2001:db8::1") == group("2001:db8::ffff") != group("2001:db8:0:1::1")
True
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from aiohttp import web
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.api import StreamConfig
from nats.js.errors import BadRequestError

from gateway.addresses import client_address, group
from gateway.http_api import NATS_KEY, bearer, json_error
from gateway.identity import identity_of
from gateway.sessions import session_of
from services.runtime.refusals import Code
from services.runtime.settings import RateLimits, Settings

log = logging.getLogger("maumau.gateway.ratelimit")
STREAM = "RATE_LIMITS"
SUBJECTS = "ratelimit.>"
WINDOW = 60.0
TIMEOUT = 1.0  # a limit is not worth holding a request longer
UNANSWERED = (NatsError, OSError, TimeoutError)


def subject_key(route: str, kind: str, subject: str, window: int) -> str:
    return f"{route}.{kind}.{hashlib.sha256(subject.encode()).hexdigest()[:16]}.{window}"


class Limiter:
    def __init__(self, js: JetStreamContext) -> None:
        self.js = js
        self.warned_at = -math.inf

    @classmethod
    async def open_stream(cls, js: JetStreamContext, replicas: int) -> Limiter:
        config = StreamConfig(name=STREAM, subjects=[SUBJECTS], allow_msg_counter=True, max_msgs_per_subject=1,
                              max_age=WINDOW, num_replicas=replicas, allow_direct=True)
        try:
            await js.add_stream(config)
        except BadRequestError:
            await js.update_stream(config)
        return cls(js)

    async def count(self, key: str, by: int = 1) -> int:
        """Add ``by`` to ``key``'s counter (less than 0 takes back); its new total, every request's its own."""
        ack = await self.js.publish(f"ratelimit.{key}", b"", headers={"Nats-Incr": str(by)})  # and no
        # Nats-Expected-Stream: the server refuses a counter increment that carries one
        return int(ack.val or 0)

    def warn(self, e: Exception) -> None:
        """Log, at most once a window, that the counters did not answer (the requests went through)."""
        if time.monotonic() - self.warned_at > WINDOW:
            self.warned_at = time.monotonic()
            log.warning("rate limits not counted, the counters' stream did not answer: %s", type(e).__name__)

    async def allowed(self, counters: list[tuple[str, int]]) -> bool:
        """Count one request against each (key, limit); False when one is spent (the totals past it count too)."""
        try:
            for key, limit in counters:
                if await self.count(key) > limit:
                    return False
        except UNANSWERED as e:
            self.warn(e)  # fail open: without the counters nobody is limited, but the platform stays playable
        return True


LIMITER_KEY = web.AppKey("rate_limiter", Limiter)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def enforce(request: web.Request, route: str, counters: list[tuple[str, str, int]]) -> list[str]:
    """Count the request against each (kind, subject, limit) of this minute; 429 when one is spent (0: no limit).

    Returns the keys counted, for a request that is then taken back (``Limiter.count(key, -1)``).
    """
    now = time.time()
    window = int(now // WINDOW)
    keys = [(subject_key(route, kind, subject, window), limit) for kind, subject, limit in counters if limit]
    if keys and not await request.app[LIMITER_KEY].allowed(keys):
        retry = max(1, math.ceil((window + 1) * WINDOW - now))
        raise json_error(429, Code.TOO_MANY_REQUESTS, f"too many requests; try again in {retry} s",
                         headers={"Retry-After": str(retry)})
    return [key for key, _ in keys]


def minute_key(route: str, kind: str, subject: str) -> str:
    """The key of ``subject``'s counter in this minute's window."""
    return subject_key(route, kind, subject, int(time.time() // WINDOW))


def _identity(request: web.Request) -> str:
    """Who is counted: the account session's identity, else the device token's, else nobody (refused anyway)."""
    session = session_of(request)
    if session is not None:
        return session.identity
    try:
        return identity_of(bearer(request))
    except ValueError:
        return ""


def setup(app: web.Application, cfg: Settings) -> None:
    """Limit the routes named in ``http_api.routes``, ``accounts_api.routes``, ``disputes_api`` and
    ``replay_api`` (after NATS is set up)."""
    limits: RateLimits = cfg.rate_limits
    per_route = {  # route name: (per address, per identity)
        "new_session": (limits.sessions_per_address, 0),
        "new_table": (limits.tables_per_address, limits.tables_per_identity),
        "join": (limits.joins_per_address, limits.joins_per_identity),  # and invitation guessing
        "bots": (limits.posts_per_address, limits.posts_per_identity),
        "start": (limits.posts_per_address, limits.posts_per_identity),
        "quick_match": (limits.posts_per_address, limits.posts_per_identity),
        "new_account": (limits.accounts_per_address, 0),
        "login": (limits.logins_per_address, 0),  # and per account, by the handler (accounts_api.login)
        "report": (limits.posts_per_address, limits.posts_per_identity),  # "Reportar problema" (disputes_api)
        "replay": (limits.replays_per_address, limits.replays_per_identity),  # a GET (replay_api)
    }

    async def limiter_ctx(app: web.Application) -> AsyncIterator[None]:
        app[LIMITER_KEY] = await Limiter.open_stream(app[NATS_KEY].jetstream(timeout=TIMEOUT), cfg.stream_replicas)
        yield

    @web.middleware
    async def rate_limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        route = request.match_info.route.name or ""
        per_address, per_identity = per_route.get(route, (0, 0))
        if per_address or per_identity:
            identity = _identity(request) if per_identity else ""  # without one the handler refuses it
            await enforce(request, route, [("a", group(client_address(request, cfg.trusted_proxies)), per_address),
                                           ("i", identity, per_identity if identity else 0)])
        return await handler(request)

    app.cleanup_ctx.append(limiter_ctx)
    app.middlewares.append(rate_limit)
