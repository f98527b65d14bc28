"""An account's life, pure: what a request decides (events) and what an event does (``evolve``).

The service hands the domain what needs the outside world: a new password's hash, whether
an old password was right, the time. Names are claimed by the service before the events
are stored (``store.Claims``).

>>> a = Account("a1")
>>> for seq, ev in enumerate(register(a, "Zoë", "$argon2id$h", "g-1", now=0.0), 1):
...     evolve(a, seq, ev)
>>> (a.exists, a.name, a.identity, a.seq)
(True, 'Zoë', 'g-1', 2)
>>> evolve(a, 3, rename(a, "Zoe Lima", now=0.0)[0])
>>> (a.name, Account("a2").identity)
('Zoe Lima', 'a-a2')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from maumau.v1 import accounts_pb2
from services.accounts.names import display_name
from services.runtime.refusals import Code, Refused

AVATAR = re.compile(r"[a-z0-9-]{1,32}")  # an avatar's name in the client's set (which one is the client's to say)


@dataclass
class Account:
    account_id: str
    exists: bool = False
    name: str = ""
    avatar: str = ""
    password_hash: str = ""
    guest: str = ""  # the guest identity it converted, if any
    staff: bool = False  # granted the staff role: settles disputes (docs/disputes.md)
    registered_at: float = 0.0  # when, in seconds since the epoch
    seq: int = 0

    @property
    def identity(self) -> str:
        """Who the account plays as: the guest it converted (its seats stay its own), else an identity of its own."""
        return self.guest or f"a-{self.account_id}"

    def view(self) -> accounts_pb2.Account:
        return accounts_pb2.Account(account_id=self.account_id, name=self.name, avatar=self.avatar,
                                    identity=self.identity, staff=self.staff)


def _event(now: float, **body: object) -> accounts_pb2.AccountEvent:
    ev = accounts_pb2.AccountEvent(**body)
    ev.time.FromNanoseconds(int(now * 1e9))
    return ev


def existing(a: Account) -> Account:
    if not a.exists:
        raise Refused(Code.NO_ACCOUNT, "there is no such account")
    return a


def register(a: Account, name: str, password_hash: str, guest: str, *, now: float) -> list[accounts_pb2.AccountEvent]:
    if a.exists:
        raise Refused(Code.ALREADY_REGISTERED, "this account exists already")
    events = [_event(now, registered=accounts_pb2.AccountRegistered(name=display_name(name),
                                                                    password_hash=password_hash))]
    if guest:
        events.append(_event(now, guest_linked=accounts_pb2.GuestLinked(identity=guest)))
    return events


def rename(a: Account, name: str, *, now: float) -> list[accounts_pb2.AccountEvent]:
    shown = display_name(name)
    if shown == existing(a).name:
        return []
    return [_event(now, renamed=accounts_pb2.AccountRenamed(name=shown, previous=a.name))]


def choose_avatar(a: Account, avatar: str, *, now: float) -> list[accounts_pb2.AccountEvent]:
    if not AVATAR.fullmatch(avatar):
        raise Refused(Code.BAD_AVATAR, "an avatar is named by 1 to 32 letters, digits or dashes")
    if avatar == existing(a).avatar:
        return []
    return [_event(now, avatar_chosen=accounts_pb2.AvatarChosen(avatar=avatar))]


def change_password(a: Account, old_was_right: bool, new_hash: str, *, now: float) -> list[accounts_pb2.AccountEvent]:
    existing(a)
    if not old_was_right:
        raise Refused(Code.BAD_CREDENTIALS, "the old password is not right")
    return [_event(now, password_changed=accounts_pb2.PasswordChanged(password_hash=new_hash))]


def set_staff(a: Account, staff: bool, *, now: float) -> list[accounts_pb2.AccountEvent]:
    """Grant or revoke the staff role (``maumau staff grant|revoke NAME``); asked twice, nothing more."""
    if staff == existing(a).staff:
        return []
    return [_event(now, staff_changed=accounts_pb2.StaffChanged(staff=staff))]


def _registered(a: Account, ev: accounts_pb2.AccountEvent) -> None:
    a.exists, a.name, a.password_hash = True, ev.registered.name, ev.registered.password_hash
    a.registered_at = ev.time.ToNanoseconds() / 1e9


def _renamed(a: Account, ev: accounts_pb2.AccountEvent) -> None:
    a.name = ev.renamed.name


def _avatar(a: Account, ev: accounts_pb2.AccountEvent) -> None:
    a.avatar = ev.avatar_chosen.avatar


def _password(a: Account, ev: accounts_pb2.AccountEvent) -> None:
    a.password_hash = ev.password_changed.password_hash


def _guest(a: Account, ev: accounts_pb2.AccountEvent) -> None:
    a.guest = ev.guest_linked.identity


def _staff(a: Account, ev: accounts_pb2.AccountEvent) -> None:
    a.staff = ev.staff_changed.staff


_EVOLVE: dict[str, Callable[[Account, accounts_pb2.AccountEvent], None]] = {
    "registered": _registered, "renamed": _renamed, "avatar_chosen": _avatar, "password_changed": _password,
    "guest_linked": _guest, "staff_changed": _staff,
}


def evolve(a: Account, seq: int, ev: accounts_pb2.AccountEvent) -> None:
    """Fold one stored event (``seq``: its batch's stream sequence) into the account."""
    _EVOLVE[ev.WhichOneof("body") or ""](a, ev)
    a.seq = seq
