"""The ACCOUNTS stream (one subject per account, one batch per command) and the claims on names and guests.

The stream is the truth about an account. What must be unique across accounts (a name,
whatever its case or accents; a guest identity converted) is claimed in a JetStream
key-value bucket by ``create``, which only one writer can win: the claim is taken before
the account's events are stored and released after. Not the SQL projection's unique index:
the projection lags the stream and is dropped and rebuilt from it, so it cannot be what
decides (docs/accounts.md).
"""

from __future__ import annotations

from nats.js import JetStreamContext
from nats.js.errors import BadRequestError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from maumau.v1 import accounts_pb2
from services.accounts.domain import Account, evolve
from services.eventlog.repository import fold_stream
from services.eventlog.store import WRONG_LAST_SEQUENCE, EventLog
from services.runtime import subjects

STREAM = "ACCOUNTS"
SUBJECTS = subjects.ACCOUNT_EVENTS
CLAIMS = "maumau_account_claims"  # name.<hash of the normalised name> and guest.<identity>: the account id


def guest_key(identity: str) -> str:
    return f"guest.{identity}"


class AccountStore:
    def __init__(self, js: JetStreamContext, replicas: int = 1, duplicate_window: float = 120.0):
        self.js = js
        self.replicas = replicas
        self.log = EventLog(js, STREAM, SUBJECTS, replicas, duplicate_window)
        self._claims: KeyValue | None = None

    async def ensure_stream(self) -> None:
        await self.log.ensure()
        await self.claims()

    async def claims(self) -> KeyValue:
        if self._claims is None:
            self._claims = await self.js.create_key_value(bucket=CLAIMS, history=1, replicas=self.replicas)
        return self._claims

    async def append(self, account_id: str, batch: accounts_pb2.AccountEventBatch, expected: int, command_id: str,
                     headers: dict[str, str] | None = None) -> tuple[int, bool]:
        """Store ``batch`` if the account's last sequence is ``expected``; returns (sequence, was a duplicate)."""
        return await self.log.append(subjects.account_events(account_id), account_id, batch.SerializeToString(),
                                     expected=expected, command_id=command_id, headers=headers)

    async def load(self, account_id: str) -> Account:
        """The account as its stream has it now (an account is a handful of batches: read whole)."""
        stored = await self.log.read(subjects.account_events(account_id))
        return fold_stream(Account(account_id),
                           ((m.seq, accounts_pb2.AccountEventBatch.FromString(m.data).events) for m in stored), evolve)

    async def holder(self, key: str) -> str:
        """The account holding a claim, or ``""``."""
        try:
            entry = await (await self.claims()).get(key)
        except KeyNotFoundError:
            return ""
        return (entry.value or b"").decode()

    async def claim(self, key: str, account_id: str) -> bool:
        """Take ``key`` for the account; True also when it holds it already (a command sent again)."""
        try:
            await (await self.claims()).create(key, account_id.encode())
        except KeyWrongLastSequenceError:
            return await self.holder(key) == account_id
        return True

    async def release(self, key: str, account_id: str) -> None:
        """Give ``key`` back, if the account still holds it."""
        kv = await self.claims()
        try:
            entry = await kv.get(key)
        except KeyNotFoundError:
            return
        if entry.value == account_id.encode():
            try:
                await kv.delete(key, last=entry.revision)
            except BadRequestError as e:
                if e.err_code != WRONG_LAST_SEQUENCE:
                    raise  # else: released and taken meanwhile, by someone else now
