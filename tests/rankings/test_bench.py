"""``maumau bench rankings`` on a small projection: its line, and the totals it filled."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from services.eventlog.sql import engine, metadata
from services.readmodels.rankings.periods import zone
from services.readmodels.rankings.projection import Gains, add_gains, seat_rows, seats_played, totals
from services.readmodels.schema import migrate
from tools.bench.rankings import SEAT_COLUMNS, _drawn, _match, _seat_records, _Totals, bench, run

NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)


def test_a_drawn_match_makes_the_seats_and_totals_the_projection_makes_of_it() -> None:
    summed, projected = _Totals(zone()), Gains()
    for n in range(300):
        seats = seat_rows(*_match(7, n, NOW))
        assert _seat_records(_drawn(7, n, NOW)) == [tuple(s[c] for c in SEAT_COLUMNS) for s in seats]
        assert [tuple(s) for s in seats] == [SEAT_COLUMNS] * len(seats)
        summed.add(_drawn(7, n, NOW))
        add_gains(projected, seats, zone())
    in_key_order = [(*k, *v) for k, v in sorted(projected.items())]
    assert summed.in_key_order() == in_key_order and any(row[-1] for row in in_key_order)  # some XP changed hands


def test_the_bench_prints_one_json_line_of_its_figures() -> None:
    line = json.loads(run(300, 40, None, seed=3))
    assert line["matches"] == 300 and line["queries"] == 40 and line["project_per_s"] > 0
    assert 0 < line["query_p50_ms"] <= line["query_p99_ms"] and line["python_10m_loop_s"] > 0


def test_every_match_counts_once_in_every_period(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/r.db"
    # most in bulk on the bench's own file, unjournaled; the rest projected onto it as the platform writes (WAL)
    asyncio.run(bench(500, 10, url, seed=4, projected=100, scratch=True))

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


DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("MAUMAU_TEST_DATABASE_URL") else [])


async def _loaded(url: str, projected: int) -> tuple[list[Any], list[Any]]:
    """The seats and totals a fresh bench of 400 matches leaves, ``projected`` of them through the projection."""
    await migrate(url)
    db = engine(url)
    async with db.begin() as conn:  # a shared PostgreSQL may hold an earlier run's rows
        for table in reversed(metadata.sorted_tables):
            await conn.execute(table.delete())
    await db.dispose()
    await bench(400, 5, url, seed=5, now=NOW, projected=projected)
    db = engine(url)
    async with db.connect() as conn:
        seats = (await conn.execute(select(seats_played).order_by(seats_played.c.table_id, seats_played.c.seat))).all()
        summed = (await conn.execute(select(totals).order_by(*totals.primary_key.columns))).all()
    await db.dispose()
    return [tuple(r) for r in seats], [tuple(r) for r in summed]


@pytest.mark.parametrize("kind", DATABASES)
def test_matches_loaded_in_bulk_leave_the_rows_the_projection_would_have_written(kind: str, tmp_path: Path) -> None:
    def url(name: str) -> str:
        shared = os.environ.get("MAUMAU_TEST_DATABASE_URL", "")
        return f"sqlite+aiosqlite:///{tmp_path}/{name}.db" if kind == "sqlite" else shared

    every_one_projected = asyncio.run(_loaded(url("projected"), projected=400))
    most_in_bulk = asyncio.run(_loaded(url("bulk"), projected=100))
    assert most_in_bulk == every_one_projected and len(most_in_bulk[0]) > 400
