"""The chat service: lines in over NATS request/reply, out to the table's chat subject.

Any replica answers any table (one queue group). Who may write is decided from the table's
own event stream: the replica folds who is seated (``services.chat.seating``, not the game)
through a repository that caches it and catches it up from the stream before every line
(one direct get when nothing changed), so a player who just joined may write at once, one
who left may not, and a line names the seat the writer holds now (seats move when someone
leaves a lobby).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from opentelemetry import trace

from maumau.v1 import chat_pb2, table_pb2
from services.chat import store
from services.chat.seating import seatings
from services.chat.text import clean
from services.runtime import tracing
from services.runtime.requests import answer
from services.table.domain import Refused
from services.table.store import EventStore

log = logging.getLogger("maumau.chat")
COMMANDS = "cmd.chat.*"
QUEUE = "chat"
tracer = trace.get_tracer("maumau.chat")


def command_subject(table_id: str) -> str:
    return f"cmd.chat.{table_id}"


@dataclass
class Settings:
    max_chars: int = 300
    rate_count: int = 5  # lines a player may write ...
    rate_seconds: float = 10.0  # ... in this many seconds, at one table (per replica)
    cache_size: int = 1_000
    recent_lines: int = 10_000  # command ids remembered, so a re-sent line is not counted again
    concurrency: int = 256


class RateLimit:
    """At most ``count`` lines in any ``seconds`` per key (a sliding window)."""

    def __init__(self, count: int, seconds: float):
        self.count, self.seconds = count, seconds
        self.windows: dict[tuple[str, str], deque[float]] = {}
        self.swept = 0.0

    def allow(self, key: tuple[str, str], now: float) -> bool:
        """Whether a line may be written now; if so, it is counted."""
        if now - self.swept > self.seconds:  # forget the quiet writers, now and then
            self.windows = {k: w for k, w in self.windows.items() if w and w[-1] > now - self.seconds}
            self.swept = now
        window = self.windows.setdefault(key, deque())
        while window and window[0] <= now - self.seconds:
            window.popleft()
        if len(window) >= self.count:
            return False
        window.append(now)
        return True

    def forget(self, key: tuple[str, str], now: float) -> None:
        """Take back the count of a line that was not stored after all."""
        window = self.windows.get(key)
        if window and window[-1] == now:
            window.pop()


@dataclass
class ChatService:
    js: JetStreamContext
    tables: EventStore
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], float] = time.time
    recent: OrderedDict[tuple[str, str], chat_pb2.ChatPosted] = field(default_factory=OrderedDict)
    stats: Counter[str] = field(default_factory=Counter)  # posted, refused, duplicates
    answering: asyncio.Event = field(default_factory=asyncio.Event)  # readiness: subscribed to the commands
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    rate: RateLimit = field(init=False)

    def __post_init__(self) -> None:
        self.rate = RateLimit(self.settings.rate_count, self.settings.rate_seconds)
        self.seatings = seatings(self.tables, self.settings.cache_size)

    async def handle(self, cmd: chat_pb2.ChatCommand, headers: dict[str, str] | None = None) -> chat_pb2.ChatReply:
        lock = self.locks.get(cmd.table_id)
        if lock is None:
            lock = self.locks[cmd.table_id] = asyncio.Lock()
        span = tracer.start_as_current_span("chat line", context=tracing.extract(headers),
                                            kind=trace.SpanKind.SERVER, attributes={"maumau.table_id": cmd.table_id})
        async with lock:
            try:
                with span:
                    return chat_pb2.ChatReply(posted=await self._handle(cmd))
            except Refused as r:
                self.stats["refused"] += 1
                log.info("refused a line on table %s by %s: %s", cmd.table_id, cmd.actor, r.code)
                return chat_pb2.ChatReply(refusal=table_pb2.Refusal(code=r.code, message=str(r)))

    async def _handle(self, cmd: chat_pb2.ChatCommand) -> chat_pb2.ChatPosted:
        if not cmd.command_id or not cmd.table_id or not cmd.actor:
            raise Refused("bad_request", "a line needs a command id, a table id and an actor")
        posted = self.recent.get((cmd.table_id, cmd.command_id))
        if posted is not None:
            self.stats["duplicates"] += 1
            return posted
        limit = self.settings.max_chars
        if len(cmd.text) > 4 * limit:  # not worth cleaning
            raise Refused("too_long", f"a line has at most {limit} characters")
        text = clean(cmd.text)
        if not text:
            raise Refused("empty", "the line has nothing to say")
        if len(text) > limit:
            raise Refused("too_long", f"a line has at most {limit} characters")
        t = await self.seatings.get(cmd.table_id)
        if not t.exists:
            raise Refused("unknown_table", f"there is no table {cmd.table_id!r}")
        seat = t.seat_of(cmd.actor)
        if seat < 0:
            raise Refused("not_seated", "only the players seated at this table may write in its chat")
        now = self.clock()
        key = (cmd.table_id, cmd.actor)
        if not self.rate.allow(key, now):
            s = self.settings
            raise Refused("too_fast", f"at most {s.rate_count} lines every {s.rate_seconds:g} seconds; wait a moment")
        line = chat_pb2.ChatLine(table_id=cmd.table_id, seat=seat, name=t.names[seat] or cmd.actor_name,
                                 text=text, command_id=cmd.command_id)
        line.time.FromNanoseconds(int(now * 1e9))
        try:
            seq, duplicate = await store.append(self.js, line, tracing.inject())
        except Exception:
            self.rate.forget(key, now)
            raise
        if duplicate:  # stored before (by another replica, or before a restart): answer with what was stored
            self.rate.forget(key, now)
            self.stats["duplicates"] += 1
            line = await store.line_at(self.js, seq) or line
        else:
            self.stats["posted"] += 1
        posted = chat_pb2.ChatPosted(seq=seq, line=line)
        self.recent[cmd.table_id, cmd.command_id] = posted
        while len(self.recent) > self.settings.recent_lines:
            self.recent.popitem(last=False)
        return posted

    async def serve(self, nc: NATS) -> None:
        """Answer lines until cancelled."""
        await answer(nc, COMMANDS, QUEUE, self._reply, self.settings.concurrency, self.answering)

    async def _reply(self, msg: Msg) -> None:
        table_id = msg.subject.rsplit(".", 1)[-1]
        try:
            cmd = chat_pb2.ChatCommand.FromString(msg.data)
        except DecodeError:
            reply = _refusal("bad_request", "the command is not a ChatCommand")
        else:
            if cmd.table_id and cmd.table_id != table_id:
                reply = _refusal("bad_request", "the command's table is not the subject's")
            else:
                cmd.table_id = table_id
                try:
                    reply = await self.handle(cmd, dict(msg.headers or {}))
                except Exception:
                    log.exception("line %s on table %s failed", cmd.command_id, table_id)
                    reply = _refusal("unavailable", "the chat could not take the line now; send it again")
        if msg.reply:
            await msg.respond(reply.SerializeToString())


def _refusal(code: str, message: str) -> chat_pb2.ChatReply:
    return chat_pb2.ChatReply(refusal=table_pb2.Refusal(code=code, message=message))
