"""The chat service: lines in over NATS request/reply, out to the table's chat subject.

Any replica answers any table (one queue group). Who may write is decided from the table's
own event stream: the replica folds who is seated (``services.chat.seating``, not the game)
through a repository that caches it and catches it up from the stream before every line
(one direct get when nothing changed), so a player who just joined may write at once, one
who left may not, and a line names the seat the writer holds now (seats move when someone
leaves a lobby).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from cachetools import LRUCache
from nats.js import JetStreamContext

from maumau.v1 import chat_pb2, table_pb2
from services.chat import REACTIONS, store
from services.chat.seating import seatings
from services.chat.text import clean
from services.eventlog.direct import StaleRead
from services.runtime import metrics, tracing
from services.runtime.commands import CommandService
from services.runtime.refusals import Code, Refused
from services.runtime.settings import CHAT_MAX_CHARS, CHAT_RATE, parse_rate
from services.table.store import EventStore

RATE = parse_rate(CHAT_RATE)


@dataclass
class Settings:
    max_chars: int = CHAT_MAX_CHARS
    rate_count: int = RATE[0]  # lines a player may write ...
    rate_seconds: float = RATE[1]  # ... in this many seconds, at one table (per replica)
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
class ChatService(CommandService[chat_pb2.ChatCommand, chat_pb2.ChatReply]):
    kind: ClassVar[str] = "chat"
    expected: ClassVar[tuple[type[Exception], ...]] = (StaleRead,)  # the replicas answered reads from behind
    log: ClassVar[logging.Logger] = logging.getLogger("maumau.chat")
    js: JetStreamContext
    tables: EventStore
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], float] = time.time
    recent: LRUCache[tuple[str, str], chat_pb2.ChatPosted] = field(init=False)
    rate: RateLimit = field(init=False)

    def __post_init__(self) -> None:
        self.recent = LRUCache(self.settings.recent_lines)
        self.rate = RateLimit(self.settings.rate_count, self.settings.rate_seconds)
        self.seatings = seatings(self.tables, self.settings.cache_size)

    def parse(self, data: bytes) -> chat_pb2.ChatCommand:
        return chat_pb2.ChatCommand.FromString(data)

    def refusal(self, code: str, message: str) -> chat_pb2.ChatReply:
        return chat_pb2.ChatReply(refusal=table_pb2.Refusal(code=code, message=message))

    def forget(self, table_id: str) -> None:
        self.seatings.forget(table_id)

    @property
    def concurrency(self) -> int:
        return self.settings.concurrency

    def _text(self, cmd: chat_pb2.ChatCommand) -> str:
        """The line's text as stored ("" for a reaction), or the refusal of what may not be said."""
        if cmd.reaction:
            if cmd.reaction not in REACTIONS or cmd.text:
                raise Refused(Code.BAD_REACTION, f"a reaction is one of {sorted(REACTIONS)}, without a text")
            return ""
        limit = self.settings.max_chars
        if len(cmd.text) > 4 * limit:  # not worth cleaning
            raise Refused(Code.TOO_LONG, f"a line has at most {limit} characters")
        text = clean(cmd.text)
        if not text:
            raise Refused(Code.EMPTY, "the line has nothing to say")
        if len(text) > limit:
            raise Refused(Code.TOO_LONG, f"a line has at most {limit} characters")
        return text

    async def decide(self, cmd: chat_pb2.ChatCommand) -> chat_pb2.ChatReply:
        return chat_pb2.ChatReply(posted=await self._post(cmd))

    async def _post(self, cmd: chat_pb2.ChatCommand) -> chat_pb2.ChatPosted:
        posted = self.recent.get((cmd.table_id, cmd.command_id))
        if posted is not None:
            self.stats["duplicates"] += 1
            return posted
        text = self._text(cmd)
        t = await self.seatings.get(cmd.table_id)
        if not t.exists or t.seat_of(cmd.actor) < 0:  # maybe just made, or just joined: as the leader has it
            await self.seatings.fast_forward_to_leader(t)
        if not t.exists:
            raise Refused(Code.UNKNOWN_TABLE, f"there is no table {cmd.table_id!r}")
        seat = t.seat_of(cmd.actor)
        if seat < 0:
            raise Refused(Code.NOT_SEATED, "only the players seated at this table may write in its chat")
        now = self.clock()
        key = (cmd.table_id, cmd.actor)
        if not self.rate.allow(key, now):
            s = self.settings
            raise Refused(Code.TOO_FAST,
                          f"at most {s.rate_count} lines every {s.rate_seconds:g} seconds; wait a moment")
        line = chat_pb2.ChatLine(table_id=cmd.table_id, seat=seat, name=t.names[seat] or cmd.actor_name,
                                 text=text, command_id=cmd.command_id, reaction=cmd.reaction)
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
            metrics.CHAT_LINES.inc()
        posted = chat_pb2.ChatPosted(seq=seq, line=line)
        self.recent[cmd.table_id, cmd.command_id] = posted
        return posted
