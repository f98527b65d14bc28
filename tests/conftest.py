"""Shared fixtures: a real NATS JetStream server (see tests/natsserver.py for the backends)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.natsserver import JetStreamCluster, JetStreamServer, backend_choice, jetstream_cluster, jetstream_server


def pytest_report_header() -> str:
    choice = backend_choice()
    return f"NATS test backend: {choice.backend} ({choice.reason})"


@pytest.fixture
def nats_server() -> Iterator[JetStreamServer]:
    """A fresh JetStream server for one test: `.url`, `.stop()`, `.kill()`, `.start()`, `.restart()`."""
    with jetstream_server() as server:
        yield server


@pytest.fixture
def nats_url(nats_server: JetStreamServer) -> str:
    """The `nats://127.0.0.1:PORT` URL of the test's fresh JetStream server."""
    return nats_server.url


@pytest.fixture
def nats_cluster() -> Iterator[JetStreamCluster]:
    """Three JetStream servers as one cluster (`.url` lists them all); each can be killed and started again."""
    with jetstream_cluster(3) as cluster:
        yield cluster
