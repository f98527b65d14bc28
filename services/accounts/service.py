"""The accounts service: requests about one account on ``cmd.accounts.<account_id>``, its events on ``accounts.<id>``.

Each request folds the account from its stream (a handful of batches: nothing is cached,
so every replica answers from the truth), decides with the pure domain and stores the
events with the expected last sequence of the account's subject. Names (and converted
guests) are claimed in the claims bucket before the events are stored and released after
(``store``). A new password's check (its strength estimated) and Argon2 run in a worker
thread; a password is never logged, put in a span attribute or stored but as its hash.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import ClassVar, ParamSpec, TypeVar

from maumau.v1 import accounts_pb2, table_pb2
from services.accounts import domain, passwords
from services.accounts.domain import Account
from services.accounts.names import name_key
from services.accounts.store import AccountStore, guest_key
from services.eventlog.repository import fold_stream
from services.eventlog.store import Conflict
from services.runtime import tracing
from services.runtime.commands import CommandService
from services.runtime.refusals import Code, Refused

Events = list[accounts_pb2.AccountEvent]
P = ParamSpec("P")
T = TypeVar("T")
HASHES_AT_ONCE = 2  # each takes 64 MiB for ~50 ms: a burst of logins must not take the pod's memory


@dataclass
class AccountsService(CommandService[accounts_pb2.AccountCommand, accounts_pb2.AccountReply]):
    kind: ClassVar[str] = "accounts"
    expected: ClassVar[tuple[type[Exception], ...]] = (Conflict,)
    log: ClassVar[logging.Logger] = logging.getLogger("maumau.accounts")
    store: AccountStore
    clock: Callable[[], float] = time.time
    hashing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(HASHES_AT_ONCE))

    def parse(self, data: bytes) -> accounts_pb2.AccountCommand:
        return accounts_pb2.AccountCommand.FromString(data)

    def refusal(self, code: str, message: str) -> accounts_pb2.AccountReply:
        return accounts_pb2.AccountReply(refusal=table_pb2.Refusal(code=code, message=message))

    def span(self, cmd: accounts_pb2.AccountCommand) -> tuple[str, dict[str, str]]:
        what = cmd.WhichOneof("body") or ""
        return f"accounts {what}", {"maumau.account_id": cmd.table_id, "maumau.command": what}

    async def decide(self, cmd: accounts_pb2.AccountCommand) -> accounts_pb2.AccountReply:
        handler = self._requests().get(cmd.WhichOneof("body") or "")
        if handler is None:
            raise Refused(Code.BAD_REQUEST, "the request names nothing to do")
        a = await self.store.load(cmd.table_id)
        await handler(cmd, a)
        return accounts_pb2.AccountReply(account=a.view())

    def _requests(self) -> dict[str, Callable[[accounts_pb2.AccountCommand, Account], Awaitable[None]]]:
        """One handler per kind of request: each stores what it decides and folds it into the account."""
        return {"authenticate": self._authenticate, "register": self._register, "rename": self._rename,
                "choose_avatar": self._choose_avatar, "change_password": self._change_password,
                "set_staff": self._set_staff}

    async def _argon2(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Hash or verify in a worker thread (the loop keeps answering), a few at a time."""
        async with self.hashing:
            return await asyncio.to_thread(work, *args, **kwargs)

    async def _authenticate(self, cmd: accounts_pb2.AccountCommand, a: Account) -> None:
        """Nothing stored: the password is right, or the same refusal whether or not the account exists."""
        if not await self._argon2(passwords.verify, a.password_hash, cmd.authenticate.password):
            raise Refused(Code.BAD_CREDENTIALS, "the name or the password is not right")

    async def _register(self, cmd: accounts_pb2.AccountCommand, a: Account) -> None:
        r = cmd.register
        hashed = await self._argon2(passwords.checked_hash, r.password, r.name)
        events = domain.register(a, r.name, hashed, r.guest, now=self.clock())
        if r.guest and not await self.store.claim(guest_key(r.guest), a.account_id):
            raise Refused(Code.GUEST_TAKEN, "this guest has become an account already")
        if not await self.store.claim(name_key(r.name), a.account_id):
            if r.guest:
                await self.store.release(guest_key(r.guest), a.account_id)
            raise Refused(Code.NAME_TAKEN, "someone has this name already")
        await self._store(cmd, a, events)

    async def _rename(self, cmd: accounts_pb2.AccountCommand, a: Account) -> None:
        """The new name is claimed before the event is stored, the old one released after."""
        old, new = name_key(a.name), name_key(cmd.rename.name)
        events = domain.rename(a, cmd.rename.name, now=self.clock())
        if new != old and not await self.store.claim(new, a.account_id):
            raise Refused(Code.NAME_TAKEN, "someone has this name already")
        await self._store(cmd, a, events)
        if new != old:
            await self.store.release(old, a.account_id)

    async def _choose_avatar(self, cmd: accounts_pb2.AccountCommand, a: Account) -> None:
        await self._store(cmd, a, domain.choose_avatar(a, cmd.choose_avatar.avatar, now=self.clock()))

    async def _change_password(self, cmd: accounts_pb2.AccountCommand, a: Account) -> None:
        c = cmd.change_password
        right = await self._argon2(passwords.verify, domain.existing(a).password_hash, c.old_password)
        hashed = await self._argon2(passwords.checked_hash, c.new_password, a.name)
        await self._store(cmd, a, domain.change_password(a, right, hashed, now=self.clock()))

    async def _set_staff(self, cmd: accounts_pb2.AccountCommand, a: Account) -> None:
        """The staff role, granted or revoked by ``maumau staff`` (the gateway never sends this request)."""
        await self._store(cmd, a, domain.set_staff(a, cmd.set_staff.staff, now=self.clock()))

    async def _store(self, cmd: accounts_pb2.AccountCommand, a: Account, events: Events) -> None:
        """Append the events (a re-sent command is stored once) and fold them into ``a``."""
        if not events:
            return
        seq, duplicate = await self.store.append(a.account_id, accounts_pb2.AccountEventBatch(events=events), a.seq,
                                                 cmd.command_id, tracing.inject())
        self.stats["duplicates" if duplicate else "stored"] += 1
        fold_stream(a, ((seq, events),), domain.evolve)
