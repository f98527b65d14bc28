"""Reading the Kubernetes manifests of ``deploy/`` as written, for the deployment tests."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import ValidationError

from cli.main import parser as cli_parser

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
BASE = K8S / "base"
OVERLAYS = {p.name: p for p in sorted((K8S / "overlays").iterdir()) if (p / "kustomization.yaml").is_file()}
KUBERNETES_VERSION = "1.30"
NAMESPACE = "maumau"
PART_OF = ("app.kubernetes.io/part-of", "maumau-online")
IMAGE = "maumau-online"

# Every process of the platform and its command line: `maumau` and a subcommand of cli/main.py.
COMMANDS = {
    "rules": ["maumau", "rules", "serve", "--host", "0.0.0.0", "--port", "50051"],
    "table": ["maumau", "table", "serve"],
    "projector": ["maumau", "projector"],
    "bots": ["maumau", "bots", "serve"],
    "clock": ["maumau", "clock", "serve"],
    "chat": ["maumau", "chat", "serve"],
    "accounts": ["maumau", "accounts", "serve"],
    "gateway": ["maumau", "gateway", "serve", "--host", "0.0.0.0", "--port", "8080"],
}

# The settings of services/runtime/settings.py each process reads (rules takes its flags, and its
# health port for /metrics).
NEEDS = {
    "rules": {"MAUMAU_HEALTH_PORT"},
    "table": {"NATS_URL", "RULES_ADDR", "MAUMAU_STREAM_REPLICAS", "MAUMAU_ABSENCE_SECONDS",
              "MAUMAU_EXPIRY_SECONDS", "MAUMAU_HEALTH_PORT"},
    "projector": {"NATS_URL", "DATABASE_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT", "MAUMAU_TIME_ZONE"},
    "clock": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_ABSENCE_SECONDS", "MAUMAU_EXPIRY_SECONDS",
              "MAUMAU_HEALTH_PORT"},
    "bots": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT"},
    "chat": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT"},
    "accounts": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT"},
    "gateway": {"NATS_URL", "DATABASE_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_PUBLIC_URL", "MAUMAU_TRUSTED_PROXIES",
                "MAUMAU_TIME_ZONE", "MAUMAU_HEALTH_PORT"},
}
for _needs in NEEDS.values():
    _needs.add("MAUMAU_LOG_LEVEL")
for _process in ("table", "projector", "clock", "bots", "chat", "gateway"):  # where a table's stream may be
    NEEDS[_process].add("MAUMAU_STREAM_PARTITIONS")

# Tuning with a default in the code: an overlay may give it to its process; deploy/README.md names it.
TUNING = {"MAUMAU_BOT_THINK_SECONDS", "MAUMAU_BOT_BUDGET_MS", "MAUMAU_CHAT_RATE", "MAUMAU_CHAT_MAX_CHARS",
          "MAUMAU_SIGNING_KEY", "MAUMAU_LOG_FORMAT", "MAUMAU_STANDIN_SECONDS", "MAUMAU_SOLO_SECONDS"}


# --- reading the manifests as written --------------------------------------------------------------

def _documents(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


def _is_object(doc: Any) -> bool:
    """A Kubernetes object (kustomize's own files have an apiVersion and a kind too)."""
    return (isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc
            and not str(doc["apiVersion"]).startswith("kustomize.config.k8s.io"))


# Resources of operators the cluster may run (deploy/k8s/monitoring): no schema of Kubernetes knows
# them; tests/test_deploy_monitoring.py checks them.
CUSTOM_API_GROUPS = ("monitoring.coreos.com/",)


def _is_custom(doc: dict[str, Any]) -> bool:
    return str(doc["apiVersion"]).startswith(CUSTOM_API_GROUPS)


def _kustomization(folder: Path) -> dict[str, Any]:
    doc = yaml.safe_load((folder / "kustomization.yaml").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def _objects(folder: Path) -> list[dict[str, Any]]:
    """The objects of a kustomization's own resource files (not of the folders it builds on)."""
    found = []
    for resource in _kustomization(folder).get("resources", []):
        path = folder / resource
        if path.is_file():
            found += [d for d in _documents(path) if _is_object(d)]
    return found


BASE_OBJECTS = _objects(BASE)


def _of_kind(kind: str, objects: list[dict[str, Any]] = BASE_OBJECTS) -> dict[str, dict[str, Any]]:
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


DEPLOYMENTS = _of_kind("Deployment")
WORKLOADS = {**DEPLOYMENTS, **_of_kind("StatefulSet")}


def _containers() -> Iterator[tuple[str, dict[str, Any]]]:
    for name, workload in WORKLOADS.items():
        for container in workload["spec"]["template"]["spec"]["containers"]:
            yield f"{name}/{container['name']}", container


CONTAINERS = dict(_containers())
APP_CONTAINERS = {k: c for k, c in CONTAINERS.items() if c["image"] == IMAGE}


def _generated_config_maps(*folders: Path) -> dict[str, dict[str, str]]:
    """The data of the ConfigMaps that the kustomizations' configMapGenerators make, base first."""
    maps: dict[str, dict[str, str]] = {}
    for folder in folders:
        for gen in _kustomization(folder).get("configMapGenerator", []):
            data: dict[str, str] = {}
            for literal in gen.get("literals", []):
                key, _, value = str(literal).partition("=")
                data[key] = value
            for file in gen.get("files", []):
                key, _, source = str(file).rpartition("=")
                source_path = folder / source
                data[key or source_path.name] = source_path.read_text(encoding="utf-8")
            behavior = gen.get("behavior", "create")
            if behavior == "merge":
                maps[gen["name"]] = {**maps[gen["name"]], **data}
            else:
                maps[gen["name"]] = data
    return maps


BASE_CONFIG_MAPS = _generated_config_maps(BASE)


def _env_names(container: dict[str, Any], config_maps: dict[str, dict[str, str]]) -> set[str]:
    names = {e["name"] for e in container.get("env", [])}
    for source in container.get("envFrom", []):
        names |= set(config_maps[source["configMapRef"]["name"]])
    return names


def _settings_names() -> set[str]:
    text = (ROOT / "services" / "runtime" / "settings.py").read_text(encoding="utf-8")
    return set(re.findall(r'(?:environ\.get|_float)\(\s*"([A-Z][A-Z0-9_]*)"', text))


def _cli_subcommands() -> set[str]:
    for action in cli_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    raise AssertionError("cli/main.py has no subcommands")


def _json_patch_value(overlay: Path, kind: str, name: str, path: str) -> Any:
    """The value an overlay's inline JSON 6902 patch sets at ``path`` of one object, or None."""
    for patch in _kustomization(overlay).get("patches", []):
        target = patch.get("target", {})
        if target.get("kind") == kind and target.get("name") == name and "patch" in patch:
            for op in yaml.safe_load(patch["patch"]):
                if op["op"] in ("add", "replace") and op["path"] == path:
                    return op["value"]
    return None


def _replicas(overlay: Path, workload: str) -> int:
    for entry in _kustomization(overlay).get("replicas", []):
        if entry["name"] == workload:
            return int(entry["count"])
    return int(WORKLOADS[workload]["spec"].get("replicas", 1))


def _selects(selector: dict[str, str], workload: dict[str, Any]) -> bool:
    labels = workload["spec"]["template"]["metadata"]["labels"]
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def _port_number(container: dict[str, Any], port: int | str) -> int:
    if isinstance(port, int):
        return port
    numbers = [p["containerPort"] for p in container.get("ports", []) if p.get("name") == port]
    assert numbers, f"no container port named {port!r}"
    return int(numbers[0])


def _validate(obj: dict[str, Any], where: str) -> None:
    try:
        kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
    except ValidationError as e:
        pytest.fail(f"{where}: {e.message} at {'/'.join(str(p) for p in e.absolute_path)}")


MANIFESTS = [
    pytest.param(doc, id=f"{path.relative_to(K8S)}:{doc['kind']}/{doc['metadata']['name']}")
    for path in sorted(K8S.rglob("*.yaml"))
    for doc in _documents(path)
    if _is_object(doc) and not _is_custom(doc)
]
KUSTOMIZATIONS = sorted(p.parent for p in K8S.rglob("kustomization.yaml"))
