"""``maumau bench capacity``: the table path, the whole platform as fast as it goes, then at half of it."""

from __future__ import annotations

import json
import subprocess
import sys


def test_capacity_offers_the_platform_half_of_what_it_reached_and_reports_the_floors_ratios() -> None:
    done = subprocess.run([sys.executable, "-m", "cli.main", "bench", "capacity", "--tables", "2",
                           "--seconds", "1", "--runs", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.splitlines()
    result = json.loads(line)
    (one,) = result["rounds"]
    table, fastest, half = one["table"], one["end_to_end"], one["half"]
    assert table["offered_per_s"] == fastest["offered_per_s"] == 0  # as fast as each goes
    assert half["offered_per_s"] == round(fastest["moves_per_s"] / 2, 1) > 0
    assert one["table_vs_jetstream"] == round(table["commands_per_s"] / table["jetstream_publish_per_s"], 3)
    assert one["end_to_end_vs_table"] == round(fastest["moves_per_s"] / table["commands_per_s"], 3)
    assert result["p99_ms_at_half"] == [half["p99_ms"], half["p99_ms"]]
    assert len(result["python_10m_loop_s"]) == 2
