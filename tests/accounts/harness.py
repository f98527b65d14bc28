"""The accounts service on a real JetStream, and a client sending it requests as the gateway does."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import nats
from nats.aio.client import Client as NATS

from maumau.v1 import accounts_pb2
from services.accounts.client import send
from services.accounts.service import AccountsService
from services.accounts.store import AccountStore


@dataclass
class Accounts:
    nc: NATS
    store: AccountStore
    service: AccountsService

    async def ask(self, account_id: str, **body: Any) -> accounts_pb2.AccountReply:
        cmd = accounts_pb2.AccountCommand(command_id=uuid.uuid4().hex, table_id=account_id, actor="test", **body)
        return await send(self.nc, cmd)

    async def register(self, name: str, password: str = "segredo-forte", guest: str = "") -> str:
        """A new account's id (raises when refused)."""
        account_id = uuid.uuid4().hex[:24]
        reply = await self.ask(account_id, register=accounts_pb2.Register(name=name, password=password, guest=guest))
        assert reply.WhichOneof("result") == "account", reply.refusal.code
        return account_id


def code(reply: accounts_pb2.AccountReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "account"


@contextlib.asynccontextmanager
async def accounts_service(nats_url: str) -> AsyncIterator[Accounts]:
    nc = await nats.connect(nats_url)
    store = AccountStore(nc.jetstream())
    await store.ensure_stream()
    service = AccountsService(store=store)
    task = asyncio.create_task(service.serve(nc))
    await service.answering.wait()
    try:
        yield Accounts(nc, store, service)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await nc.close()
