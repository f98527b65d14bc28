"""Passwords: checked for length, stored as Argon2id hashes, verified in the same time with or without an account.

Hashing costs some 50 ms of CPU and 64 MiB (argon2-cffi's defaults, RFC 9106's second
recommended profile): the calls run in a worker thread, so the service's loop keeps answering.

>>> hashed = hash_password("correct horse")
>>> hashed.startswith("$argon2id$"), verify(hashed, "correct horse"), verify(hashed, "wrong horse")
(True, True, False)
>>> verify("", "anything")  # no account: a dummy hash is verified, the answer is no
False
"""

from __future__ import annotations

import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from services.runtime.refusals import Refused

MIN_CHARS, MAX_CHARS = 8, 256
HASHER = PasswordHasher()  # Argon2id


def check(password: str) -> str:
    """The password if it may be one; no rule on its letters: length is what makes it hard to guess."""
    if not MIN_CHARS <= len(password) <= MAX_CHARS:
        raise Refused("bad_password", f"a password has {MIN_CHARS} to {MAX_CHARS} characters")
    return password


def hash_password(password: str) -> str:
    return HASHER.hash(password)


@functools.cache
def _dummy() -> str:
    return HASHER.hash("not the password of anyone")


def verify(hashed: str, password: str) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from; ``""`` (no account) costs the same and says no."""
    try:
        return HASHER.verify(hashed or _dummy(), password) and bool(hashed)
    except (VerificationError, InvalidHashError):
        return False
