"""GET /api/rulesets describes what the engine accepts: every ruleset, its seats and its options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from services.rules.rulesets import RULESETS
from services.runtime.settings import RateLimits
from tests.gateway.harness import Client, gateways


async def _create(client: Client, ruleset: str, seats: int, options: dict[str, Any]) -> tuple[int, str]:
    status, body = await client.post("/api/tables", {"ruleset": ruleset, "seats": seats, "options": options})
    return status, body.get("error", {}).get("code", "")


def _outside(option: dict[str, Any]) -> Any:
    """A value the option does not take."""
    if option["kind"] == "number":
        return option["min"] - 1
    if option["kind"] == "flag":
        return "sometimes"
    return "no such value"


async def test_every_ruleset_is_described_and_cached_alike_for_everyone(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        async with g.http.get(g.urls[0] + "/api/rulesets") as r:
            assert r.status == 200 and r.content_type == "application/json"
            body, etag, cache = await r.json(), r.headers["ETag"], r.headers["Cache-Control"]
        ana = await g.client("Ana")
        async with g.http.get(g.urls[0] + "/api/rulesets", headers=ana.headers) as r:
            assert await r.json() == body and r.headers["ETag"] == etag
        async with g.http.get(g.urls[0] + "/api/rulesets", headers={"If-None-Match": etag}) as r:
            assert r.status == 304
    assert "public" in cache
    assert [rs["name"] for rs in body["rulesets"]] == list(RULESETS)
    for rs in body["rulesets"]:
        assert rs["label"]["pt-BR"] and rs["label"]["en"] and rs["points"]
        for option in rs["options"]:
            assert option["label"]["pt-BR"] and option["label"]["en"], option["name"]
            assert option["kind"] in ("flag", "number", "choice")
            for value in option.get("values", []):
                assert value["label"]["pt-BR"] and value["label"]["en"], (option["name"], value)


async def test_what_is_described_is_what_creating_a_table_accepts(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, rate_limits=RateLimits(tables_per_address=0, tables_per_identity=0)) as g:
        async with g.http.get(g.urls[0] + "/api/rulesets") as r:
            described = (await r.json())["rulesets"]
        ana = await g.client("Ana")
        for rs in described:
            name, low, high = rs["name"], rs["seats"]["min"], rs["seats"]["max"]
            defaults = {o["name"]: o["default"] for o in rs["options"] if o["default"] is not None}
            assert await _create(ana, name, low, defaults) == (201, ""), name
            assert await _create(ana, name, high, {}) == (201, ""), name
            assert await _create(ana, name, low - 1, {}) == (409, "bad_options"), name
            assert await _create(ana, name, high + 1, {}) == (409, "bad_options"), name
            seats = min(max(4, low), high)  # colors108's teams are played with 4
            for option in rs["options"]:
                key = option["name"]
                offered = [v["value"] for v in option.get("values", []) if v["value"] is not None]
                if option["kind"] == "flag":
                    offered = [option["on"], option["off"]]
                for value in offered or [option.get("min", 1)]:
                    assert await _create(ana, name, seats, {key: value}) == (201, ""), (name, key, value)
                assert await _create(ana, name, seats, {key: _outside(option)}) == (409, "bad_options"), (name, key)
