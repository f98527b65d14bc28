"""``maumau loadtest`` starts the platform itself, paces the moves and prints one JSON line."""

from __future__ import annotations

import json
import subprocess
import sys


def test_loadtest_prints_one_json_line_of_paced_moves_through_its_own_platform() -> None:
    done = subprocess.run([sys.executable, "-m", "services.cli", "loadtest", "--clients", "4", "--tables", "2",
                           "--seconds", "3", "--warmup", "1", "--idle-sockets", "5", "--rate", "4"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.splitlines()  # the services' logs go to stderr
    result = json.loads(line)
    assert result["clients"] == 4 and result["tables"] == 2 and result["offered_per_s"] == 4
    assert result["warmup_s"] == 1
    assert 0 < result["moves"] < 40  # about 12 offered in the measured 3 s; unpaced, two tables make hundreds
    assert result["p50_ms"] <= result["p99_ms"]
    assert result["idle_sockets"] == 5 and result["kib_per_socket"] is not None
