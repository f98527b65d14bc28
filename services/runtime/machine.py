"""How fast this machine runs Python now: printed beside a benchmark's figures.

Machines of one kind differ several-fold in speed, and one machine swings with what else
runs; a figure means little without this one taken in the same minutes.
"""

from __future__ import annotations

import time


def loop_seconds() -> float:
    """The seconds of a 10-million-step ``total += i`` loop."""
    started, total = time.perf_counter(), 0
    for i in range(10_000_000):
        total += i
    return round(time.perf_counter() - started, 2)
