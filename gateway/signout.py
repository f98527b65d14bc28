"""``maumau staff sign-out NAME``: an operator ends every session of an account (a stolen session, a
takeover reported), and every socket of them closes on every gateway replica (gateway/revocation.py)."""

from __future__ import annotations

from typing import TextIO

from gateway.sessions import Sessions
from services.accounts.names import name_key
from services.accounts.store import AccountStore
from services.runtime.platform import tool_connect


async def sign_out_command(nats_url: str, name: str, out: TextIO) -> int:
    nc = await tool_connect(nats_url)
    try:
        js = nc.jetstream()
        account_id = await AccountStore(js).holder(name_key(name))
        if not account_id:
            print(f"no_account: nobody is called {name!r}", file=out)
            return 1
        ended = await (await Sessions.open_bucket(js)).end_all(account_id)
    finally:
        await nc.close()
    print(f"{ended} session{'s' if ended != 1 else ''} of {name} ended", file=out)
    return 0
