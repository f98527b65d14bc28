"""Fair, replayable shuffling from a round seed, and the seed's commitment.

Every random choice of a round comes from its seed: the label names the choice
(``deal``, ``first``, ``reshuffle:1`` …) and the stream of numbers is SHA-256 in
counter mode over ``seed | label | counter``, read as big-endian 32-bit words; a
number below ``n`` is drawn by rejection, and a shuffle is Fisher–Yates from the
last position down. Any language can recompute it (see docs/shuffle.md).

>>> shuffled(list(range(5)), "00" * 32, "deal") == shuffled(list(range(5)), "00" * 32, "deal")
True
>>> c = commitment("t1", 0, "ab" * 32)
>>> verify_commitment("t1", 0, "ab" * 32, c), verify_commitment("t1", 1, "ab" * 32, c)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from typing import TypeVar

T = TypeVar("T")


class _Stream:
    """The seed's numbers under one label: SHA-256 blocks read as big-endian 32-bit words."""

    __slots__ = ("at", "base", "block", "pool")

    def __init__(self, seed: str, label: str):
        self.base = bytes.fromhex(seed) + b"|" + label.encode() + b"|"
        self.block = 0
        self.pool: tuple[int, ...] = ()
        self.at = 0

    def below(self, n: int) -> int:
        """The next number below ``n``, by rejection (unbiased)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            if self.at == len(self.pool):
                digest = hashlib.sha256(self.base + self.block.to_bytes(8, "big")).digest()
                self.pool = _WORDS.unpack(digest)
                self.block += 1
                self.at = 0
            w = self.pool[self.at]
            self.at += 1
            if w < limit:
                return w % n


_WORDS = struct.Struct(">8I")


def choice_index(n: int, seed: str, label: str) -> int:
    """A number in ``range(n)`` drawn from the seed under ``label``."""
    return _Stream(seed, label).below(n)


def shuffled(items: list[T], seed: str, label: str) -> list[T]:
    """A new list: ``items`` in the order the seed gives under ``label`` (Fisher–Yates, last position first)."""
    out = list(items)
    below = _Stream(seed, label).below
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def commitment(table_id: str, round_no: int, seed: str) -> str:
    """The SHA-256 shown at the deal, which the revealed seed must match."""
    return hashlib.sha256(f"{table_id}|{round_no}|{seed}".encode()).hexdigest()


def verify_commitment(table_id: str, round_no: int, seed: str, commit: str) -> bool:
    return hmac.compare_digest(commitment(table_id, round_no, seed), commit)
