"""``maumau bench rankings`` on a small projection: its line, and the totals it filled."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from sqlalchemy import func, select

from services.eventlog.sql import engine
from services.readmodels.rankings.projection import totals
from tools.bench.rankings import bench, run


def test_the_bench_prints_one_json_line_of_its_figures() -> None:
    line = json.loads(run(300, 40, None, seed=3))
    assert line["matches"] == 300 and line["queries"] == 40 and line["project_per_s"] > 0
    assert 0 < line["query_p50_ms"] <= line["query_p99_ms"] and line["python_10m_loop_s"] > 0


def test_every_match_counts_once_in_every_period(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/r.db"
    asyncio.run(bench(500, 10, url, seed=4))

    async def wins_per_period() -> dict[str, int]:
        db = engine(url)
        async with db.connect() as conn:
            rows = (await conn.execute(select(totals.c.period, func.sum(totals.c.played))
                                       .group_by(totals.c.period))).all()
        await db.dispose()
        return {r[0]: int(r[1]) for r in rows}

    played = asyncio.run(wins_per_period())
    assert set(played) == {"today", "week", "month", "season", "all"} and len(set(played.values())) == 1
    assert 500 * 2 * 2 // 3 < played["all"] <= 500 * 4
