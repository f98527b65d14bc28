"""``maumau loadtest``: real WebSocket clients playing real tables through the whole platform.

Each client is a browser tab with its own session: it opens a WebSocket, subscribes to its
table and plays its own seat with random legal moves (from the view the gateway sends it).
A move's latency runs from the command sent to its event received by every client at the
table. The tables play ``warmup`` seconds before the measured ``seconds`` begin: the moves
of the warm-up are played at the same rate but not counted, for they measure the platform
settling after the set-up (every service still folding the tables just created and
joined). Then ``idle_sockets`` more sockets are opened on the gateway and its memory is
read before and after (when the gateway runs here: without ``--url``). With
``idle_tables``, that many more tables are followed throughout (``tools.load.idletables``).

Tabs come back as the web client does (``tools.load.loadclient``): a closed socket is opened
again, a command without its acknowledgement is sent again with the same id. What went
wrong is counted beside the figures: refusals by code, acknowledgements that timed out,
reconnections, the moves acknowledged that some seat never saw (``unseen``, each waited for
``UNSEEN_SECONDS``), and the longest time in which no move anywhere completed. The rate is the
moves seen by their whole table within the measured time over its length: a move still on its way
when the time ends (or one never seen) does not stretch it.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import json
import os
import random
import resource
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import aiohttp

from services.runtime.cputime import CpuMeter, pids
from services.runtime.settings import RateLimits, SocketLimits
from services.runtime.supervisor import running_platform
from tools.load.idletables import follow_idle_tables
from tools.load.loadclient import Tab, Tally, new_session, percentile, rss_kib, until

OPEN_SECONDS = 60.0  # the longest wait for every tab's first state before the warm-up starts anyway
IDLE_SOCKETS = 2000  # opened after the run on the load test's own platform
UNSEEN_SECONDS = 10.0  # an acknowledged move not seen by every seat in this time after the run counts as unseen


@dataclass(frozen=True)
class Plan:
    """What to run (the defaults are the command's: ``maumau loadtest --help``)."""

    clients: int
    tables: int
    seconds: float
    warmup: float
    rate: float  # moves/s the tables offer together; 0: each table moves as soon as it can
    idle_sockets: int
    seed: int
    idle_tables: int = 0  # tables created and followed (by one gateway) before and throughout the run


@dataclass
class Table:
    """One played table: a tab per seat, and what each seat was last sent."""

    table: str
    tabs: list[Tab] = field(default_factory=list)
    views: list[dict[str, Any] | None] = field(default_factory=list)
    status: str = ""
    # each seat's frames that moved it on: the sequences and when they came (a seat shown the table
    # at a later sequence, a whole state after a reconnection, has seen every batch before it)
    reached: dict[int, tuple[list[int], list[float]]] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def on_frame(self, seat: int) -> Callable[[dict[str, Any]], None]:
        seqs, times = self.reached.setdefault(seat, ([], []))

        def seen(frame: dict[str, Any]) -> None:
            if frame.get("type") not in ("state", "events") or frame.get("table") != self.table:
                return
            self.views[seat] = frame.get("view")
            self.status = frame["table_info"]["status"]
            if not seqs or frame["seq"] > seqs[-1]:
                seqs.append(frame["seq"])
                times.append(time.perf_counter())
            self.changed.set()
        return seen

    def seen_by_all(self, seq: int) -> bool:
        return all(s and s[-1] >= seq for s, _ in self.reached.values())  # every seat is in it from its tab's start

    def seen_at(self, seq: int) -> float:
        """When the last seat to see the batch at ``seq`` (or a later one) was sent it (``seen_by_all``).

        >>> t = Table("t")
        >>> t.reached = {0: ([3, 5], [1.0, 2.0]), 1: ([4], [1.5])}
        >>> t.seen_by_all(4), t.seen_by_all(5), t.seen_at(4)
        (True, False, 2.0)
        """
        return max(times[bisect.bisect_left(seqs, seq)] for seqs, times in self.reached.values())

def _raise_file_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Progress:
    def __init__(self, started: float, seconds: float):
        self.seconds = seconds
        self.started = started
        self.moves = 0

    def show(self) -> None:
        done = max(0.0, min(1.0, (time.perf_counter() - self.started) / self.seconds))
        bar = "#" * int(done * 30)
        sys.stderr.write(f"\r[{bar:<30}] {done * 100:3.0f}%  {self.moves} moves")
        sys.stderr.flush()

async def _create(http: aiohttp.ClientSession, url: str, token: str, players: int) -> dict[str, Any]:
    async with http.post(f"{url}/api/tables", json={"ruleset": "classic52", "seats": players},
                         headers={"Authorization": f"Bearer {token}"}) as r:
        created: dict[str, Any] = await r.json()
    return created


async def _table(http: aiohttp.ClientSession, url: str, players: int, k: int, tally: Tally,
                 replicas: Sequence[str] = ()) -> Table:
    """A started table of ``players`` guests, a tab each; with gateway ``replicas``, its seats' tabs are
    spread over them and ``url`` (the table's frames then cross replicas), each with the others as spares."""
    host = await new_session(http, url, f"Host{k}")
    created = await _create(http, url, host, players)
    table = Table(created["table_id"])
    tokens = [host]
    for i in range(1, players):
        token = await new_session(http, url, f"P{k}x{i}")
        async with http.post(f"{url}/api/tables/{table.table}/join", json={"invitation": created["invitation"]},
                             headers={"Authorization": f"Bearer {token}"}):
            pass
        tokens.append(token)
    async with http.post(f"{url}/api/tables/{table.table}/start", headers={"Authorization": f"Bearer {host}"}):
        pass
    urls = [url, *replicas]
    for seat, token in enumerate(tokens):
        table.views.append(None)
        own = (k + seat) % len(urls)
        table.tabs.append(Tab(http, urls[own], token, [table.table], table.on_frame(seat), tally,
                              spares=urls[own + 1:] + urls[:own]))
    return table


def _mover(table: Table) -> int | None:
    return next((seat for seat, v in enumerate(table.views) if v and v.get("turn") is not None
                 and any(a["do"] != "challenge" for a in v.get("legal_actions", []))), None)


@dataclass
class Measure:
    """The moves of the measured time: how long each took, and when each was seen by its whole table."""

    start: float
    end: float
    latencies: list[float] = field(default_factory=list)
    completed: list[float] = field(default_factory=list)
    unseen: int = 0  # moves acknowledged whose batch some seat was never sent

    def rate(self) -> float:
        """Moves seen by their whole table within the measured time, per second of it.

        >>> Measure(0.0, 2.0, completed=[0.5, 1.0, 1.5, 2.5]).rate()
        1.5
        """
        return sum(self.start <= t <= self.end for t in self.completed) / (self.end - self.start)

    def part(self, start: float, end: float) -> Measure:
        """The moves of the measured time seen by their whole table between ``start`` and ``end``.

        >>> part = Measure(0.0, 4.0, [0.1, 0.2, 0.3], [0.5, 1.5, 3.5]).part(1.0, 3.0)
        >>> part.latencies, part.longest_stall()
        ([0.2], 1.5)
        """
        kept = [(latency, seen) for latency, seen in zip(self.latencies, self.completed, strict=True)
                if start <= seen <= end]
        return Measure(start, end, [latency for latency, _ in kept], [seen for _, seen in kept])

    def longest_stall(self) -> float:
        """The longest time in the measured window in which no move anywhere was seen by its whole table."""
        marks = [self.start, *sorted(t for t in self.completed if self.start <= t <= self.end), self.end]
        return max(b - a for a, b in itertools.pairwise(marks))


async def play_table(table: Table, measure: Measure, rng: random.Random, progress: Progress, think: float,
                moves: int | None = None) -> None:
    """Play the table until the measured time ends (or ``moves`` moves were seen by everyone)."""
    counter = 0
    ids = uuid.uuid4().hex[:8]  # a later call at the same table must not send the same ids again
    due = time.perf_counter()
    deadline = measure.end

    def can_move() -> bool:
        first = table.views[0]
        return _mover(table) is not None or bool(first and first.get("round_over"))

    while time.perf_counter() < deadline:
        if not await until(table.changed, can_move, deadline):
            return
        seat = _mover(table)
        if seat is None:  # between rounds, or a match played out: everyone goes on
            if table.status == "over":
                for tab in table.tabs:
                    await tab.command(table.table, f"{ids}m{counter}", {"rematch": {"accept": True}}, deadline)
                    counter += 1
            else:
                await table.tabs[0].command(table.table, f"{ids}m{counter}", {"next_round": {}}, deadline)
                counter += 1
            await asyncio.sleep(0.01)
            continue
        if think:  # players take their time: Poisson arrivals per table, on a schedule kept whatever the replies do
            due += rng.expovariate(1 / think)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        view = table.views[seat]
        if view is None:
            continue
        options = [a for a in view["legal_actions"] if a["do"] != "challenge"]
        sent = time.perf_counter()
        move = {"move": rng.choice(options)["move"]}  # as the web client sends it
        ack = await table.tabs[seat].command(table.table, f"{ids}m{counter}", move, deadline)
        counter += 1
        if not ack.get("ok"):
            await asyncio.sleep(0.01)
            continue
        seq: int = ack["seqs"][0]
        if not await until(table.changed, lambda seq=seq: table.seen_by_all(seq), deadline + UNSEEN_SECONDS):  # type: ignore[misc]
            measure.unseen += sent >= measure.start
            return
        if sent >= measure.start:
            seen = table.seen_at(seq)
            measure.latencies.append(seen - sent)
            measure.completed.append(seen)
            progress.moves += 1
        if moves is not None:
            moves -= 1
            if moves <= 0:
                return

async def drive(url: str, plan: Plan, processes: dict[str, int] | None = None) -> dict[str, Any]:
    """Run ``plan`` against the gateway at ``url``: the figures, as one dictionary.

    ``processes``: the platform's processes by name (their CPU per move is measured), when it runs here.
    """
    _raise_file_limit()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        result, _ = await play(http, url, plan, (processes or {}).get("gateway"), Tally(), processes)
    return result


async def play(http: aiohttp.ClientSession, url: str, plan: Plan, gateway_pid: int | None,
               tally: Tally, processes: dict[str, int] | None = None, replicas: Sequence[str] = (),
               window: Callable[[], tuple[float, float]] | None = None) -> tuple[dict[str, Any], list[Table]]:
    """The figures of one run, and its tables (their tabs closed).

    With ``processes`` (name: pid), also the CPU milliseconds each spent per move measured
    (``cpu_ms_per_move``; the load's own client process as ``client``). ``replicas``: more gateways,
    the tabs spread over them and ``url``. ``window``: read once the run is over, two ``perf_counter``
    times within the measured one (a drill's faults, say) whose moves are also figured apart
    (``window_moves``, ``window_p99_ms``, ``window_longest_stall_ms``).
    """
    rng = random.Random(plan.seed)
    players = max(2, min(4, plan.clients // max(1, plan.tables)))
    idle = None
    if plan.idle_tables:
        idle = await follow_idle_tables(http, url, plan.idle_tables, plan.seed, gateway_pid, tally)
    tables = [await _table(http, url, players, k, tally, replicas) for k in range(plan.tables)]
    tabs = [tab for t in tables for tab in t.tabs]
    running = [asyncio.create_task(tab.run()) for tab in tabs]
    await _all_open(tables)
    start = time.perf_counter() + plan.warmup
    measure = Measure(start, start + plan.seconds)
    progress = Progress(start, plan.seconds)
    ticker = asyncio.create_task(_tick(progress))
    think = plan.tables / plan.rate if plan.rate else 0.0
    metering = asyncio.create_task(_meter_from(start, {**(processes or {}), "client": os.getpid()}))
    await asyncio.gather(*(play_table(t, measure, rng, progress, think) for t in tables))
    cpu = (await metering).per(len(measure.latencies)) if processes else None
    ticker.cancel()
    sys.stderr.write("\n")
    result = await _idle_sockets(http, url, plan, gateway_pid)
    await _stop(tabs, running)
    if idle is not None:
        await _stop(idle.tabs, idle.running)
        result.update(idle.figures)
    if window is not None:
        part = measure.part(*window())
        result.update(window_moves=len(part.latencies), window_p99_ms=_ms(percentile(part.latencies, 0.99)),
                      window_longest_stall_ms=_ms(part.longest_stall()))
    latencies = measure.latencies
    return {"clients": len(tabs), "tables": plan.tables, "offered_per_s": plan.rate,
            "warmup_s": plan.warmup, "moves": len(latencies), "seconds": plan.seconds,
            "moves_per_s": round(measure.rate(), 1), "unseen": measure.unseen,
            "p50_ms": _ms(percentile(latencies, 0.5)), "p99_ms": _ms(percentile(latencies, 0.99)),
            "max_ms": _ms(max(latencies, default=0.0)), "longest_stall_ms": _ms(measure.longest_stall()),
            "refusals": dict(tally.refusals), "errors": dict(tally.errors), "timeouts": tally.timeouts,
            "reconnects": tally.reconnects, "failed_connects": tally.failed_connects, **result,
            **({"cpu_ms_per_move": cpu} if cpu else {})}, tables


async def _all_open(tables: list[Table], seconds: float = OPEN_SECONDS) -> None:
    """Wait until every tab has its table's state: the warm-up starts with every page open, as a table's
    people would be (a seat without its page is marked away by the clock, and back when it opens)."""
    deadline = time.perf_counter() + seconds
    for t in tables:
        await until(t.changed, lambda t=t: all(v is not None for v in t.views), deadline)  # type: ignore[misc]


async def _meter_from(start: float, pids: dict[str, int]) -> CpuMeter:
    """A CPU meter of ``pids`` begun when the measured time starts (after the warm-up)."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    return CpuMeter.begin(pids)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def _stop(tabs: list[Tab], running: list[asyncio.Task[None]]) -> None:
    for tab in tabs:
        await tab.stop()
    await asyncio.gather(*running, return_exceptions=True)


async def _idle_sockets(http: aiohttp.ClientSession, url: str, plan: Plan, gateway_pid: int | None) -> dict[str, Any]:
    """Open ``idle_sockets`` sockets that follow nothing, and read what they cost the gateway.

    A socket refused (a gateway's limit per address, say) ends the phase: the figures say how many
    opened and why no more, beside the measured moves rather than instead of them.
    """
    if not plan.idle_sockets:  # nothing to open, nothing to wait for (chaos, and tests, open none)
        return {"idle_sockets": 0, "kib_per_socket": None}
    before = rss_kib(gateway_pid) if gateway_pid else 0
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    failed = ""
    try:
        for i in range(plan.idle_sockets):
            sockets.append(await http.ws_connect(f"{url.replace('http', 'ws', 1)}/ws",
                                                 headers={"Authorization": f"Bearer idle{i}x{plan.seed}"}))
    except (aiohttp.ClientError, OSError, TimeoutError) as e:
        failed = f"socket {len(sockets) + 1} of {plan.idle_sockets} not opened: {_why(e)}"
    await asyncio.sleep(1.0)
    after = rss_kib(gateway_pid) if gateway_pid else 0
    for ws in sockets:
        await ws.close()
    opened = len(sockets)
    return {"idle_sockets": opened, "kib_per_socket": round((after - before) / opened, 1)
            if gateway_pid and opened else None, **({"idle_sockets_failed": failed} if failed else {})}


def _why(e: BaseException) -> str:
    """What refused a socket, in words that name no address (the handshake's status when there was one).

    >>> _why(TimeoutError())
    'TimeoutError'
    """
    status = getattr(e, "status", None)
    return f"{type(e).__name__} (HTTP {status})" if status else type(e).__name__


def idle_sockets_default(clients: int, url: str | None) -> int:
    """The idle sockets ``maumau loadtest`` opens when not told: 2,000 on its own platform (its limit per
    address lifted), else what the platform's default limit per address leaves beside the tabs, which
    stay open meanwhile (every socket of the run comes from this one address).

    >>> idle_sockets_default(400, None), idle_sockets_default(400, "http://gw:8080"), idle_sockets_default(600, "x")
    (2000, 112, 0)
    """
    return IDLE_SOCKETS if url is None else max(0, SocketLimits().per_address - clients)


async def _tick(progress: Progress) -> None:
    while True:
        progress.show()
        await asyncio.sleep(0.5)


def unlimited() -> dict[str, str]:
    """The gateway's limits lifted: every client of the load test comes from this one address."""
    return {**{f"MAUMAU_RATE_{f.name.upper()}": "0" for f in fields(RateLimits)},
            "MAUMAU_SOCKET_PER_ADDRESS": "1000000", "MAUMAU_SOCKET_PER_IDENTITY": "1000000"}


def per_address_lifted() -> dict[str, str]:
    """The gateway's limits per address lifted, those per player kept: thousands of simulated players
    come from this one address, but each is a player of its own (``maumau bench matchmaking``)."""
    return {**{f"MAUMAU_RATE_{f.name.upper()}": "0" for f in fields(RateLimits) if f.name.endswith("_per_address")},
            "MAUMAU_SOCKET_PER_ADDRESS": "1000000"}


async def run(plan: Plan, url: str | None) -> str:
    if url:
        return json.dumps(await drive(url, plan))
    with tempfile.TemporaryDirectory(prefix="maumau-loadtest-") as data:
        async with running_platform(Path(data), quiet=True, settings=unlimited()) as (addresses, children):
            return json.dumps(await drive(addresses["gateway_url"], plan, pids(children)))
