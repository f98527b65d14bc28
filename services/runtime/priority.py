"""A service's CPU priority, set before anything else of it starts.

Its own module, importing nothing heavy: every ``maumau`` command calls it first, the quick
ones (``maumau rules-script``) included.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def lower_priority(environ: Mapping[str, str] = os.environ) -> None:
    """Lower this process's CPU priority by ``MAUMAU_NICE`` (0 to 19), before any thread starts.

    The platform's supervisor lowers the reacting services' (projector, clock, bots): their
    batches then wait for a free core instead of delaying the moves players are waiting for.
    """
    raw = environ.get("MAUMAU_NICE", "0")
    nice = int(raw) if raw.strip().isdigit() else -1
    if not 0 <= nice <= 19:
        raise SystemExit(f"MAUMAU_NICE must be a whole number from 0 to 19, not {raw!r}")
    if nice:
        os.nice(nice)
