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
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")


def _words(seed: str, label: str) -> Iterator[int]:
    base = bytes.fromhex(seed) + b"|" + label.encode() + b"|"
    counter = 0
    while True:
        digest = hashlib.sha256(base + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    limit = (1 << 32) - (1 << 32) % n
    while True:
        w = next(words)
        if w < limit:
            return w % n


def choice_index(n: int, seed: str, label: str) -> int:
    """A number in ``range(n)`` drawn from the seed under ``label``."""
    return _below(_words(seed, label), n)


def shuffled(items: list[T], seed: str, label: str) -> list[T]:
    """A new list: ``items`` in the order the seed gives under ``label``."""
    out = list(items)
    words = _words(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = _below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def commitment(table_id: str, round_no: int, seed: str) -> str:
    """The SHA-256 shown at the deal, which the revealed seed must match."""
    return hashlib.sha256(f"{table_id}|{round_no}|{seed}".encode()).hexdigest()


def verify_commitment(table_id: str, round_no: int, seed: str, commit: str) -> bool:
    return hmac.compare_digest(commitment(table_id, round_no, seed), commit)
