"""A loop that waits with ``within`` ends when it is cancelled, whenever the cancel comes."""

from __future__ import annotations

import asyncio

import pytest

from services.runtime.timeouts import within


async def _reader(ready: asyncio.Event) -> None:
    """A reader's loop: wait for a batch for a second at most, take it, wait again."""
    while True:
        try:
            await within(ready.wait(), 1)
        except TimeoutError:
            continue
        ready.clear()


@pytest.mark.parametrize("turns", range(5))
async def test_a_reader_cancelled_as_its_batch_arrives_ends(turns: int) -> None:
    ready = asyncio.Event()
    task = asyncio.create_task(_reader(ready))
    await asyncio.sleep(0.01)
    ready.set()
    for _ in range(turns):  # the cancel lands in each moment of the wait's ending (asyncio.wait_for lost turns 0-2)
        await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=3)
    if not done:
        task.cancel()
    assert done and task.cancelled()


async def test_a_wait_that_runs_out_raises_timeout_and_leaves_nothing_running() -> None:
    waiting = asyncio.Event()
    with pytest.raises(TimeoutError):
        await within(waiting.wait(), 0.01)
    assert len(asyncio.all_tasks()) == 1  # the test's own
