"""The replays' cache (``gateway/replaycache.py``): a body per (table, viewer kind) at the table's sequence, made
once however many ask at once, a newer sequence replacing the older, the bodies bounded in bytes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from gateway.replaycache import Body, ReplayCache


def _maker(made: list[str], text: str, wait: asyncio.Event | None = None) -> Callable[[], Awaitable[Body]]:
    """A body's maker that notes each time it runs (and waits for ``wait``, to be asked meanwhile)."""
    async def make() -> Body:
        made.append(text)
        if wait is not None:
            await wait.wait()
        return Body(text.encode(), b"")
    return make


async def test_a_body_is_made_once_for_its_table_sequence_and_kind() -> None:
    cache, made = ReplayCache(), list[str]()
    first = await cache.get("t1", 7, "spectator", _maker(made, "a"))
    again = await cache.get("t1", 7, "spectator", _maker(made, "b"))
    other_kind = await cache.get("t1", 7, "own:g-ana", _maker(made, "c"))
    assert (first.raw, again.raw, other_kind.raw) == (b"a", b"a", b"c") and made == ["a", "c"]


async def test_a_newer_sequence_replaces_the_tables_older_body() -> None:
    cache, made = ReplayCache(), list[str]()
    await cache.get("t1", 7, "spectator", _maker(made, "old"))
    newer = await cache.get("t1", 8, "spectator", _maker(made, "new"))
    assert newer.raw == b"new" and cache.cached("t1", 7, "spectator") is None
    assert cache.size == len(b"new") and len(cache.bodies) == 1


async def test_the_bodies_hold_at_most_their_bytes_the_least_recently_asked_dropped() -> None:
    cache, made = ReplayCache(max_bytes=10), list[str]()
    await cache.get("t1", 1, "spectator", _maker(made, "aaaa"))
    await cache.get("t2", 1, "spectator", _maker(made, "bbbb"))
    cache.cached("t1", 1, "spectator")  # asked again: t2's is now the least recent
    await cache.get("t3", 1, "spectator", _maker(made, "cccc"))
    too_big = await cache.get("t4", 1, "spectator", _maker(made, "x" * 11))
    assert cache.cached("t2", 1, "spectator") is None and cache.cached("t1", 1, "spectator") is not None
    assert too_big.raw == b"x" * 11 and cache.cached("t4", 1, "spectator") is None and cache.size <= 10


async def test_asked_while_it_is_being_made_a_body_is_made_once() -> None:
    cache, made, ready = ReplayCache(), list[str](), asyncio.Event()
    asking = [asyncio.create_task(cache.get("t1", 3, "spectator", _maker(made, f"b{k}", ready))) for k in range(5)]
    await asyncio.sleep(0)
    ready.set()
    bodies = await asyncio.gather(*asking)
    assert made == ["b0"] and {b.raw for b in bodies} == {b"b0"} and not cache.making
