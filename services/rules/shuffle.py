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
from itertools import chain, count, repeat
from typing import Final, TypeVar

T = TypeVar("T")


def _words(seed: str, label: str) -> Iterator[int]:
    """The seed's numbers under one label: SHA-256 blocks read as big-endian 32-bit words.

    Chained in C (``chain``): Python runs once a block, not once a word. A ``map``, not a generator
    expression: compiled by mypyc (make setup), that would be made a list, and this stream is endless.
    """
    base = bytes.fromhex(seed) + b"|" + label.encode() + b"|"
    return chain.from_iterable(map(_block, repeat(base), count()))


def _block(base: bytes, block: int) -> tuple[int, ...]:
    """The words of one SHA-256 block of the stream."""
    return _WORDS.unpack(hashlib.sha256(base + block.to_bytes(8, "big")).digest())


_WORDS: Final = struct.Struct(">8I")
_SPAN: Final = 1 << 32


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
    n = len(out)
    if n < 2:
        return out
    # Each position's first word, all read at once: a word is rejected once in 2**32 / n, and only then is the
    # shuffle drawn again word by word (the same numbers), from the items as given. An index loop, not
    # ``zip``/``map``: compiled (make setup), its numbers are C integers, not objects.
    first = _first_words(seed, label, n - 1)
    for k in range(n - 1):
        i = n - 1 - k
        w = first[k]
        if w >= _SPAN - _SPAN % (i + 1):  # a word ``_below`` rejects
            return _shuffled_by_rejection(list(items), seed, label)
        j = w % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _first_words(seed: str, label: str, k: int) -> tuple[int, ...]:
    """The first ``k`` words of ``_words``: the blocks they need hashed, joined and unpacked once."""
    # the prefix hashed once, each block a copy of it (cheaper than a new hash object: OpenSSL's digest
    # is fetched by name for each)
    prefix = hashlib.sha256(bytes.fromhex(seed) + b"|" + label.encode() + b"|")
    blocks = []
    for block in range((k + 7) // 8):
        h = prefix.copy()
        h.update(_COUNTERS[block] if block < len(_COUNTERS) else block.to_bytes(8, "big"))
        blocks.append(h.digest())
    unpack = _UNPACK[k].unpack_from if k < len(_UNPACK) else struct.Struct(f">{k}I").unpack_from
    return unpack(b"".join(blocks))


_COUNTERS: Final = tuple(block.to_bytes(8, "big") for block in range(16))  # a deck's blocks
_UNPACK: Final = tuple(struct.Struct(f">{k}I") for k in range(128))  # ``k`` words, for a deck's ``k`` (made once)


def _shuffled_by_rejection(out: list[T], seed: str, label: str) -> list[T]:
    """``shuffled`` of ``out`` in place, each position's number drawn by ``_below`` (rejected words skipped)."""
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
