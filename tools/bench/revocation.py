"""``maumau bench revocation``: how soon a session's open socket closes once the session is ended.

It starts NATS, the accounts service and two gateway replicas (the rate limits lifted: every
client comes from this one address), makes ``--sessions`` account sessions (five per account,
each account's sessions signed in on both replicas), opens a socket for each on one replica,
then ends them one at a time — each by signing out through the *other* replica, every fifth
account's last session by a new password instead — and measures, per session, the time to the
close frame received from the request sent and from its answer (a new password's answer waits
for two password hashes; the close often comes before it). One JSON line: the sessions, those
never closed, both delays' p50/p99/max in ms, and a 10-million-step Python loop's seconds beside.
"""

from __future__ import annotations

import asyncio
import json
import math
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from gateway.revocation import CLOSE_CODE
from gateway.sessions import COOKIE
from services.runtime.machine import loop_seconds
from services.runtime.supervisor import running_platform
from tools.load.loadtest import unlimited

NEEDED = {"nats", "accts", "gateway", "gw2"}
PER_ACCOUNT = 5
PASSWORD = "cartas na mesa, sempre"
PATIENCE = 10.0  # seconds a socket is given to close (or to say hello) before it counts as never closed


@dataclass
class Held:
    account: int
    cookie: str
    replica: int
    ws: aiohttp.ClientWebSocketResponse
    closed: asyncio.Task[float | None]  # read from the start: a socket nobody reads misses its pings and drops


async def _post(http: aiohttp.ClientSession, url: str, body: dict[str, Any], cookie: str = "",
                method: str = "POST") -> str:
    """The answer's session cookie (or the one sent, when the answer sets none)."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    async with http.request(method, url, json=body, headers=headers) as r:
        if r.status >= 300:
            raise RuntimeError(f"{method} {url}: {r.status} {await r.text()}")
        return r.cookies[COOKIE].value if COOKIE in r.cookies else cookie


async def _sessions(http: aiohttp.ClientSession, urls: list[str], sessions: int) -> list[Held]:
    held = []
    for i in range(sessions):
        account, replica = i // PER_ACCOUNT, i % 2
        name = f"Revoga {account}"
        if i % PER_ACCOUNT == 0:
            cookie = await _post(http, urls[0] + "/api/accounts", {"name": name, "password": PASSWORD})
        else:
            cookie = await _post(http, urls[1 - replica] + "/api/login", {"name": name, "password": PASSWORD})
        ws = await http.ws_connect(urls[replica].replace("http", "ws", 1) + "/ws",
                                   headers={"Cookie": f"{COOKIE}={cookie}"})
        await ws.send_json({"type": "hello", "v": 1})
        await ws.receive_json(timeout=PATIENCE)
        held.append(Held(account, cookie, replica, ws, asyncio.create_task(_closed(ws))))
    return held


async def _closed(ws: aiohttp.ClientWebSocketResponse) -> float | None:
    """When ``ws`` got its session-ended close frame (perf_counter); None if it closed otherwise."""
    while (msg := await ws.receive()).type != aiohttp.WSMsgType.CLOSE:
        if msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            return None
    return time.perf_counter() if msg.data == CLOSE_CODE else None


async def _end(http: aiohttp.ClientSession, urls: list[str], h: Held, last_of_account: bool) -> tuple[float, float]:
    """End ``h``'s session through the other replica: ms from the request sent, and from its answer, to the close
    (negative: closed before the answer came); ``inf`` where it never closed."""
    sent = time.perf_counter()
    other = urls[1 - h.replica]
    if last_of_account and h.account % 5 == 0:
        await _post(http, other + "/api/me", {"old_password": PASSWORD, "password": PASSWORD + "!"}, h.cookie,
                    method="PATCH")
    else:
        await _post(http, other + "/api/logout", {}, h.cookie)
    answered = time.perf_counter()
    try:
        closed = await asyncio.wait_for(asyncio.shield(h.closed), PATIENCE)
    except TimeoutError:
        closed = None
    if closed is None:
        return math.inf, math.inf
    return (closed - sent) * 1000, (closed - answered) * 1000


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def drive(urls: list[str], sessions: int) -> dict[str, Any]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        held = await _sessions(http, urls, sessions)
        delays = [await _end(http, urls, h, (i + 1) % PER_ACCOUNT == 0) for i, h in enumerate(held)]
        for h in held:
            await h.ws.close()
            await asyncio.gather(h.closed, return_exceptions=True)
    seen = [d for d in delays if math.isfinite(d[0])]
    sent, answered = [d[0] for d in seen], [d[1] for d in seen]
    return {"sessions": sessions, "replicas": len(urls), "closed": len(seen), "not_closed": len(delays) - len(seen),
            **({"from_request_p50_ms": round(statistics.median(sent), 1), "from_request_p99_ms": _quantile(sent, 0.99),
                "from_request_max_ms": round(max(sent), 1),
                "after_answer_p99_ms": _quantile(answered, 0.99), "after_answer_max_ms": round(max(answered), 1),
                "closed_before_answer": sum(1 for a in answered if a < 0)} if seen else {})}


async def run(sessions: int) -> str:
    before = loop_seconds()
    with tempfile.TemporaryDirectory(prefix="maumau-revocation-") as data:
        async with running_platform(Path(data), quiet=True, only=NEEDED, settings=unlimited(),
                                    gateways=2) as (addresses, _):
            result = await drive([addresses["gateway_url"], addresses["gateway2_url"]], sessions)
    return json.dumps({**result, "loop_10m_s_before": before, "loop_10m_s_after": loop_seconds()})
