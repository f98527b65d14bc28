"""``maumau loadtest`` starts the platform itself, paces the moves and prints one JSON line."""

from __future__ import annotations

import json
import subprocess
import sys


def test_loadtest_prints_one_json_line_of_paced_moves_after_its_warm_up_through_its_own_platform() -> None:
    done = subprocess.run([sys.executable, "-m", "services.cli", "loadtest", "--clients", "4", "--tables", "2",
                           "--seconds", "2", "--warmup", "4", "--idle-sockets", "5", "--rate", "8"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.splitlines()  # the services' logs go to stderr
    result = json.loads(line)
    assert result["clients"] == 4 and result["tables"] == 2 and result["offered_per_s"] == 8
    assert result["warmup_s"] == 4
    # about 16 offered in the measured 2 s; counted with the warm-up, about 48; unpaced, hundreds
    assert 0 < result["moves"] < 32
    assert result["p50_ms"] <= result["p99_ms"]
    assert result["idle_sockets"] == 5 and result["kib_per_socket"] is not None
