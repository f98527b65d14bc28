"""``maumau bench bots``: one JSON line with the strong seat's win rate, beside the medium baseline and the oracle."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from services.bots.oracle import oracle, true_values
from services.rules.decider import deal, evolve
from services.rules.engine import apply, check, legal_actions, new_match
from tools.bench.bots import Game, _reported, paired, play_game, wilson


def bench(*args: str, python: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(python or [sys.executable, "-m", "cli.main"]), "bench", "bots", *args],
                          capture_output=True, text=True, timeout=300)


def test_the_command_prints_one_json_line_with_the_strong_seat_against_the_chosen_opponents() -> None:
    proc = bench("--ruleset", "classic52", "--players", "3", "--games", "4", "--ms", "1", "--seed", "2",
                 "--opponents", "random", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    (line,) = proc.stdout.splitlines()
    out = json.loads(line)
    assert (out["ruleset"], out["players"], out["games"], out["opponents"], out["ms_per_move"]) == (
        "classic52", 3, 4, "random", 1.0)
    assert out["games_played"] == 4
    lo, hi = out["strong_ci95"]
    assert 0.0 <= lo <= out["strong_rate"] <= hi <= 1.0
    assert out["strong_ms_used"] >= 0.0
    assert "anchor_rate" not in out and "oracle_rate" not in out


def test_the_oracle_flag_adds_the_medium_baseline_the_oracle_and_where_strong_stands() -> None:
    proc = bench("--ruleset", "classic32", "--players", "3", "--games", "3", "--ms", "1", "--oracle", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["opponents"] == "medium" and out["games_played"] == 9
    for key in ("strong", "medium_baseline", "oracle"):
        lo, hi = out[f"{key}_ci95"]
        assert lo <= out[f"{key}_rate"] <= hi
    margin = out["oracle_rate"] - out["medium_baseline_rate"]
    if margin:
        assert out["strong_position"] == round((out["strong_rate"] - out["medium_baseline_rate"]) / margin, 3)
    else:
        assert out["strong_position"] is None
    assert out["oracle_ms_used"] > 0.0


def test_a_run_tells_on_stderr_how_far_it_is() -> None:
    proc = bench("--ruleset", "classic52", "--players", "3", "--games", "3", "--ms", "1", "--opponents", "random",
                 "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert [line.split(" games in ")[0] for line in lines] == [f"maumau bench bots: {n} of 3" for n in (1, 2, 3)]
    assert lines[-1].endswith("about 0 min left")


def test_a_long_run_tells_how_far_it_is_twenty_times_and_keeps_every_game_in_order() -> None:
    games = [Game("strong", d, d % 2 == 0, 0.0, 0, 0) for d in range(50)]
    report = io.StringIO()
    assert _reported(iter(games), len(games), report) == games
    lines = report.getvalue().splitlines()
    assert len(lines) == 20
    assert lines[-1].startswith("maumau bench bots: 50 of 50 games in ")


def test_an_unknown_kind_of_opponent_is_refused() -> None:
    proc = bench("--opponents", "strong", "--games", "1")
    assert proc.returncode == 2 and "--opponents" in proc.stderr


def test_the_anchor_without_openspiel_names_the_make_target() -> None:
    hide = ("import sys; sys.modules['pyspiel'] = None; from cli.main import main; "
            "sys.exit(main(sys.argv[1:]))")
    proc = bench("--games", "1", "--ms", "1", "--anchor", "ismcts", python=[sys.executable, "-c", hide])
    assert proc.returncode == 2
    assert "make bench-bots" in proc.stderr and proc.stdout == ""


def test_wilson_intervals_hold_the_rate_and_narrow_with_games() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(300, 1000)
    assert lo < 0.3 < hi and hi - lo < wilson(30, 100)[1] - wilson(30, 100)[0]


def test_the_paired_difference_is_the_mean_per_deal_difference_with_its_interval() -> None:
    assert paired([1, 1, 0, 0], [1, 1, 0, 0]) == (0.0, [0.0, 0.0])
    diff, (lo, hi) = paired([1, 0, 1, 1, 0, 1] * 20, [0, 0, 1, 0, 0, 1] * 20)
    assert diff == round(2 / 6, 4) and 0.0 < lo < diff < hi < 1.0


def test_a_game_tells_whether_its_side_won_and_how_long_its_choices_took() -> None:
    g = play_game("colors108", 2, 3, "strong", "random", seed=5, ms_per_move=0.5)
    assert (g.side, g.deal, g.won in (True, False)) == ("strong", 3, True)
    assert g.choices > 0 and g.seconds > 0.0


@pytest.mark.parametrize("ruleset", ["classic32", "classic52", "candeias", "colors108"])
def test_the_oracle_only_ever_takes_legal_actions(ruleset: str) -> None:
    rng = random.Random(ruleset)
    for round_no in range(2):
        s0 = new_match(ruleset, 3)
        s = evolve(s0, deal(s0, f"{round_no:064x}", "t", round_no))
        for _ in range(2_000):
            if s.round_over:
                break
            asked = [(s.turn + k) % s.n for k in range(1, s.n)] + [s.turn]
            for seat in asked:
                a = oracle(s, seat, rng, budget_ms=0, max_passes=1)
                if a is None:
                    assert seat != s.turn, "the seat on turn always acts"
                    continue
                assert a in set(legal_actions(s, seat))
                check(s, a)
                apply(s, a)
                break
        assert s.round_over


def test_the_oracle_sees_the_hands_but_not_the_stocks_order() -> None:
    s0 = new_match("classic52", 4)
    s = evolve(s0, deal(s0, f"{7:064x}", "t", 0))  # a deal whose first player has eight choices
    other = s.copy()
    other.stock.reverse()
    other.seed = "6" * 64
    acts = list(legal_actions(s, s.turn))
    values = [true_values(x, x.turn, acts, random.Random(9), budget_ms=0, max_passes=8) for x in (s, other)]
    assert len(acts) == 8 and len(set(values[0])) > 1  # the actions' values differ: the search sees something
    assert values[0] == values[1]  # what it cannot know changes nothing


def test_the_command_prints_the_strong_sides_searches_per_decision() -> None:
    proc = bench("--ruleset", "classic52", "--players", "4", "--games", "2", "--ms", "5", "--seed", "3",
                 "--opponents", "medium", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["strong_searched"] > 0
    assert out["strong_searches"] > 0 and out["strong_searches_median"] > 0
    assert out["strong_worlds"] > 0
    assert out["strong_cpu_us_per_search"] > 0


def test_a_games_searches_are_the_rollouts_the_strong_side_really_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rollout of her searches counted (spied on where the search asks for a candidate's value in a
    world: a value is a rollout played to the round's end, None a candidate the world refused), and nothing else."""
    import services.bots.strategy as strategy

    played: list[int] = []
    value = strategy._value

    def counted(*args: Any) -> float | None:
        v = value(*args)
        if v is not None:
            played.append(1)
        return v

    monkeypatch.setattr(strategy, "_value", counted)
    g = play_game("classic52", 4, 1, "strong", "medium", seed=4, ms_per_move=3.0)
    assert len(g.rollouts) == len(g.worlds) > 0 and all(n > 0 for n in g.rollouts)
    assert sum(g.rollouts) == len(played)
