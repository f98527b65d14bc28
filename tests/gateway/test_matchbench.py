"""``maumau bench matchmaking`` against running gateways: its line, and that it counts what it claims."""

from __future__ import annotations

from pathlib import Path

from services.runtime.settings import RateLimits
from tests.gateway.harness import gateways
from tools.bench.matchmaking import drive

UNLIMITED = RateLimits(**{name: 0 for name in RateLimits.__dataclass_fields__})


async def test_the_bench_seats_every_player_once_and_prints_its_figures(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=UNLIMITED) as g:
        line = await drive(g.urls[0], players=40, spread=1.0, seed=2)
    # 10 players a pool, as many as fill its tables: 10 at twos, 9 at threes, 8 and 8 at fours
    assert (line["players"], line["matched"], line["tables"]) == (35, 35, 5 + 3 + 2 + 2)
    assert line["lost"] == line["seated_twice"] == 0 and 0 <= line["wait_p50_ms"] <= line["wait_p99_ms"]
