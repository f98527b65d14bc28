"""The rolling upgrade under load (issue 28; docs/operations.md, "Upgrade"): every replica replaced, one at a time.

The platform runs under the supervisor with two replicas of every service that may have two (rules, table,
chat, accounts, clock, bots, gateway) and one projector, while the load test's tabs play human tables,
spread over both gateways, and bots play tables of their own. Each replica is then replaced in the
runbook's order (the projector, the readers of the streams, the rules, the table service, the gateways):
SIGTERM, as Kubernetes stops a pod; the supervisor starts a new process on the same command (the image
on disk, as a new pod runs the new tag); the next waits until it answers ready. With the replicas each
on a port of its own, the new process cannot start before the old one has let go of it, so this is
``maxSurge: 0, maxUnavailable: 1`` of two replicas: the other one serves meanwhile. The projector is
one process (two would be two writers: docs/operations.md, "Scale"), so it is replaced as the runbook
says, stopped then started: the game does not wait for it, its tables only lag.

Each table replica reaches the rules replicas as a Kubernetes Service spreads connections (the supervisor's
``_rules_target``: one first, the other next); each tab goes to the other gateway when its own refuses the
socket, as a load balancer sends a new connection to a replica still there.

Afterwards: every replaced process ended by itself (status 0, not killed at the end of its grace period);
no tab was shown an error frame, a refusal or an acknowledgement that timed out, and every acknowledged move
reached every seat; no acknowledged move is missing from its stream and no command is stored twice
(``maumau chaos``'s check); the projections caught up; and ``maumau verify --all`` holds for every table.
Printed, never asserted: the load test's p99 and longest stall during the roll and over the whole run, each
replacement's seconds, beside the machine's 10⁷-step loop and the load average.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import time
from pathlib import Path

import aiohttp
import pytest

from services.record.records import verify_all
from services.runtime.machine import loop_seconds
from services.runtime.supervisor import Child, running_platform
from tests.bot_tables import bot_table
from tools.load.chaos import check_streams, projections_behind
from tools.load.loadclient import Tally, new_session
from tools.load.loadtest import Plan, play, unlimited

pytestmark = pytest.mark.drill

# docs/operations.md, "Upgrade": the projector (the schema before its readers), the readers of the streams,
# the rules service then the table service (the writer), the gateways last
ORDER = ("proj", "bots", "bots2", "clock", "clock2", "chat", "chat2", "accts", "accts2",
         "rules", "rules2", "table", "table2", "gateway", "gw2")
SETTINGS = {**unlimited(), "MAUMAU_BOT_THINK_SECONDS": "0.05", "MAUMAU_BOT_BUDGET_MS": "5"}
# seconds enough for the roll on a crowded machine; the test fails if the load ended before the roll did
LOAD = Plan(clients=16, tables=4, seconds=120.0, warmup=2.0, rate=60, idle_sockets=0, seed=28)
BOT_TABLES = 2
READY_SECONDS = 60.0  # the longest a replaced process may take to answer ready again
SETTLE_SECONDS = 1.0  # between two replacements: the tabs moved by one are back at play before the next
CATCH_UP_SECONDS = 60.0


async def _replace(child: Child) -> tuple[float, int | None]:
    """Stop the replica with SIGTERM and wait for its successor (the supervisor's restart) to answer: the
    seconds, and how the old process ended (0: by itself, within its grace period)."""
    old = child.proc
    assert old is not None and child.pid is not None, f"{child.name} is not running"
    started = time.perf_counter()
    old.terminate()
    while child.proc is old or child.pid is None or not await child.ready():
        assert time.perf_counter() - started < READY_SECONDS, f"{child.name} was not ready again"
        await asyncio.sleep(0.1)
    return time.perf_counter() - started, old.returncode


async def test_every_replica_replaced_one_at_a_time_under_load_loses_nothing_and_shows_no_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("NATS_URL", "DATABASE_URL", "MAUMAU_GATEWAY_PORT"):  # the platform's own NATS and database
        monkeypatch.delenv(name, raising=False)
    tally = Tally()
    took: dict[str, float] = {}
    ended: dict[str, int | None] = {}
    roll: list[float] = []
    async with running_platform(tmp_path, quiet=True, settings=SETTINGS, gateways=2, replicas=2) as (
            addresses, children), aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        by_name = {c.name: c for c in children}
        assert set(ORDER) == set(by_name) - {"nats"}, sorted(by_name)  # every process but NATS is rolled
        gw, gw2 = addresses["gateway_url"], addresses["gateway2_url"]
        host = {"Authorization": f"Bearer {await new_session(http, gw, 'Vera')}"}
        bots = [await bot_table(http, gw, host, ruleset="classic52", seats=4) for _ in range(BOT_TABLES)]
        load = asyncio.create_task(play(http, gw, LOAD, None, tally, replicas=[gw2],
                                        window=lambda: (roll[0], roll[-1])))
        while not tally.acked:  # the tables are open and playing: the warm-up has begun
            assert not load.done(), load
            await asyncio.sleep(0.1)
        await asyncio.sleep(LOAD.warmup + SETTLE_SECONDS)  # into the measured time
        roll.append(time.perf_counter())
        for name in ORDER:
            seconds, ended[name] = await _replace(by_name[name])
            took[name] = round(seconds, 2)
            await asyncio.sleep(SETTLE_SECONDS)
        roll.append(time.perf_counter())
        assert not load.done(), "the load ended before the roll did: raise LOAD.seconds"
        result, played = await load
        record = await check_streams(addresses["nats_url"], played, tally)
        behind = await projections_behind(addresses["database_url"], record.last, CATCH_UP_SECONDS)
        verified = io.StringIO()
        verdict = await verify_all(addresses["nats_url"], verified)
        restarts = {c.name: c.restarts for c in children}
    figures = {"roll_s": round(roll[-1] - roll[0], 1), "replaced_s": took,
               "moves_during_roll": result["window_moves"], "p99_ms_during_roll": result["window_p99_ms"],
               "longest_stall_ms_during_roll": result["window_longest_stall_ms"],
               "moves": result["moves"], "p50_ms": result["p50_ms"], "p99_ms": result["p99_ms"],
               "longest_stall_ms": result["longest_stall_ms"], "reconnects": result["reconnects"],
               "failed_connects": result["failed_connects"], "bot_tables": len(bots),
               "load_average": os.getloadavg()[0], "loop_10m_s": loop_seconds()}
    print("\nrolling upgrade:", json.dumps(figures))
    print(verified.getvalue())

    # each replica replaced once, by the drill's SIGTERM, and each ended by itself within its grace period
    assert restarts == {c: int(c in ORDER) for c in restarts}, restarts
    assert ended == dict.fromkeys(ORDER, 0), ended
    # no tab was shown anything wrong: the gateway and the tabs hid every replacement
    assert (result["errors"], result["refusals"], result["timeouts"], result["unseen"]) == ({}, {}, 0, 0), result
    assert result["window_moves"] > 0 and result["reconnects"] > 0, result  # played through the roll, sockets moved
    assert (record.lost, record.doubled, record.half_done, behind) == (0, 0, 0, 0), (record, behind)
    assert verdict == 0, verified.getvalue()
