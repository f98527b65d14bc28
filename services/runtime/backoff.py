"""The pauses between tries of whatever waits for something outside to come back: doubling, up to a cap.

>>> from itertools import islice
>>> list(islice(pauses(0.5, 3.0), 5))
[0.5, 1.0, 2.0, 3.0, 3.0]
"""

from __future__ import annotations

import math
from collections.abc import Iterator


def pauses(first: float, most: float = math.inf) -> Iterator[float]:
    """``first``, then each pause twice the one before, never more than ``most``; without end."""
    pause = first
    while True:
        yield pause
        pause = min(2 * pause, most)
