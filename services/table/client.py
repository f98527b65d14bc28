"""Sending a command to the table service, as the gateway, the bots and the clock do.

The request carries the trace context of the sender's span, so the table service's span and
the events it stores continue the trace that began where the command was made.
"""

from __future__ import annotations

from nats.aio.client import Client as NATS

from maumau.v1 import table_pb2
from services.runtime import tracing
from services.runtime.subjects import table_command


async def send(nc: NATS, cmd: table_pb2.TableCommand, timeout: float = 10) -> table_pb2.CommandReply:
    """The table service's reply to ``cmd`` (raises NATS' errors when it does not answer in time)."""
    raw = await tracing.request(nc, table_command(cmd.table_id), cmd.SerializeToString(), "send table command",
                                timeout, {"maumau.table_id": cmd.table_id,
                                          "maumau.command": cmd.WhichOneof("command") or ""})
    return table_pb2.CommandReply.FromString(raw.data)
