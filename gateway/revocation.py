"""A session that ends ends its sockets on every gateway replica within a second (docs/accounts.md).

Signing out, signing out everywhere and a new password purge the session's key from the
sessions' bucket (``gateway.sessions``). Every replica follows the bucket's ``s.*`` subjects
from the moment it starts (an ordered consumer of new messages only: it resumes where it was
after a reconnection) and closes the sockets of a deleted or purged session with
``CLOSE_CODE``; the web client then asks who it is instead of reconnecting as before.

The watch is the fast path. A socket also asks the bucket itself (``SessionCheck``): before
any command other than a move, before a move when it last asked more than
``RECHECK_SECONDS`` ago, and on its own every ``GUARD_SECONDS``; so a replica that missed a
purge (or a session gone with the bucket's TTL, which leaves no message) cannot let a stolen
socket act for long.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import DeliverPolicy

from gateway.sessions import BUCKET, Sessions

log = logging.getLogger("maumau.gateway")
CLOSE_CODE = 4001  # the WebSocket's close code for "your session ended"
RECHECK_SECONDS = 5.0  # a move trusts a check this recent
GUARD_SECONDS = 30.0  # an idle socket asks at least this often
_ENDED = frozenset({"DEL", "PURGE"})  # the KV-Operation headers of a key that is gone


@dataclass
class SessionCheck:
    """An account socket's session, asked of the shared bucket again before the socket acts for the account."""

    sessions: Sessions
    session_id: str = field(repr=False)  # a secret: never in a log line
    ended: bool = False
    checked: float = field(default_factory=time.monotonic)

    async def valid(self, fresh: bool = True) -> bool:
        """Whether the session still stands; ``fresh=False`` trusts a check of the last ``RECHECK_SECONDS``.

        Raises what the bucket's read raises when NATS does not answer (the caller says "unavailable").
        """
        if self.ended:
            return False
        now = time.monotonic()
        if fresh or now - self.checked > RECHECK_SECONDS:
            self.ended = await self.sessions.get(self.session_id) is None
            self.checked = now
        return not self.ended


def ended_digest(msg: Msg) -> str | None:
    """The session digest whose key ``msg`` deletes or purges, else None (a session started or renamed)."""
    if not msg.headers or msg.headers.get("KV-Operation") not in _ENDED:
        return None
    return msg.subject.rsplit(".", 1)[-1]


async def follow(js: JetStreamContext, end: Callable[[str], Awaitable[None]]) -> JetStreamContext.PushSubscription:
    """Call ``end(digest)`` for every session ended from now on; the subscription (to unsubscribe) is returned."""

    async def on_message(msg: Msg) -> None:
        gone = ended_digest(msg)
        if gone is not None:
            try:
                await end(gone)
            except Exception:  # one socket's close must not stop the watch of every other session
                log.exception("a session's sockets could not all be closed")

    return await js.subscribe(f"$KV.{BUCKET}.s.*", cb=on_message, ordered_consumer=True,
                              deliver_policy=DeliverPolicy.NEW, headers_only=True)
