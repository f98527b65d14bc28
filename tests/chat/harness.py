"""Chat tests' platform: the table platform (rules server, table service) plus a chat service replica."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import nats

from maumau.v1 import chat_pb2, table_pb2
from services.chat import store
from services.chat.service import ChatService, Settings
from services.runtime.subjects import chat_command
from services.table.store import EventStore
from tests.table.harness import Platform, platform


@dataclass
class ChatPlatform:
    tables: Platform
    service: ChatService

    async def say(self, table_id: str, actor: str, text: str, command_id: str | None = None) -> chat_pb2.ChatReply:
        cmd = chat_pb2.ChatCommand(command_id=command_id or uuid.uuid4().hex, table_id=table_id, actor=actor,
                                   text=text)
        reply = await self.tables.client.request(chat_command(table_id), cmd.SerializeToString(), timeout=10)
        return chat_pb2.ChatReply.FromString(reply.data)

    async def react(self, table_id: str, actor: str, reaction: str, text: str = "") -> chat_pb2.ChatReply:
        cmd = chat_pb2.ChatCommand(command_id=uuid.uuid4().hex, table_id=table_id, actor=actor, reaction=reaction,
                                   text=text)
        reply = await self.tables.client.request(chat_command(table_id), cmd.SerializeToString(), timeout=10)
        return chat_pb2.ChatReply.FromString(reply.data)

    async def history(self, table_id: str) -> list[chat_pb2.ChatLine]:
        return await store.history(self.tables.client.jetstream(), table_id)

    async def lobby(self, *humans: str, seats: int = 4) -> str:
        """A table in its lobby: alice created it, ``humans`` joined by its link."""
        tid = uuid.uuid4().hex[:16]
        created = await self.tables.send(tid, "alice", create=table_pb2.CreateTable(ruleset="classic32", seats=seats),
                                         name="Alice")
        for h in humans:
            await self.tables.send(tid, h, join=table_pb2.JoinTable(invitation=created.done.invitation),
                                   name=h.title())
        return tid


def code(reply: chat_pb2.ChatReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "posted"


@asynccontextmanager
async def chat_platform(nats_url: str, settings: Settings | None = None) -> AsyncIterator[ChatPlatform]:
    async with platform(nats_url) as tables:
        nc = await nats.connect(nats_url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)
        js = nc.jetstream()
        await store.ensure_stream(js)
        service = ChatService(js, EventStore(js), settings or Settings(), clock=tables.clock)
        task = asyncio.create_task(service.serve(nc))
        try:
            await asyncio.sleep(0.05)
            await nc.flush()
            yield ChatPlatform(tables, service)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await nc.close()
