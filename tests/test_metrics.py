"""Metrics: every service's ``/metrics``, scraped by a real Prometheus while a game is played through ``maumau up``;
and the services' log lines, one JSON object each, without a secret."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
from prometheus_client import REGISTRY

from gateway.sessions import COOKIE
from services.runtime import metrics
from services.runtime.lifecycle import start_health
from tests import prometheus
from tests.natsserver import free_port
from tools.load.loadclient import Tally
from tools.load.loadtest import Plan, play, unlimited

DASHBOARD = Path(__file__).resolve().parents[1] / "deploy" / "k8s" / "monitoring" / "grafana-dashboard.json"
SERVICES = {"rules", "table", "chat", "accounts", "projector", "clock", "bots", "gateway"}


async def _always() -> bool:
    return True


async def test_the_health_port_serves_metrics_in_prometheus_text_format() -> None:
    metrics.COMMANDS.labels("table", "draw", "done").inc()
    port = free_port()
    runner = await start_health(port, _always)
    try:
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as r:
            status, content_type, body = r.status, r.headers["Content-Type"], await r.text()
    finally:
        assert runner is not None
        await runner.cleanup()
    assert status == 200 and content_type.startswith("text/plain; version=")
    assert 'maumau_commands_total{command="draw",result="done",service="table"}' in body
    assert "# TYPE maumau_command_duration_seconds histogram" in body
    assert "_created" not in body  # no creation-time series next to the counters


def test_metric_names_follow_prometheus_conventions() -> None:
    for metric in REGISTRY.collect():
        if not metric.name.startswith("maumau_"):
            continue
        assert metric.documentation, metric.name
        if metric.type == "counter":
            assert not metric.name.endswith("_total")  # the client adds it to the samples
        names = {s.name for s in metric.samples}
        assert all(n == metric.name or n.startswith(metric.name + "_") for n in names), metric.name
        assert not any(label in ("table", "table_id", "identity", "actor", "token", "account", "name")
                       for s in metric.samples for label in s.labels), metric.name


def test_label_values_from_outside_are_bounded() -> None:
    assert metrics.code("not_your_turn") == "not_your_turn"
    assert {metrics.code(v) for v in ("T-1234", "g-3f2a", "a b", "", "X" * 100)} == {"other"}


async def _account_secrets(url: str) -> list[str]:
    """Register an account, sign in with a wrong password and the right one: the secrets that went by."""
    password, wrong = "senha muito secreta 42", "senha errada 17"
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{url}/api/accounts", json={"name": "Metrica", "password": password}) as r:
            assert r.status == 201, await r.text()
            first = r.cookies[COOKIE].value
        async with http.post(f"{url}/api/login", json={"name": "Metrica", "password": wrong}) as r:
            assert r.status == 401
        async with http.post(f"{url}/api/login", json={"name": "Metrica", "password": password}) as r:
            assert r.status == 200
            second = r.cookies[COOKIE].value
    return [password, wrong, first, second]


def _service_lines(output: str) -> list[tuple[str, str]]:
    """(tag, line) of every line a Python service wrote under ``maumau up`` (not NATS's, not the supervisor's)."""
    found = []
    for line in output.splitlines():
        tag, bar, rest = line.partition(" | ")
        if bar and tag.strip() not in ("nats", "up"):
            found.append((tag.strip(), rest))
    return found


async def test_prometheus_scrapes_every_service_of_maumau_up_and_sees_the_commands_of_a_game(tmp_path: Path) -> None:
    """Also: with ``MAUMAU_LOG_FORMAT=json`` every service logs JSON lines, naming tables, never a secret."""
    prometheus.binary(prometheus.PROMETHEUS)  # before anything is started: fails, saying how to install it
    env = {k: v for k, v in os.environ.items() if k not in ("NATS_URL", "DATABASE_URL", "MAUMAU_GATEWAY_PORT")}
    env.update(unlimited())  # every tab of the game comes from this one address
    env.update({"MAUMAU_LOG_FORMAT": "json", "MAUMAU_LOG_LEVEL": "DEBUG"})
    data = tmp_path / "data"
    output = (tmp_path / "up.log").open("wb")
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--data", str(data)], env=env,
                          stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(900):
            if (data / "run.json").exists() or up.poll() is not None:
                break
            await asyncio.sleep(0.1)
        run = json.loads((data / "run.json").read_text())
        assert run["metrics"].keys() == SERVICES
        assert all(url.startswith("http://127.0.0.1:") and url.endswith("/metrics") for url in run["metrics"].values())
        assert run["gateway_url"].rsplit(":", 1)[1] not in [u.split(":")[2] for u in run["metrics"].values()]

        with prometheus.prometheus(prometheus.scrape_config(run["metrics"]), tmp_path / "prometheus") as prom:
            await prometheus.ready(prom)
            for _ in range(300):  # its targets are taken up within a few seconds
                if await prometheus.value(prom, "count(up == 1)") == len(SERVICES):
                    break
                await asyncio.sleep(0.1)
            async with aiohttp.ClientSession() as http:
                plan = Plan(clients=4, tables=1, seconds=3.0, warmup=0.0, rate=0.0, idle_sockets=0, seed=7)
                result, tables = await play(http, run["gateway_url"], plan, None, Tally())
            moves = result["moves"]
            assert moves > 0, result

            acted = 'sum(maumau_commands_total{job="table",service="table",command="act",result="done"})'
            seen = {query: await prometheus.at_least(prom, query, minimum) for query, minimum in (
                (acted, moves),  # every move a client saw is an act command the table service answered done
                ('sum(maumau_commands_total{command="start",result="done"})', 1),
                ('sum(maumau_websocket_frames_received_total{type="command"})', moves),
                ('sum(maumau_websocket_frames_sent_total{type="events"})', moves),
                ("sum(maumau_websockets_opened_total)", 4),
                ("sum(maumau_rules_decisions_total)", moves),
                ('histogram_quantile(0.99, sum by (le) (maumau_command_duration_seconds_bucket{service="table"}))',
                 0.0001),
                ('maumau_stream_leader{job="projector",stream="TABLES"}', 1),
                ("count(max_over_time(up[1m]) == 1)", len(SERVICES)),  # every service scraped
            )}
            assert all(value >= minimum for value, minimum in seen.values()), seen

            # the dashboard's queries answer (deploy/k8s/monitoring), its moves/s too
            dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
            for panel in dashboard["panels"]:
                for target in panel["targets"]:
                    await prometheus.query(prom, target["expr"])
            moves_per_second = dashboard["panels"][0]["targets"][0]["expr"]
            for _ in range(50):  # a rate needs two samples of the series
                if await prometheus.value(prom, moves_per_second) > 0:
                    break
                await asyncio.sleep(0.1)
            assert await prometheus.value(prom, moves_per_second) > 0, moves_per_second

            # no label value names a table, a player or a token
            series = await prometheus.query(prom, '{__name__=~"maumau_.+"}')
            values = {v for s in series for v in s["metric"].values()}
            played = {t.table for t in tables} | {tab.token for t in tables for tab in t.tabs}
            assert series and not values & played
        secrets = [tab.token for t in tables for tab in t.tabs] + await _account_secrets(run["gateway_url"])
    finally:
        if up.poll() is None:
            up.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(up.wait, 60)
            except subprocess.TimeoutExpired:
                os.killpg(up.pid, signal.SIGKILL)
                up.wait()
        output.close()

    text = (tmp_path / "up.log").read_text(encoding="utf-8", errors="replace")
    lines = _service_lines(text)
    records = [json.loads(line) for _, line in lines if line.startswith("{")]
    assert records and len(records) == len(lines), [line for _, line in lines if not line.startswith("{")][:5]
    assert {r["service"] for r in records} >= {"rules", "table", "chat", "accounts", "projector", "clock", "bots",
                                               "gateway"}
    assert all({"time", "level", "service", "logger", "message"} <= r.keys() for r in records)
    played = {t.table for t in tables}
    assert {r.get("table_id") for r in records} & played  # the lines about a table's command name it
    assert not [s for s in secrets if s in text]
