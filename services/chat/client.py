"""Sending a line to the chat service, as the gateway does (with the sender's trace context)."""

from __future__ import annotations

from nats.aio.client import Client as NATS

from maumau.v1 import chat_pb2
from services.runtime import tracing
from services.runtime.subjects import chat_command


async def post(nc: NATS, cmd: chat_pb2.ChatCommand, timeout: float = 10) -> chat_pb2.ChatReply:
    """The chat service's reply to ``cmd`` (raises NATS' errors when it does not answer in time)."""
    raw = await tracing.request(nc, chat_command(cmd.table_id), cmd.SerializeToString(), "send chat line", timeout,
                                {"maumau.table_id": cmd.table_id})
    return chat_pb2.ChatReply.FromString(raw.data)
