"""The lobby's open tables, live: one subscription per gateway to the table service's announcements,
forwarded to the sockets that asked (``{"type": "open_tables"}``) as ``open_table`` frames."""

from __future__ import annotations

import json
import logging
from typing import Any, Literal, Protocol, TypedDict

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from services.runtime.subjects import OPEN_TABLES

log = logging.getLogger("maumau.gateway")


class OpenTableFrame(TypedDict):
    type: Literal["open_table"]
    table: dict[str, Any]  # the table service's line as it announced it (services/table/lobby.py), JSON from outside


class Watcher(Protocol):
    def send(self, frame: OpenTableFrame) -> None: ...


class OpenTables:
    def __init__(self) -> None:
        self.watchers: set[Watcher] = set()

    async def follow(self, nc: NATS) -> Subscription:
        return await nc.subscribe(OPEN_TABLES, cb=self._forward)

    async def _forward(self, msg: Msg) -> None:
        try:
            line = json.loads(msg.data)
        except ValueError:
            log.warning("an open table's line that is no JSON; dropped")
            return
        for watcher in list(self.watchers):
            watcher.send({"type": "open_table", "table": line})
