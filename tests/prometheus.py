"""A real Prometheus server for the tests: Debian's ``/usr/bin/prometheus`` (``make prometheus`` installs it).

Nothing is skipped when it is missing: the metrics tests fail and say how to install it (``make
test`` does, as it installs chromium for the end-to-end tests).
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest
import yaml

from tests.natsserver import free_port

PROMETHEUS = Path("/usr/bin/prometheus")
PROMTOOL = Path("/usr/bin/promtool")
MISSING = "is missing: `make prometheus` installs Debian's prometheus package (`make test` does it first)"


def binary(path: Path) -> str:
    if not path.is_file():
        pytest.fail(f"{path} {MISSING}")
    return str(path)


def scrape_config(targets: Mapping[str, str], interval: str = "1s") -> dict[str, Any]:
    """A configuration scraping each ``/metrics`` address of ``targets`` (service: URL) as a job of its name."""
    jobs = []
    for service, url in sorted(targets.items()):
        parts = urlsplit(url)
        jobs.append({"job_name": service, "metrics_path": parts.path,
                     "static_configs": [{"targets": [parts.netloc]}]})
    return {"global": {"scrape_interval": interval, "evaluation_interval": interval}, "scrape_configs": jobs}


@contextmanager
def prometheus(config: dict[str, Any], workdir: Path) -> Iterator[str]:
    """A Prometheus server with ``config``, on a free port; its base URL."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "prometheus.yml").write_text(yaml.safe_dump(config))
    port = free_port()
    log = (workdir / "prometheus.log").open("wb")
    proc = subprocess.Popen([binary(PROMETHEUS), f"--config.file={workdir / 'prometheus.yml'}",
                             f"--storage.tsdb.path={workdir / 'data'}", f"--web.listen-address=127.0.0.1:{port}"],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


async def ready(url: str, seconds: float = 30) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(int(seconds * 10)):
            try:
                async with http.get(f"{url}/-/ready") as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.1)
    raise AssertionError(f"Prometheus at {url} was not ready within {seconds:.0f} s")


async def query(url: str, promql: str) -> list[dict[str, Any]]:
    """The result of an instant PromQL query (HTTP API); a query Prometheus refuses fails the test."""
    async with aiohttp.ClientSession() as http, http.get(f"{url}/api/v1/query", params={"query": promql}) as r:
        body = await r.json()
    assert body["status"] == "success", (promql, body)
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


async def value(url: str, promql: str) -> float:
    """The value of a query that answers one number (0 when it answers nothing)."""
    result = await query(url, promql)
    return float(result[0]["value"][1]) if result else 0.0


async def at_least(url: str, promql: str, minimum: float, seconds: float = 60) -> tuple[float, float]:
    """(the query's value, ``minimum``) once it reaches ``minimum``, or when ``seconds`` have passed.

    Scrapes come every interval, and later on a busy machine: a count reaches what was done a moment after.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (found := await value(url, promql)) < minimum and loop.time() < deadline:
        await asyncio.sleep(0.2)
    return found, minimum
