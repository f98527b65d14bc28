"""The Kubernetes deployment (``deploy/``): schema-valid objects, consistent with the code.

No cluster and no kubectl are needed: every manifest file is checked as written, against the
Kubernetes JSON schemas that ``kubernetes-validate`` carries (offline). Where ``kubectl`` is
installed, the overlays are also rendered with its kustomize and the result is checked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cli.main import parser as cli_parser
from tests.k8s import (
    BASE,
    BASE_CONFIG_MAPS,
    BASE_OBJECTS,
    COMMANDS,
    CONTAINERS,
    DEPLOYMENTS,
    IMAGE,
    K8S,
    KUSTOMIZATIONS,
    MANIFESTS,
    NAMESPACE,
    NEEDS,
    OVERLAYS,
    PART_OF,
    ROOT,
    TUNING,
    WORKLOADS,
    _cli_subcommands,
    _documents,
    _env_names,
    _kustomization,
    _objects,
    _of_kind,
    _replicas,
    _selects,
    _settings_names,
    _validate,
)

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
    for component in k.get("components", []):
        assert _kustomization(folder / component)["kind"] == "Component", component


def test_every_manifest_file_is_used_by_a_kustomization() -> None:
    used = set()
    for folder in KUSTOMIZATIONS:
        k = _kustomization(folder)
        used |= {(folder / r).resolve() for r in k.get("resources", [])}
        used |= {(folder / p["path"]).resolve() for p in k.get("patches", []) if "path" in p}
        used |= {(folder / str(f).rpartition("=")[2]).resolve()
                 for gen in k.get("configMapGenerator", []) for f in gen.get("files", [])}
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
    mounted = {source["configMap"]["name"] for component in k.get("components", [])
               for workload in _of_kind("Deployment", _objects(overlay / component)).values()
               for volume in workload["spec"]["template"]["spec"]["volumes"]
               for source in volume.get("projected", {}).get("sources", []) if "configMap" in source}
    for gen in k.get("configMapGenerator", []):
        if gen["name"] in BASE_CONFIG_MAPS:
            assert gen.get("behavior") in ("merge", "replace"), gen["name"]
        else:  # what a component's workload reads from its overlay
            assert gen["name"] in mounted and "behavior" not in gen, gen["name"]


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


def test_a_nats_server_stopped_hands_its_streams_over_before_it_goes() -> None:
    """A pod's deletion (a drain, a rolling update) puts its server in lame-duck mode first, which
    moves its streams' leadership to another server at once (no 4-9 s election), and the pod is
    given the whole lame-duck duration before it is killed."""
    pod = _of_kind("StatefulSet")["nats"]["spec"]["template"]["spec"]
    (server,) = pod["containers"]
    assert server["lifecycle"]["preStop"]["exec"]["command"][:3] == ["nats-server", "--signal",
                                                                     "ldm=/var/run/nats/nats.pid"]
    for conf in (BASE / "nats.conf", *(o / "nats.conf" for o in OVERLAYS.values() if (o / "nats.conf").is_file())):
        text = conf.read_text()
        assert "pid_file: /var/run/nats/nats.pid" in text, conf
        lame_duck = re.search(r"^lame_duck_duration: (\d+)s$", text, re.MULTILINE)
        assert lame_duck is not None and int(lame_duck[1]) < pod["terminationGracePeriodSeconds"], conf


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


