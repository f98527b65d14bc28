"""The quick match ("Jogar agora") as an application service: a ticket asked, waited on, cancelled.

The pools live in a key-value bucket every replica shares (``services/matchmaking/store.py``).
The replica whose request fills a pool creates the table, full and started; any replica asked
about a matched ticket whose table does not exist yet creates it too (the same command id:
stored once), so a replica that dies between the two loses nobody. The gateway offers it over
HTTP and over the socket (docs/matchmaking.md); answers are the HTTP API's bodies.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from cachetools import LRUCache
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError

from maumau.v1 import table_pb2
from services.matchmaking.pool import Group
from services.matchmaking.store import AlreadyWaiting, Busy, Matchmaking, NotYours, pool_key
from services.rules.rulesets import OptionError, make_ruleset
from services.rules.wire import option_to_pb
from services.runtime.refusals import Code
from services.table.client import deliver
from services.table.domain import Status
from services.table.repository import Tables

TURN_SECONDS = (0, 15, 30, 60, 120)  # the speeds offered: 0 is no turn timer
REMEMBERED = 1000  # tables created lately kept in mind (_creation): half a minute of 2,000 players asking
UNREACHABLE = (NatsError, OSError, TimeoutError)


class Answer(TypedDict):
    """A ticket's state as POST/GET/DELETE /api/quick-match and the socket's ``quick_match`` frames say it."""

    ticket: NotRequired[str]  # in the answer to an ask only
    status: str
    table_id: str | None


class Refusal(Exception):
    """A quick-match request refused: ``code`` and message as the HTTP API's errors and the socket's acks say."""

    def __init__(self, status: int, code: Code, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _whole(body: dict[str, Any], name: str, default: int) -> int:
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refusal(400, Code.BAD_OPTIONS, f"{name} is a whole number")
    return value


@dataclass
class QuickMatch:
    """The quick match as the HTTP API and the WebSocket both offer it."""

    pools: Matchmaking
    nc: NATS
    tables: Tables
    # the tables this replica creates or created lately: the polls it answers the moment a group forms here
    # wait for that creation instead of reading the table and sending its creation again, one each
    created: LRUCache[str, asyncio.Task[None]] = field(default_factory=lambda: LRUCache(REMEMBERED))

    async def ask(self, identity: str, name: str, account: bool, body: dict[str, Any]) -> Answer:
        ruleset, seats = str(body.get("ruleset", "")), _whole(body, "seats", 2)
        turn = _whole(body, "turn_seconds", 0)
        try:
            make_ruleset(ruleset, {}).check_seats(seats)
        except OptionError as e:
            raise Refusal(400, Code.BAD_OPTIONS, str(e)) from None
        if turn not in TURN_SECONDS:
            raise Refusal(400, Code.BAD_OPTIONS, f"turn_seconds is one of {TURN_SECONDS} (0: no timer)")
        try:
            ticket, state, table_id, group = await self.pools.ask(pool_key(ruleset, seats, turn), seats, identity, name,
                                                                  account, time.time())
            if group is not None:
                await asyncio.shield(self._creation(group))
        except AlreadyWaiting:
            raise Refusal(409, Code.ALREADY_WAITING, "you are waiting for another quick match already (another tab?): "
                          "cancel it first") from None
        except (Busy, *UNREACHABLE):
            raise Refusal(503, Code.UNAVAILABLE, "the quick match did not answer; try again") from None
        return {"ticket": ticket, "status": state, "table_id": table_id or None}

    async def wait(self, ticket: str, seconds: float) -> Answer:
        try:
            state, table_id, group = await self.pools.wait(ticket, seconds)
            if group is not None and (table_id in self.created
                                      or (await self.tables.get(table_id)).status == Status.NONE):
                await asyncio.shield(self._creation(group))
        except UNREACHABLE:
            raise Refusal(503, Code.UNAVAILABLE, "the quick match did not answer; try again") from None
        return {"status": state, "table_id": table_id or None}

    async def cancel(self, ticket: str, identity: str) -> Answer:
        """Take the caller's ticket back; another player's is refused as if it did not exist."""
        try:
            state, table_id = await self.pools.cancel(ticket, identity)
        except NotYours:
            raise Refusal(404, Code.UNKNOWN_TICKET, "no such ticket of yours") from None
        except (Busy, *UNREACHABLE):
            raise Refusal(503, Code.UNAVAILABLE, "the quick match did not answer; try again") from None
        return {"status": state, "table_id": table_id or None}

    def _creation(self, group: Group) -> asyncio.Task[None]:
        """The creation of the group's table by this replica, begun now or earlier (forgotten if it failed)."""
        task = self.created.get(group.table_id)
        if task is None:
            task = self.created[group.table_id] = asyncio.ensure_future(self._create(group))
            task.add_done_callback(lambda t: t.cancelled() or t.exception() is None
                                   or self.created.pop(group.table_id, None))
        return task

    async def _create(self, group: Group) -> None:
        """The group's table, full and started (a table that exists already is left as it is)."""
        ruleset, seats, turn = group.tickets[0].ticket.rsplit(".", 1)[0].split("-")
        first, *others = group.tickets
        create = table_pb2.CreateTable(ruleset=ruleset, seats=int(seats), start=True, salt=secrets.token_hex(16),
                                       seated=[table_pb2.Player(identity=t.identity, name=t.name, account=t.account)
                                               for t in others])
        if int(turn):
            create.options["turn_seconds"].CopyFrom(option_to_pb(int(turn)))
        cmd = table_pb2.TableCommand(command_id=f"quick-{group.table_id}", table_id=group.table_id,
                                     actor=first.identity, actor_name=first.name, actor_account=first.account,
                                     create=create)
        reply = await deliver(self.nc, cmd)  # sent again through a stream's election
        if reply.WhichOneof("result") == "refusal" and reply.refusal.code != Code.TABLE_EXISTS:
            raise Refusal(409, reply.refusal.code, reply.refusal.message)
