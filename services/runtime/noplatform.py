"""``NoPlatform``, in a module of its own that imports nothing: every ``maumau`` command catches it, and
``services.runtime.platform`` (NATS, aiohttp, Prometheus: half a second of CPU to import) is loaded only by
the commands that talk to the platform."""

from __future__ import annotations


class NoPlatform(Exception):
    """No NATS answered at the address a command was given or found."""
