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
from collections.abc import Iterator
from itertools import chain, count
from typing import TypeVar

T = TypeVar("T")


def _words(seed: str, label: str) -> Iterator[int]:
    """The seed's numbers under one label: SHA-256 blocks read as big-endian 32-bit words.

    Chained in C (``chain``): Python runs once a block, not once a word.
    """
    base = bytes.fromhex(seed) + b"|" + label.encode() + b"|"
    sha256, unpack = hashlib.sha256, _WORDS.unpack
    return chain.from_iterable(unpack(sha256(base + block.to_bytes(8, "big")).digest()) for block in count())


_WORDS = struct.Struct(">8I")
_SPAN = 1 << 32


def _below(words: Iterator[int], n: int) -> int:
    """The next number below ``n``, by rejection (unbiased)."""
    limit = _SPAN - _SPAN % n
    while True:
        w = next(words)  # the stream is endless
        if w < limit:
            return w % n


def choice_index(n: int, seed: str, label: str) -> int:
    """A number in ``range(n)`` drawn from the seed under ``label``."""
    return _below(_words(seed, label), n)


def shuffled(items: list[T], seed: str, label: str) -> list[T]:
    """A new list: ``items`` in the order the seed gives under ``label`` (Fisher–Yates, last position first)."""
    out = list(items)
    words = _words(seed, label)
    for i, w in zip(range(len(out) - 1, 0, -1), words, strict=False):  # the words never run out
        n = i + 1
        # ``_below(words, n)``, its first word taken by ``zip``: a word is rejected once in 2**32 / n
        j = w % n if w < _SPAN - _SPAN % n else _below(words, n)
        out[i], out[j] = out[j], out[i]
    return out


def commitment(table_id: str, round_no: int, seed: str) -> str:
    """The SHA-256 shown at the deal, which the revealed seed must match."""
    return hashlib.sha256(f"{table_id}|{round_no}|{seed}".encode()).hexdigest()


def verify_commitment(table_id: str, round_no: int, seed: str, commit: str) -> bool:
    return hmac.compare_digest(commitment(table_id, round_no, seed), commit)
