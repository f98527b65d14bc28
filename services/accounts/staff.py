"""``maumau staff grant|revoke NAME``: the staff role, an event of the account's stream (docs/disputes.md).

The account is found by its name's claim (any spelling of it) and the request goes to the
accounts service, the one writer of the ACCOUNTS stream, as the gateway's requests do. The
gateway never sends it: the role is given by whoever runs the platform.
"""

from __future__ import annotations

import uuid
from typing import TextIO

from nats.aio.client import Client as NATS

from maumau.v1 import accounts_pb2
from services.accounts.client import send
from services.accounts.names import name_key
from services.accounts.store import AccountStore
from services.runtime.platform import tool_connect
from services.runtime.refusals import Code


async def set_staff(nc: NATS, name: str, staff: bool) -> accounts_pb2.AccountReply:
    """The accounts service's answer to granting (or revoking) the role of the account called ``name``."""
    account_id = await AccountStore(nc.jetstream()).holder(name_key(name))
    if not account_id:
        return accounts_pb2.AccountReply(refusal={"code": Code.NO_ACCOUNT, "message": f"nobody is called {name!r}"})
    cmd = accounts_pb2.AccountCommand(command_id=uuid.uuid4().hex, table_id=account_id, actor="maumau staff",
                                      set_staff=accounts_pb2.SetStaff(staff=staff))
    return await send(nc, cmd)


async def staff_command(nats_url: str, name: str, staff: bool, out: TextIO) -> int:
    nc = await tool_connect(nats_url)
    try:
        reply = await set_staff(nc, name, staff)
    finally:
        await nc.close()
    if reply.WhichOneof("result") == "refusal":
        print(f"{reply.refusal.code}: {reply.refusal.message}", file=out)
        return 1
    print(f"{reply.account.name} is {'now' if reply.account.staff else 'no longer'} staff", file=out)
    return 0
