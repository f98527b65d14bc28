"""Run a service until SIGINT/SIGTERM, with a NATS connection and an optional health endpoint.

The health endpoint (``MAUMAU_HEALTH_PORT``) answers ``/healthz``, ``/readyz`` and ``/metrics``
(Prometheus, ``services.runtime.metrics``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import nats
import uvloop
from aiohttp import web
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError

from services.runtime import logs
from services.runtime.metrics import exposition
from services.runtime.settings import Settings
from services.runtime.timeouts import stop

T = TypeVar("T")
YOUNG_OBJECTS_PER_COLLECTION = 20_000
JETSTREAM_INFO = "$JS.API.INFO"  # answered by the server's JetStream itself, whatever the account holds


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run a service's main coroutine on uvloop (10–25 % faster for NATS and gRPC here)."""
    tune_gc()
    return uvloop.run(main)


def tune_gc() -> None:
    """Garbage collection for a long-running service under load.

    What the imports made (modules, classes, protobuf descriptors) never dies, yet every
    full collection walked it: frozen, it is left alone (full collections had stalled a
    service 50–90 ms under load). The youngest generation is collected after 20,000 new
    objects instead of 700: under load most collections found nothing to free, and the
    rarer ones shortened the load test's tail (docs/performance.md).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *gc.get_threshold()[1:])


def setup_logging(name: str, level: str | None = None) -> None:
    """Log lines that name the service, at ``level`` (else the environment's ``MAUMAU_LOG_LEVEL``).

    JSON lines, or text on a terminal (``MAUMAU_LOG_FORMAT``): ``services.runtime.logs``.
    """
    settings = Settings.from_env()
    logs.setup(name, level or settings.log_level, settings.log_format)


def servers(url: str) -> list[str]:
    """The servers a ``NATS_URL`` names: one, or several comma-separated (a cluster), as nats-py takes them.

    >>> servers("nats://a:4222, nats://b:4222")
    ['nats://a:4222', 'nats://b:4222']
    """
    return [u.strip() for u in url.split(",") if u.strip()]


async def connect(url: str, name: str) -> NATS:
    """A NATS connection that keeps reconnecting (the server may restart under us), once JetStream answers.

    ``url`` names one server or several, comma-separated (a cluster: ``maumau up --cluster 3``);
    nats-py takes a list, and learns the cluster's other servers from the one it reaches.
    """
    log = logging.getLogger(f"maumau.{name}.nats")

    async def error(e: Exception) -> None:
        log.warning("nats: %s", e or type(e).__name__)

    async def disconnected() -> None:
        log.info("nats: disconnected")

    async def reconnected() -> None:
        log.info("nats: reconnected")

    nc = await nats.connect(servers(url), name=name, max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                            error_cb=error, disconnected_cb=disconnected, reconnected_cb=reconnected)
    await _jetstream_answers(nc, log)
    return nc


async def _jetstream_answers(nc: NATS, log: logging.Logger) -> None:
    """Wait until JetStream answers its API.

    A cluster's servers first elect a meta leader, seconds after a quorum of them is up; until
    then no stream can be made, and a service that failed there would only be started again.
    """
    waiting = False
    while True:
        try:
            await nc.jetstream().account_info()
            return
        except NatsError as e:
            if not waiting:
                log.info("nats: waiting for JetStream to answer (%s)", e or type(e).__name__)
                waiting = True
            await asyncio.sleep(0.5)


async def nats_answers(nc: NATS, timeout: float = 1.0) -> bool:
    """Whether the NATS server (and its JetStream) answers a request within ``timeout`` seconds.

    ``nc.is_connected`` stays true while the server is frozen. The round trip is a request and
    not ``nc.flush(timeout)`` (nor ``nc.rtt``): a flush that times out leaves its cancelled
    future in the client's queue of PONGs, and the late PONG then ends the client's reading
    for good while it still says it is connected (nats-py 2.16).
    """
    if not nc.is_connected:
        return False
    try:
        await nc.request(JETSTREAM_INFO, b"", timeout=timeout)
    except NatsError:  # no answer in time, or no JetStream to answer
        return False
    return True


async def metrics(_: web.Request) -> web.Response:
    """``/metrics``: every metric of this process, in Prometheus's text format."""
    body, content_type = exposition()
    return web.Response(body=body, headers={"Content-Type": content_type})


async def start_health(port: int, ready: Callable[[], Awaitable[bool]]) -> web.AppRunner | None:
    """Serve ``/healthz``, ``/readyz`` (200 while ``ready()``) and ``/metrics`` on ``port`` (0: nothing)."""
    if not port:
        return None

    async def healthz(_: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    async def readyz(_: web.Request) -> web.Response:
        answers = await ready()
        return web.json_response({"ready": answers}, status=200 if answers else 503)

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    runner = web.AppRunner(app, access_log=None)  # probes and scrapes every few seconds: not worth a line each
    await runner.setup()
    await web.TCPSite(runner, "0.0.0.0", port).start()  # probes come from outside the pod
    return runner


async def run_until_stopped(work: Awaitable[object], nc: NATS, health_port: int = 0,
                            ready: Callable[[], bool] = lambda: True) -> None:
    """Run ``work`` until a signal (or until it ends), then close NATS and stop the health endpoint.

    The service is ready while ``ready()`` holds (a replica answering requests) and NATS answers.
    """
    signalled = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, signalled.set)
    task = asyncio.ensure_future(work)

    async def answering() -> bool:
        return ready() and await nats_answers(nc)

    runner = await start_health(health_port, answering)
    try:
        stopping = asyncio.create_task(signalled.wait())
        await asyncio.wait([task, stopping], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if task.done():
            task.result()
    finally:
        await stop(task)
        if runner is not None:
            await runner.cleanup()
        if not nc.is_closed:
            await nc.flush()
            await nc.close()  # the work has finished its in-flight messages; draining would wait on its inboxes
