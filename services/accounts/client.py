"""Sending a request to the accounts service, as the gateway does (with the sender's trace context, never a secret)."""

from __future__ import annotations

from nats.aio.client import Client as NATS

from maumau.v1 import accounts_pb2
from services.runtime import tracing
from services.runtime.subjects import account_command


async def send(nc: NATS, cmd: accounts_pb2.AccountCommand, timeout: float = 10) -> accounts_pb2.AccountReply:
    """The accounts service's reply to ``cmd`` (raises NATS' errors when it does not answer in time)."""
    raw = await tracing.request(nc, account_command(cmd.table_id), cmd.SerializeToString(), "send account request",
                                timeout, {"maumau.account_id": cmd.table_id})
    return accounts_pb2.AccountReply.FromString(raw.data)
