"""``maumau bench bots``: one JSON line with the strong seat's win rates and their intervals."""

from __future__ import annotations

import json
import subprocess
import sys

from services.bots.bench import play_game, wilson


def test_the_command_prints_one_json_line_of_win_rates() -> None:
    proc = subprocess.run([sys.executable, "-m", "services.cli", "bench", "bots", "--ruleset", "classic52",
                           "--players", "3", "--games", "4", "--ms-per-move", "1", "--seed", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    (line,) = proc.stdout.splitlines()
    out = json.loads(line)
    assert (out["ruleset"], out["players"], out["games"], out["ms_per_move"]) == ("classic52", 3, 4, 1.0)
    for key in ("strong_vs_random", "strong_vs_weak"):
        lo, hi = out[f"{key}_ci95"]
        assert 0.0 <= lo <= out[key] <= hi <= 1.0


def test_wilson_intervals_hold_the_rate_and_narrow_with_games() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(300, 1000)
    assert lo < 0.3 < hi and hi - lo < wilson(30, 100)[1] - wilson(30, 100)[0]


def test_a_game_tells_whether_the_strong_seat_won() -> None:
    assert play_game("colors108", 2, 3, "random", seed=5, ms_per_move=0.5) in (True, False)
