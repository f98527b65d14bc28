"""Guests: a device token (the secret a browser keeps) and the identity derived from it.

>>> token = new_token()
>>> identity_of(token) == identity_of(token) and identity_of(token).startswith("g-")
True
>>> identity_of("")
Traceback (most recent call last):
...
ValueError: no token
"""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def identity_of(token: str) -> str:
    """The public identity of a token: knowing it does not let anyone act as its holder."""
    if not token or len(token) > 200:
        raise ValueError("no token")
    return "g-" + hashlib.sha256(token.encode()).hexdigest()[:24]


def clean_name(name: object, fallback: str = "") -> str:
    """A display name: text, trimmed, at most 24 characters, without control characters."""
    if not isinstance(name, str):
        return fallback
    kept = "".join(ch for ch in name if ch.isprintable()).strip()
    return kept[:24] or fallback


def address_hash(salt: str, address: str) -> str:
    """What a table keeps of a seat's network address: equal for two seats at one address, and nothing more.

    Salted per table, so that hashes cannot be matched across tables.

    >>> address_hash("s1", "10.0.0.1") == address_hash("s1", "10.0.0.1") != address_hash("s2", "10.0.0.1")
    True
    """
    return hashlib.sha256(f"{salt}\n{address}".encode()).hexdigest()[:32]
