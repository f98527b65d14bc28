"""``maumau bench replays``: a replay's cost made and kept, and the live moves' p99 without a flood of replays
and with one, in one line."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_replay_bench_prints_the_cost_made_and_kept_and_the_p99_with_and_without_a_flood() -> None:
    done = subprocess.run([sys.executable, "-m", "cli.main", "bench", "replays", "--long-tables", "1",
                           "--batches", "60", "--cached-asks", "5", "--tables", "2", "--rate", "4", "--seconds", "1",
                           "--warmup", "0.5", "--flood-rate", "5", "--rounds", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.splitlines()
    result = json.loads(line)
    (batches,) = result["batches_per_table"]
    assert batches > 10 and set(result["uncached"]) == set(result["cached"]) == {"cpu_ms_per_batch", "cpu_ms_per_ask"}
    (quiet,), (flooded,) = result["without_flood"], result["with_flood"]
    assert "flood" not in quiet and sum(flooded["flood"].values()) >= 1
    assert result["p99_ms"] == {"without_flood": [quiet["p99_ms"]], "with_flood": [flooded["p99_ms"]]}
    assert result["limits"]["replays_per_address"] > 0 and len(result["python_10m_loop_s"]) == 2
