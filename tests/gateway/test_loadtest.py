"""``maumau loadtest``: its own platform, paced moves, one JSON line; tabs that come back and say what failed."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from services.runtime.settings import RateLimits, SocketLimits
from tests.gateway.harness import gateways
from tools.load.loadtest import Plan, drive


def test_loadtest_prints_one_json_line_of_paced_moves_after_its_warm_up_through_its_own_platform() -> None:
    done = subprocess.run([sys.executable, "-m", "cli.main", "loadtest", "--clients", "4", "--tables", "2",
                           "--seconds", "2", "--warmup", "4", "--idle-sockets", "5", "--rate", "8"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.splitlines()  # the services' logs go to stderr
    result = json.loads(line)
    assert result["clients"] == 4 and result["tables"] == 2 and result["offered_per_s"] == 8
    assert result["warmup_s"] == 4
    # about 16 offered in the measured 2 s; counted with the warm-up, about 48; unpaced, hundreds
    assert 0 < result["moves"] < 32 and 0 < result["moves_per_s"] < 16 and result["unseen"] == 0
    assert result["p50_ms"] <= result["p99_ms"]
    assert result["idle_sockets"] == 5 and result["kib_per_socket"] is not None


async def test_the_load_test_comes_back_through_a_gateway_restart_and_says_so(nats_url: str, tmp_path: Path) -> None:
    plan = Plan(clients=4, tables=2, seconds=6, warmup=0.5, rate=10, idle_sockets=0, seed=1)
    async with gateways(nats_url, tmp_path) as g:
        running = asyncio.create_task(drive(g.urls[0], plan, None))
        await asyncio.sleep(3)
        await g.restart()
        result = await running
    assert result["reconnects"] >= 4  # every tab came back
    assert result["moves"] > 0 and result["longest_stall_ms"] > 0
    assert {"refusals", "errors", "timeouts", "failed_connects", "max_ms"} <= set(result)


async def test_the_load_test_follows_idle_tables_through_one_gateway(nats_url: str, tmp_path: Path) -> None:
    plan = Plan(clients=2, tables=1, seconds=1, warmup=0, rate=4, idle_sockets=0, seed=1, idle_tables=150)
    unlimited = RateLimits(tables_per_address=0, tables_per_identity=0, joins_per_address=0, joins_per_identity=0)
    async with gateways(nats_url, tmp_path, socket_limits=SocketLimits(tables=100), rate_limits=unlimited) as g:
        result = await drive(g.urls[0], plan, None)
    assert result["idle_tables_followed"] == 150 and result["idle_sockets_following"] == 2
    assert result["sample_joins_seen"] == "100/100"


async def test_idle_sockets_refused_by_the_limit_per_address_keep_the_measured_moves(nats_url: str,
                                                                                      tmp_path: Path) -> None:
    plan = Plan(clients=2, tables=1, seconds=1, warmup=0, rate=4, idle_sockets=20, seed=1)
    async with gateways(nats_url, tmp_path, socket_limits=SocketLimits(per_address=10)) as g:
        result = await drive(g.urls[0], plan, None)
    assert result["moves"] > 0 and result["idle_sockets"] == 8  # beside the two tabs, still open
    assert result["idle_sockets_failed"] == "socket 9 of 20 not opened: WSServerHandshakeError (HTTP 429)"
