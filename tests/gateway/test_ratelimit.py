"""The HTTP API's POSTs and replays are rate limited per address and per identity, on counters every replica shares."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import nats
import pytest

from gateway.ratelimit import STREAM
from services.runtime.settings import RateLimits
from tests.gateway.harness import Gateways, gateways, one_window


async def _sessions(g: Gateways, count: int, replica: int = 0) -> list[tuple[int, str | None, dict[str, object]]]:
    async def one() -> tuple[int, str | None, dict[str, object]]:
        async with g.http.post(g.urls[replica] + "/api/session", json={"name": "Ana"}) as r:
            return r.status, r.headers.get("Retry-After"), await r.json()
    return list(await asyncio.gather(*(one() for _ in range(count))))


async def test_a_burst_over_the_limit_is_refused_with_retry_after(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=RateLimits(sessions_per_address=5)) as g:
        await one_window()
        answers = await _sessions(g, 8)
    refused = [a for a in answers if a[0] == 429]
    assert len(refused) == 3 and sum(a[0] == 200 for a in answers) == 5
    assert all(1 <= int(retry or 0) <= 60 and body["error"]["code"] == "too_many_requests"  # type: ignore[index]
               for _, retry, body in refused)


async def test_a_burst_under_the_limit_is_counted_not_refused(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=RateLimits(sessions_per_address=600)) as g:
        await one_window()
        answers = await _sessions(g, 200)
    assert [a[0] for a in answers] == [200] * 200


async def test_a_burst_over_the_limit_on_two_replicas_is_refused_exactly_past_it(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2, rate_limits=RateLimits(sessions_per_address=150)) as g:
        await one_window()
        first, second = await asyncio.gather(_sessions(g, 100, replica=0), _sessions(g, 100, replica=1))
    statuses = [a[0] for a in first + second]
    assert statuses.count(200) == 150 and statuses.count(429) == 50


async def test_a_second_replica_counts_on_the_same_counter(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2, rate_limits=RateLimits(sessions_per_address=4)) as g:
        await one_window()
        first = await _sessions(g, 3, replica=0)
        second = await _sessions(g, 2, replica=1)
    assert [a[0] for a in first] == [200] * 3 and sorted(a[0] for a in second) == [200, 429]


async def test_another_identity_is_not_held_by_the_first_ones_limit(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=RateLimits(tables_per_identity=2)) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        await one_window()
        ana_answers = [await ana.post("/api/tables", {"ruleset": "classic32", "seats": 2}) for _ in range(3)]
        bia_status, _ = await bia.post("/api/tables", {"ruleset": "classic32", "seats": 2})
    assert [s for s, _ in ana_answers] == [201, 201, 429] and bia_status == 201


async def test_without_the_counters_requests_go_through_with_a_warning(
        nats_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=RateLimits(sessions_per_address=1)) as g:
        nc = await nats.connect(nats_url)
        await nc.jetstream().delete_stream(STREAM)
        await nc.close()
        with caplog.at_level(logging.WARNING, logger="maumau.gateway.ratelimit"):
            answers = await _sessions(g, 3)
    assert [a[0] for a in answers] == [200] * 3
    assert any("rate limits not counted" in r.getMessage() for r in caplog.records)


async def test_replays_are_limited_per_identity_the_costliest_read(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=RateLimits(replays_per_identity=2)) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        await one_window()
        ana_answers = [await ana.get("/api/tables/nobody/replay") for _ in range(3)]
        bia_status, _ = await bia.get("/api/tables/nobody/replay")
    assert [s for s, _ in ana_answers] == [404, 404, 429] and bia_status == 404
    assert ana_answers[2][1]["error"]["code"] == "too_many_requests"
