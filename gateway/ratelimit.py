"""Rate limits on the HTTP API's POSTs and its costliest GET (a table's replay), counted in a JetStream
key-value bucket every replica shares.

A counter is one key per (route, address or identity, minute): fixed one-minute windows,
incremented with compare-and-set, the bucket's TTL dropping the old ones. Keys hold a
truncated SHA-256 of the address or identity, never the text: addresses are the players'
own, and keys are NATS subjects, which the server may log. (A hash without a secret can
still be tested against every IPv4 address; it keeps the subjects from reading in clear.)

>>> subject_key("join", "a", "203.0.113.9", 29000000)
'join.a.d861b7e91033ebc1.29000000'
>>> group("2001:db8::1") == group("2001:db8::ffff") != group("2001:db8:0:1::1")
True
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from aiohttp import web
from nats.errors import Error as NatsError
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from gateway.addresses import client_address, group
from gateway.http_api import NATS_KEY, bearer, json_error
from gateway.identity import identity_of
from gateway.sessions import session_of
from services.runtime.settings import RateLimits, Settings

log = logging.getLogger("maumau.gateway.ratelimit")
BUCKET = "maumau_rate_limits"
WINDOW = 60.0
ATTEMPTS = 64  # compare-and-set rounds lost to other requests before giving up on one (a burst from one
# address, many players behind one NAT, loses one round per request ahead of it)
TIMEOUT = 1.0  # a limit is not worth holding a request longer


def subject_key(route: str, kind: str, subject: str, window: int) -> str:
    return f"{route}.{kind}.{hashlib.sha256(subject.encode()).hexdigest()[:16]}.{window}"


class Limiter:
    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv
        self.warned_at = -math.inf

    async def spend(self, key: str, limit: int) -> bool:
        """Count one request against ``key``; False (and nothing counted) when its limit is spent."""
        for _ in range(ATTEMPTS):
            try:
                entry = await self.kv.get(key)
            except KeyNotFoundError:
                try:
                    await self.kv.create(key, b"1")
                    return True
                except KeyWrongLastSequenceError:
                    continue  # another request created it first
            count = int(entry.value or b"0")
            if count >= limit:
                return False
            try:
                await self.kv.update(key, str(count + 1).encode(), last=entry.revision)
                return True
            except KeyWrongLastSequenceError:
                await asyncio.sleep(random.random() * 0.002)  # the racers spread out instead of colliding again
        return False  # a counter this contended is being hammered

    async def allowed(self, counters: list[tuple[str, int]]) -> bool:
        """Count one request against each (key, limit); False when one is spent."""
        try:
            for key, limit in counters:
                if not await self.spend(key, limit):
                    return False
        except (NatsError, OSError, TimeoutError) as e:
            # Fail open: without the bucket nobody is limited, but the platform stays playable.
            if time.monotonic() - self.warned_at > WINDOW:
                self.warned_at = time.monotonic()
                log.warning("rate limits not counted, the key-value bucket did not answer: %s", type(e).__name__)
        return True


LIMITER_KEY = web.AppKey("rate_limiter", Limiter)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def enforce(request: web.Request, route: str, counters: list[tuple[str, str, int]]) -> None:
    """Count the request against each (kind, subject, limit) of this minute; 429 when one is spent (0: no limit)."""
    now = time.time()
    window = int(now // WINDOW)
    keys = [(subject_key(route, kind, subject, window), limit) for kind, subject, limit in counters if limit]
    if keys and not await request.app[LIMITER_KEY].allowed(keys):
        retry = max(1, math.ceil((window + 1) * WINDOW - now))
        raise json_error(429, "too_many_requests", f"too many requests; try again in {retry} s",
                         headers={"Retry-After": str(retry)})


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
        js = app[NATS_KEY].jetstream(timeout=TIMEOUT)
        app[LIMITER_KEY] = Limiter(await js.create_key_value(bucket=BUCKET, ttl=WINDOW,
                                                             replicas=cfg.stream_replicas))
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
