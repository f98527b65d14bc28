"""Shared fixtures: a real NATS JetStream server (see tests/natsserver.py for the backends), and this run's own
PostgreSQL database where one is given (tests/postgres.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.natsserver import JetStreamCluster, JetStreamServer, backend_choice, jetstream_cluster, jetstream_server
from tests.postgres import VARIABLE, own_database


@pytest.fixture(scope="session", autouse=True)
def own_postgresql() -> Iterator[None]:
    """``MAUMAU_TEST_DATABASE_URL`` points, for the whole run and the processes it starts, at a database of
    the run's own on the server it named: made now, dropped at the end."""
    given = os.environ.get(VARIABLE)
    if not given:
        yield
        return
    with own_database(given) as url:
        os.environ[VARIABLE] = url
        try:
            yield
        finally:
            os.environ[VARIABLE] = given


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
