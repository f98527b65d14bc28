"""Which NATS a ``maumau`` command talks to: ``--nats-url``, else ``NATS_URL``, else the platform that
``make run`` started here (its ``.data/run.json``), else NATS's usual address; and a connection for a
tool, which says plainly when nothing answers instead of retrying for minutes.

>>> nats_url("nats://a:1", Path("/nowhere/run.json"), {"NATS_URL": "nats://b:2"})
('nats://a:1', '--nats-url')
>>> nats_url(None, Path("/nowhere/run.json"), {"NATS_URL": "nats://b:2"})
('nats://b:2', 'NATS_URL')
>>> nats_url(None, Path("/nowhere/run.json"), {})
('nats://127.0.0.1:4222', 'the default (no platform is running here)')
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import nats
from nats.aio.client import Client as NATS

from services.runtime.lifecycle import servers
from services.runtime.noplatform import NoPlatform

RUN_FILE = Path(".data") / "run.json"  # written by ``maumau up`` once every service answers, removed when it stops
DEFAULT = "nats://127.0.0.1:4222"
TRIES = 3  # connection attempts, half a second apart, before a tool gives up


def nats_url(given: str | None, run_file: Path = RUN_FILE,
             env: Mapping[str, str] = os.environ) -> tuple[str, str]:
    """The NATS address and where it came from (said on stderr by the CLI)."""
    if given:
        return given, "--nats-url"
    if env.get("NATS_URL"):
        return env["NATS_URL"], "NATS_URL"
    try:
        found = json.loads(run_file.read_text()).get("nats_url")
    except (OSError, ValueError):
        found = None
    if isinstance(found, str) and found:
        return found, str(run_file)
    return DEFAULT, "the default (no platform is running here)"


async def tool_connect(url: str) -> NATS:
    """A tool's connection: a few quick tries, then ``NoPlatform`` (a service's own connection waits forever)."""
    async def quiet(error: Exception) -> None:
        """Each failed try: not a traceback on the operator's terminal (``NoPlatform`` says it once)."""

    try:
        return await nats.connect(servers(url), connect_timeout=2, max_reconnect_attempts=TRIES,
                                  reconnect_time_wait=0.5, error_cb=quiet)
    except (nats.errors.NoServersError, OSError) as e:
        raise NoPlatform(f"no NATS answers at {url}") from e
