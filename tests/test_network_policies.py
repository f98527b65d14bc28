"""The NetworkPolicies (deploy/k8s/base/networkpolicies.yaml): nothing comes in unless allowed, and each
opening names who may come through and to which port."""

from __future__ import annotations

from typing import Any

from tests.k8s import BASE_OBJECTS, COMMANDS, K8S, WORKLOADS, _objects, _of_kind

POLICIES = _of_kind("NetworkPolicy")


def _opened(name: str) -> list[tuple[int, dict[str, Any]]]:
    """(port, from) for each opening of a policy."""
    return [(port["port"], source) for rule in POLICIES[name]["spec"]["ingress"] for source in rule["from"]
            for port in rule["ports"]]


def test_every_pod_of_the_platform_refuses_what_no_policy_allows() -> None:
    deny = POLICIES["default-deny-ingress"]["spec"]
    assert deny["podSelector"] == {} and deny["policyTypes"] == ["Ingress"] and "ingress" not in deny


def test_only_the_ingress_controller_reaches_the_gateway_and_only_its_public_port() -> None:
    assert _opened("gateway-from-ingress") == [
        (8080, {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}})]


def test_only_the_platforms_services_reach_nats() -> None:
    (clients, routes) = _opened("nats-from-services")
    allowed = set(clients[1]["podSelector"]["matchExpressions"][0]["values"])
    services = {name for name in WORKLOADS if name not in ("nats", "rules")}
    assert clients[0] == 4222 and allowed == services and routes[0] == 6222


def test_only_the_table_service_reaches_the_rules() -> None:
    table = {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "table"}}}
    assert _opened("rules-from-table") == [(50051, table)]


def test_only_the_platforms_services_reach_the_collector_and_only_its_otlp_port() -> None:
    ((port, source),) = _opened("otel-collector-from-services")
    (selector,) = source["podSelector"]["matchExpressions"]
    assert port == 4317 and selector["operator"] == "In" and set(selector["values"]) == set(COMMANDS)
    collector = _of_kind("Deployment", _objects(K8S / "components" / "otel-collector"))["otel-collector"]
    selected = POLICIES["otel-collector-from-services"]["spec"]["podSelector"]["matchLabels"].items()
    assert selected <= collector["spec"]["template"]["metadata"]["labels"].items()


def test_the_policies_are_in_the_base() -> None:
    assert {o["metadata"]["name"] for o in BASE_OBJECTS if o["kind"] == "NetworkPolicy"} == set(POLICIES) == {
        "default-deny-ingress", "gateway-from-ingress", "nats-from-services", "rules-from-table",
        "otel-collector-from-services", "metrics-from-monitoring"}
