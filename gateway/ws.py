"""One browser tab's WebSocket: any number of tables, each message tagged by table.

Frames are checked one by one: a malformed frame, an unknown table, a table that cannot be
followed right now or a refused command gets an ``error`` or a refusing ``ack``, and nothing
else on the socket is touched. Frames are size- and rate-limited per socket, and so are the
tables one socket follows; a replica bounds the sockets of one identity and of one address.
Frames to the tab go through one queue, so a slow tab cannot stall a table's other watchers
(a tab that falls too far behind is closed and resumes from its last sequence when it
reconnects).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import WSCloseCode, WSMsgType, web
from google.protobuf import json_format
from google.protobuf.message import Message
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError
from nats.js.kv import KeyValue
from sqlalchemy.exc import SQLAlchemyError

from gateway.client_files import client_build
from gateway.feeds import Feed, Feeds, UnknownTable
from gateway.frames import (
    Ack,
    BatchFrames,
    ChatLine,
    ErrorFrame,
    Frame,
    chat_line,
    events_frame,
    matched,
    state_frame,
)
from gateway.http_api import DB_KEY, ZONE_KEY
from gateway.moves import action_of, is_move
from gateway.openlist import OpenTables
from gateway.outbox import SESSION_ENDED, Outbox
from gateway.presence import Marks
from gateway.quickmatch_api import MAX_WAIT
from gateway.revocation import CLOSE_CODE, GUARD_SECONDS, SessionCheck
from gateway.sessions import digest
from gateway.stakes import vouch
from maumau.v1 import chat_pb2, table_pb2
from services.chat.client import post
from services.chat.store import history
from services.clock.presence import WATCHING
from services.matchmaking.quick import QuickMatch, Refusal
from services.rules.actions import MoveError
from services.runtime import logs, metrics
from services.runtime.refusals import Code
from services.runtime.settings import SocketLimits
from services.runtime.timeouts import stop
from services.table.client import deliver
from services.table.domain import Table

log = logging.getLogger("maumau.gateway")
PROTOCOL = 1
MAX_FRAME = 8 * 1024
RATE = 30.0  # frames per second per socket, with a burst of as many
QUEUE = 512
TABLE_COMMANDS = ("join", "leave", "fill_bots", "start", "next_round", "give_up", "claim_absence", "penalise",
                  "rematch", "auto_mode", "move_seat")
FRAMES_IN, FRAMES_OUT = metrics.ByKind(metrics.FRAMES_IN), metrics.ByKind(metrics.FRAMES_OUT)


class FrameError(Exception):
    def __init__(self, code: Code, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class Sockets:
    """The open sockets of this replica, counted by identity and by address against their limits."""

    limits: SocketLimits
    by_identity: Counter[str] = field(default_factory=Counter)
    by_address: Counter[str] = field(default_factory=Counter)
    open: set[web.WebSocketResponse] = field(default_factory=set)
    by_session: dict[str, set[Socket]] = field(default_factory=dict)  # an account's sockets, by session digest

    def hold(self, sock: Socket) -> None:
        """Count an account's socket under its session, to be closed when the session ends."""
        if sock.session is not None:
            self.by_session.setdefault(digest(sock.session.session_id), set()).add(sock)

    def drop(self, sock: Socket) -> None:
        if sock.session is not None:
            held = digest(sock.session.session_id)
            socks = self.by_session.get(held, set())
            socks.discard(sock)
            if not socks:
                self.by_session.pop(held, None)

    async def end_session(self, session_digest: str) -> None:
        """The session is gone (gateway/revocation.py): its sockets here stop acting for it at once, and close."""
        for sock in list(self.by_session.get(session_digest, ())):
            sock.end_session()

    async def close_all(self) -> None:
        """Close every socket (a replica going away): the tabs reconnect, to another replica or to this one."""
        for ws in list(self.open):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    def admit(self, identity: str, address: str) -> str | None:
        """Count one more socket, or say why not."""
        if self.by_identity[identity] >= self.limits.per_identity:
            return f"at most {self.limits.per_identity} open tabs per player"
        if self.by_address[address] >= self.limits.per_address:
            return f"at most {self.limits.per_address} open connections per address"
        self.by_identity[identity] += 1
        self.by_address[address] += 1
        return None

    def release(self, identity: str, address: str) -> None:
        for counts, key in ((self.by_identity, identity), (self.by_address, address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]


@dataclass(eq=False)  # a socket is itself: watched in sets, by identity
class Socket:
    ws: web.WebSocketResponse
    identity: str
    name: str
    feeds: Feeds
    nc: NATS
    max_tables: int
    seat: Callable[[table_pb2.TableCommand, Table], Awaitable[None]]  # vouch for the socket's player taking a seat
    marks: Marks | None = None  # where the socket's seats are marked present (None: nowhere)
    lobby: OpenTables | None = None  # the open tables' live lines, once the tab asks for them
    quick: QuickMatch | None = None  # "Jogar agora" over the socket
    session: SessionCheck | None = None  # an account's session (None: a guest's device token)
    matching: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # tickets waiting, until matched
    tables: set[str] = field(default_factory=set)
    outbox: Outbox = field(default_factory=lambda: Outbox(QUEUE))
    allowance: float = RATE
    checked: float = field(default_factory=time.monotonic)

    @property
    def account(self) -> bool:
        return self.session is not None

    def send(self, frame: Frame) -> None:
        self._queue((frame["type"], frame))

    def end_session(self) -> None:
        """Its account session ended: nothing more is done for it, and after the frames it is owed the tab
        is told why it closes."""
        if self.session is not None:
            self.session.ended = True
        self._queue(SESSION_ENDED)

    async def acting(self, fresh: bool) -> None:
        """Raise ``FrameError(SESSION_ENDED)`` unless the socket's session still stands (``handle`` then closes)."""
        if self.session is not None and not await self.session.valid(fresh):
            raise FrameError(Code.SESSION_ENDED, "your session ended; sign in again")

    async def guard(self) -> None:
        """Ask the bucket now and then: a session gone unseen (a missed purge, its TTL) closes the socket."""
        while True:
            await asyncio.sleep(GUARD_SECONDS)
            try:
                await self.acting(fresh=True)
            except FrameError:
                self.end_session()
                return
            except (NatsError, OSError, TimeoutError):
                continue  # NATS away for now: asked again next time

    def _queue(self, item: tuple[str, Frame | str]) -> None:
        if not self.outbox.put(item):
            log.warning("socket of %s fell behind; closing it", self.identity)

    async def writer(self) -> None:
        while True:
            for item in await self.outbox.take():
                if item is None:
                    await self.ws.close(message=b"too slow")
                    return
                if item is SESSION_ENDED:
                    await self.ws.close(code=CLOSE_CODE, message=b"session ended")
                    return
                kind, frame = item
                await self.ws.send_str(frame if isinstance(frame, str) else orjson.dumps(frame).decode())
                FRAMES_OUT.inc(kind)

    async def on_batch(self, feed: Feed, frames: BatchFrames) -> None:
        self._queue(("events", frames.text_for(self.identity)))
        if self.marks is not None and not self.marks.holds((feed.table_id, max(feed.table.seat_of(self.identity),
                                                                                WATCHING))):
            # a seat taken or left since the socket followed the table: marked now, for the clock would
            # otherwise find a player who sat down after opening the page away until the next refresh
            self.marks.poke()

    async def on_chat(self, table_id: str, lines: list[ChatLine]) -> None:
        self.send({"type": "chat", "table": table_id, "lines": lines})

    def _rate_ok(self) -> bool:
        now = time.monotonic()
        self.allowance = min(RATE, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def handle(self, raw: str) -> None:
        table, kind = None, None
        try:
            if len(raw) > MAX_FRAME:
                raise FrameError(Code.TOO_LARGE, f"frames are at most {MAX_FRAME} bytes")
            if not self._rate_ok():
                raise FrameError(Code.TOO_FAST, "too many frames; slow down")
            try:
                frame = orjson.loads(raw)
            except orjson.JSONDecodeError:
                raise FrameError(Code.BAD_FRAME, "a frame is a JSON object") from None
            if not isinstance(frame, dict):
                raise FrameError(Code.BAD_FRAME, "a frame is a JSON object")
            table = frame.get("table")
            kind = frame.get("type")
            if kind in _SOCKET_FRAMES:
                _SOCKET_FRAMES[kind](self)
            elif kind in _REQUEST_FRAMES:
                await _REQUEST_FRAMES[kind](self, frame)
            elif kind in _TABLE_FRAMES:
                if not isinstance(table, str) or not table or len(table) > 64 or not table.replace("-", "").isalnum():
                    raise FrameError(Code.BAD_FRAME, "the frame names no table")
                named = logs.TABLE_ID.set(table)  # the log lines of this frame's work name its table
                try:
                    await _TABLE_FRAMES[kind](self, table, frame)
                finally:
                    logs.TABLE_ID.reset(named)
            else:
                raise FrameError(Code.BAD_FRAME, f"unknown frame type {kind!r}")
        except FrameError as e:
            error: ErrorFrame = {"type": "error", "code": e.code, "message": str(e)}
            if isinstance(table, str):
                error["table"] = table
            self.send(error)
        finally:
            known = kind in _SOCKET_FRAMES or kind in _TABLE_FRAMES or kind in _REQUEST_FRAMES
            FRAMES_IN.inc(kind if isinstance(kind, str) and known else "invalid")
            if self.session is not None and self.session.ended:  # found so by this frame: its answer, then the close
                self.end_session()

    def pong(self) -> None:
        self.send({"type": "pong"})

    def watch_open_tables(self) -> None:
        """From now on, every change of an open table's lobby line (``open_table`` frames)."""
        if self.lobby is not None:
            self.lobby.watchers.add(self)

    def welcome(self) -> None:
        self.send({"type": "welcome", "v": PROTOCOL, "identity": self.identity, "name": self.name,
                   "client": client_build()})

    async def on_subscribe(self, table_id: str, frame: dict[str, Any]) -> None:
        await self.subscribe(table_id, frame.get("since"))

    async def unsubscribe(self, table_id: str, frame: dict[str, Any]) -> None:
        self.tables.discard(table_id)
        await self.feeds.unwatch(table_id, self)

    async def subscribe(self, table_id: str, since: Any) -> None:
        if table_id not in self.tables and len(self.tables) >= self.max_tables:
            raise FrameError(Code.TOO_MANY_TABLES, f"a connection follows at most {self.max_tables} tables")
        try:
            feed = await self.feeds.watch(table_id, self)
        except UnknownTable:
            raise FrameError(Code.UNKNOWN_TABLE, f"there is no table {table_id!r}") from None
        except Exception:
            log.exception("table %s could not be followed", table_id)
            raise FrameError(Code.UNAVAILABLE, "the table cannot be followed right now; subscribe again") from None
        self.tables.add(table_id)
        if self.marks is not None:
            self.marks.poke()
        missed = None
        if isinstance(since, int) and not isinstance(since, bool) and 0 < since <= feed.table.seq:
            missed = await self.feeds.replay(table_id, since, feed.table.seq,
                                             lambda t, seq, batch: events_frame(t, seq, batch, self.identity))
        if missed is None:
            self.send(state_frame(feed.table, self.identity))
        for frame in missed or ():
            self.send(frame)
        lines = [chat_line(x) for x in await history(self.nc.jetstream(), table_id)]
        self.send({"type": "chat", "table": table_id, "lines": lines})

    async def command(self, table_id: str, frame: dict[str, Any]) -> None:
        cid, body = frame.get("id"), frame.get("command")
        if not isinstance(cid, str) or not cid or len(cid) > 64 or not isinstance(body, dict):
            raise FrameError(Code.BAD_FRAME, "a command frame has an id and a command object")
        command_id = f"{self.identity}:{cid}"
        try:
            await self.acting(fresh=not is_move(body))  # a move trusts a check of the last seconds
            if "chat" in body:
                ack = await self._chat(table_id, command_id, body["chat"])
            else:
                ack = await self._table_command(table_id, command_id, body)
        except FrameError as e:
            ack = {"ok": False, "code": e.code, "message": str(e)}
        except (NatsError, OSError, TimeoutError):
            ack = {"ok": False, "code": Code.UNAVAILABLE, "message": "the table did not answer; send it again"}
        self.send({"type": "ack", "id": cid, **ack})

    async def _table_command(self, table_id: str, command_id: str, body: dict[str, Any]) -> Ack:
        cmd = table_pb2.TableCommand(command_id=command_id, table_id=table_id, actor=self.identity,
                                     actor_name=self.name)
        try:
            if is_move(body):
                feed = self.feeds.feeds.get(table_id)
                action_of(body, feed.table.seat_of(self.identity) if feed is not None else -1, cmd.act)
            else:
                names = [k for k in body if k in TABLE_COMMANDS]
                if len(names) != 1 or not isinstance(body[names[0]], dict):
                    raise FrameError(Code.BAD_COMMAND, "a command is a game action or one table command")
                sub: Message = getattr(cmd, names[0])
                json_format.ParseDict(body[names[0]], sub)
                sub.SetInParent()
                feed = self.feeds.feeds.get(table_id)
                if names[0] in ("join", "rematch") and feed is not None:  # a rematch stakes again
                    await self.seat(cmd, feed.table)
        except json_format.ParseError as e:
            raise FrameError(Code.BAD_COMMAND, f"malformed command: {e}") from None
        except MoveError as e:
            raise FrameError(Code.BAD_REQUEST, str(e)) from None
        reply = await deliver(self.nc, cmd)  # sent again through a stream's election: the tab never sees it
        if reply.WhichOneof("result") == "done":
            return {"ok": True, "seqs": list(reply.done.sequences), "seat": reply.done.seat}
        return {"ok": False, "code": reply.refusal.code, "message": reply.refusal.message}

    async def _chat(self, table_id: str, command_id: str, body: Any) -> Ack:
        body = body if isinstance(body, dict) else {}
        text, reaction = body.get("text", ""), body.get("reaction", "")  # a line says a text, or is a reaction
        if not isinstance(text, str) or not isinstance(reaction, str) or not (text or reaction):
            raise FrameError(Code.BAD_COMMAND, "a chat line has a text or a reaction")
        cmd = chat_pb2.ChatCommand(command_id=command_id, table_id=table_id, actor=self.identity,
                                   actor_name=self.name, text=text, reaction=reaction)
        reply = await post(self.nc, cmd)
        if reply.WhichOneof("result") == "posted":
            return {"ok": True, "seqs": [reply.posted.seq]}
        return {"ok": False, "code": reply.refusal.code, "message": reply.refusal.message}

    def seats(self) -> set[tuple[str, int]]:
        """The seats this socket's player holds at the tables it follows (``WATCHING`` where it holds none)."""
        return {(table_id, max(feed.table.seat_of(self.identity), WATCHING)) for table_id in self.tables
                if (feed := self.feeds.feeds.get(table_id)) is not None}

    async def quick_match(self, frame: dict[str, Any]) -> None:
        """Ask for a quick match (``ask``: the body of POST /api/quick-match), or take a ticket back
        (``cancel``: a ticket); the ack carries the HTTP API's answer, and a waiting ticket's table
        comes later as ``{"type":"quick_match","ticket","status","table_id"}``."""
        cid, ask, cancel = frame.get("id"), frame.get("ask"), frame.get("cancel")
        asked = isinstance(ask, dict) or isinstance(cancel, str)
        if not isinstance(cid, str) or not cid or len(cid) > 64 or not asked:
            raise FrameError(Code.BAD_FRAME, "a quick_match frame has an id, and an ask object or a ticket to cancel")
        if self.quick is None:
            raise FrameError(Code.UNAVAILABLE, "the quick match is not offered here")
        try:
            await self.acting(fresh=True)
            if isinstance(cancel, str):
                answer = await self.quick.cancel(cancel, self.identity)
                waiting = self.matching.pop(cancel, None)
                if waiting is not None:
                    waiting.cancel()
            else:
                answer = await self.quick.ask(self.identity, self.name, self.account, ask or {})
                if answer["status"] == "waiting":
                    ticket = answer["ticket"]
                    self.matching[ticket] = asyncio.create_task(self._until_matched(ticket))
            ack = matched(answer)
        except (Refusal, FrameError) as e:
            ack = {"ok": False, "code": e.code, "message": str(e)}
        except (NatsError, OSError, TimeoutError):
            ack = {"ok": False, "code": Code.UNAVAILABLE, "message": "the quick match did not answer; ask again"}
        self.send({"type": "ack", "id": cid, **ack})

    async def _until_matched(self, ticket: str) -> None:
        """Long-poll the ticket for the socket (which keeps it seen) until it is no longer waiting."""
        assert self.quick is not None
        while True:
            try:
                answer = await self.quick.wait(ticket, MAX_WAIT)
            except Refusal:
                await asyncio.sleep(1.0)
                continue
            if answer["status"] != "waiting":
                self.matching.pop(ticket, None)
                self.send({"type": "quick_match", "ticket": ticket, **answer})
                return

    async def close(self) -> None:
        for ticket, waiting in list(self.matching.items()):  # a closed tab leaves the queue at once
            waiting.cancel()
            if self.quick is not None:
                with contextlib.suppress(Refusal):
                    await self.quick.cancel(ticket, self.identity)
        self.matching.clear()
        if self.lobby is not None:
            self.lobby.watchers.discard(self)
        for table_id in list(self.tables):
            await self.feeds.unwatch(table_id, self)
        self.tables.clear()


_SOCKET_FRAMES: dict[str, Callable[[Socket], None]] = {"ping": Socket.pong, "hello": Socket.welcome,
                                                       "open_tables": Socket.watch_open_tables}
# A tab's frames are JSON from outside: dict[str, Any] until each handler has checked what it reads.
_REQUEST_FRAMES: dict[str, Callable[[Socket, dict[str, Any]], Awaitable[None]]] = {"quick_match": Socket.quick_match}
_TABLE_FRAMES: dict[str, Callable[[Socket, str, dict[str, Any]], Awaitable[None]]] = {
    "subscribe": Socket.on_subscribe, "unsubscribe": Socket.unsubscribe, "command": Socket.command,
}
"""What each kind of frame from a tab does (a table's frames name a well-formed table)."""


async def serve_socket(request: web.Request, identity: str, name: str, feeds: Feeds, nc: NATS,
                       sockets: Sockets, address: str, session: SessionCheck | None,
                       presence: KeyValue | None = None, lobby: OpenTables | None = None,
                       quick: QuickMatch | None = None) -> web.WebSocketResponse:
    refused = sockets.admit(identity, address)
    if refused is not None:
        raise web.HTTPTooManyRequests(text=orjson.dumps({"error": {"code": Code.TOO_MANY_SOCKETS,
                                                                   "message": refused}}).decode(),
                                      content_type="application/json")
    async def seat(cmd: table_pb2.TableCommand, t: Table) -> None:
        try:
            await vouch(cmd, session is not None, address, t.salt, t.stake, request.app[DB_KEY], request.app[ZONE_KEY],
                        nc.jetstream())
        except (SQLAlchemyError, OSError):
            raise FrameError(Code.UNAVAILABLE, "your chips cannot be read right now; send it again") from None

    ws = web.WebSocketResponse(heartbeat=25, max_msg_size=64 * 1024)
    sock = Socket(ws, identity, name, feeds, nc, sockets.limits.tables, seat,
                  Marks(presence, uuid.uuid4().hex[:12]) if presence is not None else None, lobby, quick, session)
    try:
        await ws.prepare(request)
        sockets.open.add(ws)
        sockets.hold(sock)
        metrics.WEBSOCKETS_OPENED.inc()
        with metrics.WEBSOCKETS_OPEN.track_inprogress():
            await _serve(ws, sock)
    finally:
        sockets.open.discard(ws)
        sockets.release(identity, address)
        sockets.drop(sock)
    return ws


async def _serve(ws: web.WebSocketResponse, sock: Socket) -> None:
    writer = asyncio.create_task(sock.writer(), name=f"ws-writer-{uuid.uuid4().hex[:6]}")
    marking = asyncio.create_task(sock.marks.keep(sock.seats)) if sock.marks is not None else None
    guarding = asyncio.create_task(sock.guard()) if sock.session is not None else None
    try:
        # held only now: a session ended since the handshake read it was not seen by the watch
        try:
            await sock.acting(fresh=True)
        except FrameError:
            sock.end_session()
        except (NatsError, OSError, TimeoutError):
            pass  # NATS away for now: the guard asks again
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await sock.handle(msg.data)
            elif msg.type == WSMsgType.BINARY:
                FRAMES_IN.inc("invalid")
                sock.send({"type": "error", "code": Code.BAD_FRAME, "message": "frames are JSON text"})
            elif msg.type == WSMsgType.ERROR:
                break
    finally:
        if guarding is not None:
            await stop(guarding)
        if marking is not None and sock.marks is not None:
            await stop(marking)
            await sock.marks.clear()
        await sock.close()
        await stop(writer)
