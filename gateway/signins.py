"""Sign-in throttling that cannot lock an owner out of their account.

Password guessing is limited without letting a stranger spend the owner's tries:

* failed sign-ins are counted per (name, address): past ``logins_per_name_and_address`` in a
  minute, that address gets 429 for that name, and only that address;
* every sign-in of an address is counted across names by the rate-limit middleware
  (``logins_per_address``): one address spraying many names;
* a name failed ``logins_per_account`` times in a minute, from every address together, is
  under attack: each sign-in to it then waits ``SLOW_DOWN`` before its password is checked,
  the owner's too — slowed, never refused (a name-wide 429 would let anyone lock anyone out).

A try is counted when it starts, so that a burst cannot slip past a limit, and taken back
unless it was refused as a wrong name or password: only failures count. The counters are the
rate limits' (``gateway.ratelimit``), shared by every gateway replica. An unknown name is
counted like a known one, so the answers tell nobody which names have an account.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from aiohttp import web

from gateway.addresses import client_address, group
from gateway.ratelimit import LIMITER_KEY, UNANSWERED, Limiter, enforce, minute_key
from services.accounts.names import name_key
from services.runtime.settings import Settings

SLOW_DOWN = 2.0  # seconds: what an owner barely notices, and a guesser pays at every try


@dataclass(frozen=True)
class SignInLimits:
    per_name_and_address: int  # failures a minute (0: no limit)
    per_name: int  # failures a minute from every address before each try is slowed down (0: never)
    trusted_proxies: int

    @classmethod
    def of(cls, cfg: Settings) -> SignInLimits:
        limits = cfg.rate_limits
        return cls(limits.logins_per_name_and_address, limits.logins_per_account, cfg.trusted_proxies)


SIGNIN_LIMITS_KEY = web.AppKey("signin_limits", SignInLimits)


async def _over(limiter: Limiter, key: str, limit: int) -> bool:
    """Count a try on ``key``; whether it is past ``limit`` (no: when the counters do not answer)."""
    try:
        return await limiter.count(key) > limit
    except UNANSWERED as e:
        limiter.warn(e)
        return False


async def _take_back(limiter: Limiter, keys: list[str]) -> None:
    try:
        for key in keys:
            await limiter.count(key, -1)
    except UNANSWERED as e:
        limiter.warn(e)


@contextlib.asynccontextmanager
async def attempt(request: web.Request, name: str) -> AsyncIterator[None]:
    """Around one sign-in to ``name``: 429 when this address failed it too often, a wait when everyone did."""
    limits, limiter = request.app[SIGNIN_LIMITS_KEY], request.app[LIMITER_KEY]
    tried = name_key(name)
    address = group(client_address(request, limits.trusted_proxies))
    keys = await enforce(request, "login", [("na", f"{tried} {address}", limits.per_name_and_address)])
    if limits.per_name:
        keys.append(name_wide := minute_key("login", "n", tried))
        if await _over(limiter, name_wide, limits.per_name):
            await asyncio.sleep(SLOW_DOWN)
    failed = False
    try:
        yield
    except web.HTTPUnauthorized:
        failed = True  # a wrong name or password: the try counts
        raise
    finally:
        if not failed:
            await _take_back(limiter, keys)
