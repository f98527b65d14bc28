"""N ``nats-server`` processes on this machine forming one JetStream cluster.

Each server has a configuration file of its own (``plan`` then ``write``): a distinct
``server_name`` (``nats1``, ``nats2``, …), a client port, a monitoring port, a cluster port
with routes to every other server's, and a JetStream store directory of its own. The names and
the store directories depend only on the data directory, so a cluster started again on the
same data finds its streams: JetStream knows a peer by its server name, not by its ports,
which are chosen free at each start. ``maumau up --cluster N`` and the tests
(``tests/natsserver.py`` ``jetstream_cluster``) start these files.

A cluster answers JetStream's API only once its servers have elected a meta leader, a few
seconds after a quorum of them is up; a client waits for it (``lifecycle.connect``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

CLUSTER_NAME = "maumau"
HOST = "127.0.0.1"
MAX_REPLICAS = 3  # JetStream's sensible most: each copy costs a write; three survive one server lost


@dataclass(frozen=True)
class ClusterServer:
    """One server of the cluster: its name, its three ports and where it keeps its files."""

    name: str
    port: int  # clients
    cluster_port: int  # routes from the other servers
    monitor_port: int  # HTTP monitoring (/varz, /jsz, /healthz)
    home: Path  # its configuration, its store directory

    @property
    def url(self) -> str:
        return f"nats://{HOST}:{self.port}"

    @property
    def monitor_url(self) -> str:
        return f"http://{HOST}:{self.monitor_port}"

    @property
    def config(self) -> Path:
        return self.home / "nats.conf"

    @property
    def store_dir(self) -> Path:
        return self.home / "jetstream"

    def argv(self, binary: str) -> list[str]:
        return [binary, "-c", str(self.config)]


def plan(n: int, data_dir: Path, free_port: Callable[[], int]) -> list[ClusterServer]:
    """``n`` servers on ports ``free_port`` chooses, each at home in ``data_dir/nats<i>``.

    Every port differs from every other: a port found free and let go can be found free again
    by the next call (seen here: a server's route and monitoring ports the same, so it died).

    >>> ports = iter([41000, 41000, 41001, 41002])
    >>> [s.cluster_port for s in plan(1, Path("/tmp"), ports.__next__)]
    [41001]
    """
    ports: list[int] = []
    while len(ports) < 3 * n:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return [ClusterServer(f"nats{i + 1}", ports[3 * i], ports[3 * i + 1], ports[3 * i + 2],
                          (data_dir / f"nats{i + 1}").resolve())
            for i in range(n)]


def config(server: ClusterServer, servers: Sequence[ClusterServer]) -> str:
    """The server's configuration: routes to every other server of ``servers``."""
    routes = ", ".join(f'"nats-route://{HOST}:{s.cluster_port}"' for s in servers if s.name != server.name)
    return (f'server_name: "{server.name}"\n'
            f'listen: "{HOST}:{server.port}"\n'
            f'http: "{HOST}:{server.monitor_port}"\n'
            f'jetstream {{\n  store_dir: "{server.store_dir}"\n}}\n'
            f'cluster {{\n  name: "{CLUSTER_NAME}"\n  listen: "{HOST}:{server.cluster_port}"\n'
            f'  routes: [{routes}]\n}}\n')


def write(servers: Sequence[ClusterServer]) -> None:
    """Write every server's configuration file (its store directory is made by the server)."""
    for server in servers:
        server.home.mkdir(parents=True, exist_ok=True)
        server.config.write_text(config(server, servers))


def client_urls(servers: Sequence[ClusterServer]) -> str:
    """The value of ``NATS_URL`` for the cluster: every server's client URL, comma-separated."""
    return ",".join(s.url for s in servers)


def replicas(n: int) -> int:
    """How many copies of each stream a cluster of ``n`` servers keeps."""
    return min(MAX_REPLICAS, n)
