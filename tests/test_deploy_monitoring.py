"""Monitoring in ``deploy/``: scrape annotations on the pods, the alert rules, the Grafana dashboard.

Offline, like tests/test_deploy_manifests.py: the rules and every query of the dashboard are parsed
by ``promtool`` (Debian's prometheus package, as tests/prometheus.py), and every metric they name is
one the services export (``services/runtime/metrics.py``).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY

import services.runtime.metrics  # noqa: F401  (registers the platform's metrics)
from tests import prometheus
from tests.k8s import APP_CONTAINERS, DEPLOYMENTS, K8S, PART_OF, _documents, _kustomization

MONITORING = K8S / "monitoring"
RULES = MONITORING / "prometheus-rules.yaml"
DASHBOARD = MONITORING / "grafana-dashboard.json"
HEALTH_PORT = "8081"
ALERTS = {"MaumauConsumerStalled", "MaumauCommandErrors", "MaumauStreamLeaderMissing"}  # what the issue asks for
# Series Prometheus or the processes make themselves (no maumau_ prefix).
OTHER_SERIES = {"up", "process_cpu_seconds_total", "process_resident_memory_bytes"}


def _exported() -> set[str]:
    """Every series name the services may export: a counter's ``_total``, a histogram's buckets, …"""
    names: set[str] = set()
    for family in REGISTRY.collect():
        if not family.name.startswith("maumau_"):
            continue
        if family.type == "counter":
            names.add(f"{family.name}_total")
        elif family.type == "histogram":
            names |= {f"{family.name}_{suffix}" for suffix in ("bucket", "sum", "count")}
        else:
            names.add(family.name)
    return names


def _series_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (a word followed by a selector or a range)."""
    words = set(re.findall(r"\b([a-z_:][a-z0-9_:]*)\s*(?=[{\[)]|$)", expr))
    return {w for w in words if w.startswith("maumau_") or w in OTHER_SERIES}


def _rule_groups() -> list[dict[str, Any]]:
    (rule,) = _documents(RULES)
    assert rule["apiVersion"] == "monitoring.coreos.com/v1" and rule["kind"] == "PrometheusRule"
    groups: list[dict[str, Any]] = rule["spec"]["groups"]
    return groups


def _dashboard() -> dict[str, Any]:
    dashboard: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return dashboard


def dashboard_queries() -> list[str]:
    return [t["expr"] for panel in _dashboard()["panels"] for t in panel["targets"]]


def _promtool_check(groups: list[dict[str, Any]], tmp_path: Path) -> None:
    path = tmp_path / "rules.yml"
    path.write_text(yaml.safe_dump({"groups": groups}))
    checked = subprocess.run([prometheus.binary(prometheus.PROMTOOL), "check", "rules", str(path)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# --- scraping ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(DEPLOYMENTS))
def test_every_service_pod_is_scraped_on_its_health_port(name: str) -> None:
    template = DEPLOYMENTS[name]["spec"]["template"]
    annotations = template["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/path"] == "/metrics"
    assert annotations["prometheus.io/port"] == HEALTH_PORT
    (container,) = template["spec"]["containers"]
    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    assert env["MAUMAU_HEALTH_PORT"] == HEALTH_PORT
    assert int(HEALTH_PORT) in [p["containerPort"] for p in container["ports"]]


def test_the_pod_monitor_scrapes_the_health_port_of_every_service_pod() -> None:
    (monitor,) = _documents(MONITORING / "pod-monitor.yaml")
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1" and monitor["kind"] == "PodMonitor"
    (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
    assert endpoint["path"] == "/metrics"
    for name, deployment in DEPLOYMENTS.items():
        labels = {**deployment["spec"]["template"]["metadata"]["labels"], PART_OF[0]: PART_OF[1]}  # the base adds it
        assert monitor["spec"]["selector"]["matchLabels"].items() <= labels.items(), name
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        ports = {p.get("name"): p["containerPort"] for p in container["ports"]}
        assert ports[endpoint["port"]] == int(HEALTH_PORT), name


def test_the_gateway_serves_its_metrics_apart_from_its_public_port() -> None:
    container = APP_CONTAINERS["gateway/gateway"]
    command_port = container["command"][container["command"].index("--port") + 1]
    assert command_port != HEALTH_PORT


# --- the monitoring kustomization ------------------------------------------------------------------

def test_monitoring_kustomization_holds_the_rules_and_the_dashboard() -> None:
    k = _kustomization(MONITORING)
    assert k["namespace"] == "maumau" and {"prometheus-rules.yaml", "pod-monitor.yaml"} <= set(k["resources"])
    (dashboard,) = [g for g in k["configMapGenerator"] if g["name"] == "maumau-grafana-dashboard"]
    assert dashboard["files"] == ["maumau.json=grafana-dashboard.json"]
    assert dashboard["options"]["labels"] == {"grafana_dashboard": "1"}


# --- the alert rules ------------------------------------------------------------------------------

def test_alert_rules_are_valid_for_prometheus(tmp_path: Path) -> None:
    _promtool_check(_rule_groups(), tmp_path)


def test_alerts_cover_stalled_consumers_errors_and_a_missing_stream_leader() -> None:
    alerts = {r["alert"] for g in _rule_groups() for r in g["rules"]}
    assert alerts >= ALERTS


def test_every_alert_has_a_severity_a_summary_and_a_duration() -> None:
    for group in _rule_groups():
        for rule in group["rules"]:
            assert rule["labels"]["severity"] in ("critical", "warning"), rule["alert"]
            assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
            assert re.fullmatch(r"\d+[smh]", rule["for"]), rule["alert"]


def test_alerts_read_metrics_the_services_export() -> None:
    exported = _exported()
    for group in _rule_groups():
        for rule in group["rules"]:
            names = _series_names(rule["expr"])
            assert names and names - OTHER_SERIES <= exported, (rule["alert"], names - exported)


# --- the dashboard --------------------------------------------------------------------------------

def test_dashboard_queries_are_valid_promql(tmp_path: Path) -> None:
    records = [{"record": f"dashboard:panel_{i}", "expr": expr} for i, expr in enumerate(dashboard_queries())]
    _promtool_check([{"name": "dashboard", "rules": records}], tmp_path)


def test_dashboard_reads_metrics_the_services_export() -> None:
    exported = _exported()
    for expr in dashboard_queries():
        names = _series_names(expr)
        assert names and names - OTHER_SERIES <= exported, (expr, names - exported)


def test_dashboard_shows_moves_latency_lag_sockets_and_errors() -> None:
    titles = {p["title"] for p in _dashboard()["panels"]}
    assert {"Moves per second", "Command latency p99", "Consumer lag", "Open WebSockets", "Errors"} <= titles
    queries = " ".join(dashboard_queries())
    for needed in ('command="act"', "histogram_quantile(0.99", "maumau_consumer_pending_messages",
                   "maumau_websockets_open", 'result="unavailable"'):
        assert needed in queries


def test_dashboard_is_grafana_json_with_a_datasource_variable() -> None:
    dashboard = _dashboard()
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 30
    (variable,) = dashboard["templating"]["list"]
    assert variable["type"] == "datasource" and variable["query"] == "prometheus"
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == "${datasource}" and panel["targets"], panel["title"]
        assert {"x", "y", "w", "h"} <= panel["gridPos"].keys(), panel["title"]
