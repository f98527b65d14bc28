"""``maumau bench capacity``: the three measures of issue 18's floors, in one run, in order.

1. The table path as fast as it goes (``maumau bench table --rate 0``) beside JetStream's
   own pipelined publish rate measured in the same run: ``table_vs_jetstream``.
2. The whole platform through WebSockets as fast as it goes (``maumau loadtest --rate 0``),
   just after: ``end_to_end_vs_table``, its moves/s over the table path's commands/s.
3. The whole platform offered half of what it reached in 2: its ``p99_ms_at_half``.

Each step starts a platform of its own (as the two commands do) and is repeated ``runs``
times, alternating, so the figures come as ranges; the seconds of a 10-million-step Python
loop are taken before and after, to say how fast the machine was meanwhile. Each step's
whole line is kept in the output beside the summary.
"""

from __future__ import annotations

import json
from typing import Any

from services.clock.presence import SCAN_SECONDS
from services.runtime.machine import loop_seconds
from tools.bench import table as table_bench
from tools.load import loadtest

SEATS = 4  # the load test's tables have four seats, each a client
# The tables are started before their pages open: the clock's scans meanwhile find seats away, and the
# first scan after every page opened tells those tables they are back (a burst of commands and frames
# that is the set-up's, not the load's). Two scans' time of warm-up leaves it out of the measured time.
WARMUP = 2 * SCAN_SECONDS


def _span(values: list[float]) -> list[float]:
    return [min(values), max(values)] if values else []


async def one_round(tables: int, seconds: float, seed: int) -> dict[str, Any]:
    """One pass of the three steps."""
    table = json.loads(await table_bench.run(tables, seconds, seed, None, 0.0))
    plan = loadtest.Plan(clients=SEATS * tables, tables=tables, seconds=seconds, warmup=WARMUP, rate=0.0,
                         idle_sockets=0, seed=seed)
    fastest = json.loads(await loadtest.run(plan, None))
    half = json.loads(await loadtest.run(
        loadtest.Plan(clients=plan.clients, tables=tables, seconds=seconds, warmup=WARMUP,
                      rate=round(fastest["moves_per_s"] / 2, 1), idle_sockets=0, seed=seed), None))
    return {"table": table, "end_to_end": fastest, "half": half,
            "table_vs_jetstream": round(table["commands_per_s"] / table["jetstream_publish_per_s"], 3),
            "end_to_end_vs_table": round(fastest["moves_per_s"] / table["commands_per_s"], 3),
            "p99_ms_at_half": half["p99_ms"]}


async def run(tables: int | None, seconds: float, seed: int, runs: int) -> str:
    """The JSON line of ``runs`` passes; ``tables`` by default as many as JetStream's measure keeps in flight."""
    tables = tables or table_bench.IN_FLIGHT
    before = loop_seconds()
    rounds = [await one_round(tables, seconds, seed + i) for i in range(runs)]
    after = loop_seconds()
    summary = {key: _span([r[key] for r in rounds])
               for key in ("table_vs_jetstream", "end_to_end_vs_table", "p99_ms_at_half")}
    return json.dumps({"runs": runs, "tables": tables, "seconds": seconds, **summary,
                       "python_10m_loop_s": [before, after], "rounds": rounds})
