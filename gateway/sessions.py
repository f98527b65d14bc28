"""Account sessions: an opaque random id in a cookie, what it stands for in a key-value bucket every replica shares.

The bucket's TTL is a session's life: an entry not written again for ``SESSION_SECONDS`` is
gone, and with it the session. Keys hold a truncated SHA-256 of the session id, never the id:
keys are NATS subjects, which the server may log, and whoever reads the bucket cannot take
over a session. Each session (``s.<hash>``) has a second, empty key under its account
(``a.<account>.<hash>``), so that signing out everywhere finds every session of the account
with one filtered read instead of a scan of all sessions.

>>> len(new_id()) >= 43 and new_id() != new_id()
True
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import asdict, dataclass, replace

from aiohttp import web
from nats.js import JetStreamContext
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from services.runtime.settings import SESSION_SECONDS

BUCKET = "maumau_sessions"
COOKIE = "mm_session"
GUEST_COOKIE = "mm_guest"  # a guest's device token, for the WebSocket (gateway/accounts_api.py guest_cookie)


@dataclass(frozen=True)
class Session:
    account_id: str
    identity: str
    name: str


SESSION = web.RequestKey("session", Session)  # where a request keeps its session (``session_of``)


def new_id() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


def digest(session_id: str) -> str:
    """What stands for a session id in the bucket's keys and in a replica's memory: never the id itself."""
    return hashlib.sha256(session_id.encode()).hexdigest()[:32]


def session_of(request: web.Request) -> Session | None:
    """The account session the request's cookie stands for (set by the gateway's session middleware)."""
    return request.get(SESSION)


class Sessions:
    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv

    @classmethod
    async def open_bucket(cls, js: JetStreamContext, replicas: int = 1) -> Sessions:
        return cls(await js.create_key_value(bucket=BUCKET, ttl=SESSION_SECONDS, history=1, replicas=replicas))

    async def start(self, session: Session) -> str:
        """A new session's id (given to the browser only)."""
        session_id = new_id()
        await self._put(digest(session_id), session)
        return session_id

    async def get(self, session_id: str) -> Session | None:
        if not session_id or len(session_id) > 100:
            return None
        return await self._get(digest(session_id))

    async def end(self, session_id: str) -> None:
        key = digest(session_id)
        session = await self._get(key)
        if session is not None:
            await self._forget(session.account_id, key)

    async def end_all(self, account_id: str) -> int:
        """Sign the account out everywhere: every one of its sessions ends (how many, returned)."""
        digests = await self._digests(account_id)
        for key in digests:
            await self._forget(account_id, key)
        return len(digests)

    async def rename(self, account_id: str, name: str) -> None:
        """Give the account's sessions its new name (commands carry it; each entry's life starts again)."""
        for digest in await self._digests(account_id):
            session = await self._get(digest)
            if session is not None:
                await self._put(digest, replace(session, name=name))

    async def _put(self, digest: str, session: Session) -> None:
        await self.kv.put(f"a.{session.account_id}.{digest}", b"")
        await self.kv.put(f"s.{digest}", json.dumps(asdict(session)).encode())

    async def _get(self, digest: str) -> Session | None:
        try:
            entry = await self.kv.get(f"s.{digest}")
        except KeyNotFoundError:
            return None
        return Session(**json.loads(entry.value or b"{}"))

    async def _forget(self, account_id: str, digest: str) -> None:
        await self.kv.purge(f"s.{digest}")
        await self.kv.purge(f"a.{account_id}.{digest}")

    async def _digests(self, account_id: str) -> list[str]:
        """The hashes of the account's sessions' ids: one read filtered by the server."""
        watcher = await self.kv.watch(f"a.{account_id}.*", ignore_deletes=True, meta_only=True)
        found = []
        async for entry in watcher:
            if entry is None:  # the end of what is stored
                break
            found.append(entry.key.rsplit(".", 1)[-1])
        await watcher.stop()  # type: ignore[no-untyped-call]
        return found
