"""The platform's Ed25519 signing key: it signs exports (``maumau export``); anyone checks them with its public half.

The private key is a PEM file (PKCS #8, unencrypted, readable by its owner only) at
``MAUMAU_SIGNING_KEY``; ``maumau up`` makes one in its data directory when there is none,
and the gateway serves the public half at ``GET /api/signing-key`` (PEM).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "key.pem"
>>> ensure_key(path)
>>> key = load_key(path)
>>> check(load_public(public_pem(key)), b"statement", key.sign(b"statement"))
True
>>> check(load_public(public_pem(key)), b"another", key.sign(b"statement"))
False
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


def ensure_key(path: Path) -> None:
    """Make a key at ``path`` unless there is one (never replaced: exports signed with it stay checkable)."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)


def load_key(path: Path) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 key")
    return key


def public_pem(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def load_public(pem: bytes) -> Ed25519PublicKey:
    key = serialization.load_pem_public_key(pem)
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 public key")
    return key


def check(key: Ed25519PublicKey, message: bytes, signature: bytes) -> bool:
    try:
        key.verify(signature, message)
    except InvalidSignature:
        return False
    return True
