"""The image of deploy/Containerfile, built here and run as the manifests run it (issue 28, item 2).

A drill (`make drill`, not `make test`): `make image` makes the base from Debian's packages when it
is missing, then builds the image, which takes minutes. Every container runs as the pods do: user
10001, read-only root filesystem, /tmp its only writable place, no capabilities. Skipped, saying
why, where podman cannot run a container.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc

from maumau.v1 import rules_pb2, rules_pb2_grpc

pytestmark = pytest.mark.drill

ROOT = Path(__file__).resolve().parents[1]
IMAGE = "localhost/maumau-online:dev"
BASE_LABEL = "maumau.base.recipe"
# What every container of deploy/k8s/base gets from its securityContext and its /tmp emptyDir.
AS_THE_PODS = ["--read-only", "--user", "10001:10001", "--tmpfs", "/tmp", "--cap-drop", "ALL",
               "--security-opt", "no-new-privileges"]
# Long enough for a first start on a loaded machine; the calls wait for readiness, not for time.
READY_SECONDS = 120


def _env() -> dict[str, str]:
    """podman with the project's settings (runc, cgroupfs, lowered ulimits) unless told otherwise."""
    return {**os.environ, "CONTAINERS_CONF": os.environ.get("CONTAINERS_CONF", str(ROOT / ".ci/containers.conf"))}


def _podman(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["podman", *args], capture_output=True, text=True, env=_env(), timeout=timeout)


def _podman_cannot_run() -> str | None:
    if shutil.which("podman") is None:
        return "podman is not installed (`source .ci/podman.sh` or `apt-get install -y podman runc` installs it)"
    info = _podman("info", timeout=60)
    if info.returncode != 0:
        return f"podman cannot run here: {info.stderr.strip()[-300:]}"
    return None


@dataclass(frozen=True)
class Build:
    returncode: int
    output: str
    seconds: float


@pytest.fixture(scope="module")
def build() -> Build:
    """`make image`, the documented command, once for the module."""
    reason = _podman_cannot_run()
    if reason:
        pytest.skip(reason)
    started = time.monotonic()
    done = subprocess.run(["make", "image"], cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=3600)
    return Build(done.returncode, done.stdout + done.stderr, time.monotonic() - started)


@pytest.fixture(scope="module")
def image(build: Build) -> str:
    if build.returncode != 0:
        pytest.fail(f"make image failed:\n{build.output[-3000:]}")
    return IMAGE


def _run(image: str, *args: str, entrypoint: str | None = None) -> subprocess.CompletedProcess[str]:
    """A container as the pods run it, removed when it exits."""
    chosen = ["--entrypoint", entrypoint] if entrypoint else []
    return _podman("run", "--rm", *AS_THE_PODS, *chosen, image, *args)


def test_image_builds_on_the_base_made_from_debian(build: Build, capsys: pytest.CaptureFixture[str]) -> None:
    assert build.returncode == 0, build.output[-3000:]
    inspected = json.loads(_podman("image", "inspect", IMAGE).stdout)[0]
    assert inspected["Labels"][BASE_LABEL], "the image is not built on deploy/base-image.sh's base"
    base = "the base " + ("made" if "with mmdebstrap" in build.output else "already there")
    with capsys.disabled():
        print(f"\n{IMAGE}: {inspected['Size'] / 1e6:.0f} MB, `make image` {build.seconds:.0f} s ({base})")


def test_image_runs_as_user_10001_by_default(image: str) -> None:
    done = _podman("run", "--rm", "--entrypoint", "python3", image, "-c",
                   "import os; print(os.getuid(), os.getgid())")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["10001", "10001"]


def test_root_filesystem_is_read_only_and_tmp_writable(image: str) -> None:
    probe = """
import errno, json
found = {}
for path in ("/opt/maumau/probe", "/probe", "/tmp/probe"):
    try:
        open(path, "w").close()
        found[path] = "written"
    except OSError as e:
        found[path] = errno.errorcode[e.errno]
print(json.dumps(found))
"""
    done = _run(image, "-c", probe, entrypoint="python3")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"/opt/maumau/probe": "EROFS", "/probe": "EROFS", "/tmp/probe": "written"}


def test_maumau_help_lists_every_command_the_manifests_run(image: str) -> None:
    done = _run(image, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: maumau")
    commands = {container["command"][1] for container in _manifest_containers()}
    assert "rules" in commands
    listed = done.stdout.split("{", 1)[1].split("}", 1)[0].split(",")
    assert commands <= set(listed)


# --- the rules service, started as deploy/k8s/base/rules.yaml starts it ----------------------------------

def _manifest_containers() -> list[dict[str, Any]]:
    containers: list[dict[str, Any]] = []
    for path in sorted((ROOT / "deploy/k8s/base").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc and doc["kind"] in ("Deployment", "StatefulSet"):
                pod = doc["spec"]["template"]["spec"]
                containers += [c for c in pod["containers"] if c.get("command", [""])[0] == "maumau"]
    return containers


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class Rules:
    name: str
    grpc_port: int
    health_port: int


@pytest.fixture
def rules(image: str) -> Iterator[Rules]:
    """The rules container with exactly its manifest's command and environment, ports published on
    127.0.0.1 (the ConfigMap's settings are the other services' addresses and the collector's: the
    rules service reads none of them but the collector's, which is left out so no exporter retries)."""
    (container,) = [c for c in _manifest_containers() if c["name"] == "rules"]
    command = container["command"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    env = [f"--env={e['name']}={e['value']}" for e in container["env"]]
    started = Rules(f"maumau-test-rules-{uuid.uuid4().hex[:8]}", _free_port(), _free_port())
    done = _podman("run", "--detach", "--name", started.name, *AS_THE_PODS, *env,
                   "--publish", f"127.0.0.1:{started.grpc_port}:{ports['grpc']}",
                   "--publish", f"127.0.0.1:{started.health_port}:{ports['health']}",
                   "--entrypoint", command[0], image, *command[1:])
    assert done.returncode == 0, done.stderr
    try:
        yield started
    finally:
        _podman("rm", "--force", "--time", "0", started.name)


def _channel(rules: Rules) -> grpc.Channel:
    return grpc.insecure_channel(f"127.0.0.1:{rules.grpc_port}")


def _health(rules: Rules) -> health_pb2.HealthCheckResponse.ServingStatus.ValueType:
    with _channel(rules) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""),
                                                          wait_for_ready=True, timeout=READY_SECONDS)
    return reply.status


def test_rules_container_answers_its_grpc_health_check(rules: Rules) -> None:
    assert _health(rules) == health_pb2.HealthCheckResponse.SERVING


def test_rules_container_deals_a_new_match(rules: Rules) -> None:
    with _channel(rules) as channel:
        stub = rules_pb2_grpc.RulesStub(channel)
        match = stub.NewMatch(rules_pb2.NewMatchRequest(ruleset="classic32", seats=3),
                              wait_for_ready=True, timeout=READY_SECONDS)
        dealt = stub.NewRound(rules_pb2.NewRoundRequest(state=match, seed="ab" * 32, table_id="t1", round_no=0),
                              timeout=READY_SECONDS).state
    hands = [list(hand.cards) for hand in dealt.hands]
    assert len(hands) == 3 and all(hands)
    cards = [card for hand in hands for card in hand] + [*dealt.stock, *dealt.discard]
    assert len(cards) == len(set(cards)) == 32


def test_rules_container_serves_metrics_on_its_health_port(rules: Rules) -> None:
    assert _health(rules) == health_pb2.HealthCheckResponse.SERVING
    with urllib.request.urlopen(f"http://127.0.0.1:{rules.health_port}/metrics", timeout=READY_SECONDS) as reply:
        assert reply.status == 200
        assert b"# TYPE " in reply.read()


def test_rules_container_stops_cleanly_on_sigterm(rules: Rules) -> None:
    assert _health(rules) == health_pb2.HealthCheckResponse.SERVING
    # Kubernetes' grace period (30 s): podman sends SIGTERM, then SIGKILL only if the service overstays.
    assert _podman("stop", "--time", "30", rules.name).returncode == 0
    state = json.loads(_podman("inspect", rules.name).stdout)[0]["State"]
    assert state["ExitCode"] == 0
    logs = _podman("logs", rules.name)
    assert "rules service stopped" in logs.stdout + logs.stderr
