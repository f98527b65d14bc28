"""The supervisor of ``maumau up`` (services/runtime/supervisor.py): a child that dies comes back, the others go on."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import nats
import pytest

from services.runtime.supervisor import Child, running_platform, tcp_ready
from services.table.store import STREAM

PLATFORM_UNSET = ("NATS_URL", "DATABASE_URL", "MAUMAU_GATEWAY_PORT")


@pytest.fixture(autouse=True)
def _embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The platform starts its own NATS and database, whatever the machine's environment says."""
    for name in PLATFORM_UNSET:
        monkeypatch.delenv(name, raising=False)


@asynccontextmanager
async def _platform(data: Path, *only: str) -> AsyncIterator[dict[str, Child]]:
    async with running_platform(data, quiet=True, only=only) as (_, children):
        yield {c.name: c for c in children}


async def _until(check: Callable[[], Awaitable[bool]], seconds: float = 30) -> None:
    for _ in range(int(seconds * 10)):
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("never happened")


async def _killed_and_back(child: Child, sig: signal.Signals = signal.SIGKILL) -> int:
    """Kill the child's process; wait for the supervisor to start another and for it to answer. The old pid."""
    old = child.pid
    assert old is not None
    os.kill(old, sig)

    async def back() -> bool:
        return child.pid not in (None, old) and await child.ready()

    await _until(back)
    return old


async def test_a_killed_child_is_started_again_with_its_arguments_and_answers(tmp_path: Path) -> None:
    async with _platform(tmp_path, "nats", "table") as children:
        table = children["table"]
        argv, env = list(table.argv), dict(table.env)
        await _killed_and_back(table)
        assert (table.restarts, table.argv, table.env) == (1, argv, env)


async def test_the_other_children_go_on_while_one_is_restarted(tmp_path: Path) -> None:
    async with _platform(tmp_path, "nats", "table") as children:
        nats_pid = children["nats"].pid
        await _killed_and_back(children["table"])
        assert (children["nats"].pid, children["nats"].restarts) == (nats_pid, 0)


@pytest.mark.parametrize(("sig", "said"), [(signal.SIGKILL, "was killed by SIGKILL"),
                                           (signal.SIGTERM, "exited with status 0")], ids=["kill-9", "stopped"])
async def test_the_restart_is_logged_with_the_child_how_it_ended_and_the_count(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sig: signal.Signals, said: str) -> None:
    async with _platform(tmp_path, "nats", "table") as children:
        pid = await _killed_and_back(children["table"], sig)
    log = capsys.readouterr().err.splitlines()
    assert f"    up | table (pid {pid}) {said}; restart 1 in 0.5 s" in log


async def test_each_death_in_a_row_waits_twice_as_long_before_the_restart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async with _platform(tmp_path, "nats", "table") as children:
        await _killed_and_back(children["table"])
        await _killed_and_back(children["table"])
    said = [line.split("; ")[-1] for line in capsys.readouterr().err.splitlines() if line.startswith("    up | ")]
    assert said == ["restart 1 in 0.5 s", "restart 2 in 1 s"]


async def test_a_killed_nats_comes_back_on_its_port_with_its_streams(tmp_path: Path) -> None:
    async with _platform(tmp_path, "nats", "table") as children:
        port = next(a for a in children["nats"].argv if a.isdigit())  # -p PORT
        await _killed_and_back(children["nats"])
        await _until(children["table"].ready)  # the table service found it again
        nc = await nats.connect(f"nats://127.0.0.1:{port}", allow_reconnect=False)
        try:
            info = await nc.jetstream().stream_info(STREAM)  # created by the table service before the kill
        finally:
            await nc.close()
    assert info.config.name == STREAM


async def test_the_gateway_keeps_its_port_across_a_restart(tmp_path: Path) -> None:
    async with running_platform(tmp_path, quiet=True, only=("nats", "gateway")) as (addresses, children):
        gateway = children[-1]
        port = int(addresses["gateway_url"].rsplit(":", 1)[1])
        await _killed_and_back(gateway)
        assert await tcp_ready("127.0.0.1", port) and gateway.argv[-1] == str(port)


def _children_of(pid: int) -> dict[str, int]:
    """The processes ``pid`` started, by the ``maumau`` command (or binary) they run."""
    found = {}
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        argv = Path(f"/proc/{child}/cmdline").read_bytes().decode().split("\0")
        if argv == [""]:  # dead, not yet reaped
            continue
        found["nats" if argv[0].endswith("nats-server") else argv[3]] = int(child)
    return found


async def test_maumau_up_outlives_a_dead_child_and_stops_everything_on_sigterm(tmp_path: Path) -> None:
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--data", str(tmp_path)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async def written() -> bool:
            return (tmp_path / "run.json").exists()

        await _until(written, 90)
        gateway_url = json.loads((tmp_path / "run.json").read_text())["gateway_url"]
        port = int(gateway_url.rsplit(":", 1)[1])
        before = _children_of(up.pid)
        os.kill(before["gateway"], signal.SIGKILL)

        async def gateway_back() -> bool:
            return _children_of(up.pid).get("gateway") not in (None, before["gateway"]) and await tcp_ready(
                "127.0.0.1", port)

        await _until(gateway_back)
        after = _children_of(up.pid)
        still = json.loads((tmp_path / "run.json").read_text())["gateway_url"]
        up.send_signal(signal.SIGTERM)
        status = await asyncio.to_thread(up.wait, 60)
    finally:
        if up.poll() is None:
            up.kill()
            up.wait()
    assert (status, still) == (0, gateway_url)
    assert {k: v for k, v in after.items() if k != "gateway"} == {k: v for k, v in before.items() if k != "gateway"}
    assert not [pid for pid in after.values() if Path(f"/proc/{pid}").exists()]
