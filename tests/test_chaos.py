"""``maumau chaos``: the platform loses nothing and comes back from every kind of fault it injects."""

from __future__ import annotations

from tools.load.chaos import FREEZE, KILLED, chaos


async def test_the_platform_loses_nothing_and_recovers_from_a_fault_every_second_or_two() -> None:
    result = await chaos(seconds=24, seed=3, tables=6, rate=20, every=(1.0, 2.0))
    assert result["faults"] >= 10 and set(result["faults_by_kind"]) <= {*KILLED, FREEZE}
    assert (result["lost"], result["doubled"], result["half_done"], result["projections_behind"]) == (0, 0, 0, 0)
    assert result["recovered"] and result["tables_still_playing"] == "6/6"
    assert result["moves"] > 0
