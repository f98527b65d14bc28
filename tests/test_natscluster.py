"""A JetStream cluster of nats-server processes (services/runtime/natscluster.py, ``maumau up --cluster N``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
from pathlib import Path

import pytest
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig

from maumau.v1 import events_pb2
from services.runtime import natscluster
from services.runtime.lifecycle import connect
from services.runtime.supervisor import Child, nats_servers, running_platform
from services.table.store import STREAM, EventStore
from tests.natsserver import JetStreamCluster


def test_each_server_has_its_name_its_ports_its_store_and_routes_to_every_other(tmp_path: Path) -> None:
    servers = natscluster.plan(3, tmp_path, itertools.count(41000).__next__)
    configs = [natscluster.config(s, servers) for s in servers]
    for s, text in zip(servers, configs, strict=True):
        routes = next(line for line in text.splitlines() if "routes:" in line)
        assert f'server_name: "{s.name}"' in text and f'listen: "127.0.0.1:{s.port}"' in text
        assert f'http: "127.0.0.1:{s.monitor_port}"' in text and f'store_dir: "{s.store_dir}"' in text
        assert {f"127.0.0.1:{o.cluster_port}" in routes for o in servers} == {True, False}
        assert f":{s.cluster_port}" not in routes  # no route to itself
    assert len({s.name for s in servers}) == len({s.store_dir for s in servers}) == 3
    assert len({p for s in servers for p in (s.port, s.cluster_port, s.monitor_port)}) == 9
    assert natscluster.client_urls(servers) == ",".join(s.url for s in servers)
    assert [natscluster.replicas(n) for n in (1, 2, 3, 5)] == [1, 2, 3, 3]


def test_a_port_found_free_twice_is_given_to_one_server_only(tmp_path: Path) -> None:
    # the kernel may hand a port out again
    repeating = itertools.chain.from_iterable((p, p) for p in itertools.count(42000))
    servers = natscluster.plan(3, tmp_path, repeating.__next__)
    assert len({p for s in servers for p in (s.port, s.cluster_port, s.monitor_port)}) == 9


async def _append(store: EventStore, table_id: str, expected: int, command_id: str) -> int:
    batch = events_pb2.EventBatch(events=[events_pb2.Event(command_id=command_id)])
    stored, _ = await store.append(table_id, batch, expected, command_id)
    return stored.seq


async def _replicas_current(nc: NATS, stream: str, n: int) -> None:
    """Until ``stream`` has a leader and ``n - 1`` followers caught up with it."""
    for _ in range(300):
        with contextlib.suppress(NatsError):  # no answer while it elects a leader
            cluster = (await nc.jetstream().stream_info(stream)).cluster
            peers = cluster.replicas if cluster is not None else None
            if cluster is not None and cluster.leader and peers is not None and len(peers) == n - 1 \
                    and all(p.current and not p.offline for p in peers):
                return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{stream} never had {n} current replicas")


async def _consumer_copies(nc: NATS, stream: str, durable: str) -> int:
    """How many servers keep the durable consumer, once it has as many as its stream (or after 30 s)."""
    for _ in range(300):
        cluster = (await nc.jetstream().consumer_info(stream, durable)).cluster
        copies = 1 + len(cluster.replicas or []) if cluster is not None else 1
        if copies == 3:
            break
        await asyncio.sleep(0.1)
    return copies


async def test_a_stream_made_with_one_replica_gets_three_its_consumer_too_and_outlives_its_leaders_kill(
        nats_cluster: JetStreamCluster) -> None:
    nc = await connect(nats_cluster.url, "test")  # the comma-separated list, as the services get it
    try:
        js = nc.jetstream()
        await EventStore(js, replicas=1).ensure_stream()  # a deployment from before the cluster had replicas
        before = await _append(EventStore(js), "t1", 0, "c1")
        await js.add_consumer(STREAM, ConsumerConfig(durable_name="reader", ack_policy=AckPolicy.EXPLICIT))
        await EventStore(js, replicas=3).ensure_stream()  # its services started again with MAUMAU_STREAM_REPLICAS=3
        await _replicas_current(nc, STREAM, 3)
        reader = await _consumer_copies(nc, STREAM, "reader")
        leader = await nats_cluster.leader(js, STREAM)
        await asyncio.to_thread(leader.kill)
        elected = await nats_cluster.leader(js, STREAM)  # no answer at all until the others elect one
        after = await _append(EventStore(js), "t1", before, "c2")
        stored = await EventStore(js).read("t1")
        config = (await js.stream_info(STREAM)).config
    finally:
        await nc.close()
    assert config.num_replicas == 3 and elected is not leader and reader == 3  # the consumer follows its stream
    assert [(s.seq, s.batch.events[0].command_id) for s in stored] == [(before, "c1"), (after, "c2")]


async def test_maumau_up_cluster_runs_the_servers_and_the_services_ask_for_three_replicas(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NATS_URL", raising=False)
    monkeypatch.delenv("MAUMAU_STREAM_REPLICAS", raising=False)
    async with running_platform(tmp_path, quiet=True, only=("nats1", "nats2", "nats3", "table"), cluster=3) as (
            addresses, children):
        listed = nats_servers(children)
        table = children[-1]
        nc = await connect(addresses["nats_url"], "test")
        try:
            await _replicas_current(nc, STREAM, 3)  # made by the table service
            info = await nc.jetstream().stream_info(STREAM)
            leader = next(c for c in children if info.cluster is not None and c.name == info.cluster.leader)
            pid, argv = leader.pid, list(leader.argv)
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            await _until_started_again(leader)
            await _replicas_current(nc, STREAM, 3)  # the server came back on its ports, with its store
            again = leader.pid
        finally:
            await nc.close()
    assert table.env["NATS_URL"] == addresses["nats_url"] == ",".join(str(s["url"]) for s in listed)
    assert table.env["MAUMAU_STREAM_REPLICAS"] == "3"
    assert [s["name"] for s in listed] == ["nats1", "nats2", "nats3"]
    assert all(str(s["monitor_url"]).startswith("http://127.0.0.1:") for s in listed)
    assert leader.argv == argv and again not in (None, pid) and leader.restarts == 1


async def _until_started_again(child: Child) -> None:
    for _ in range(300):
        if child.restarts and child.pid is not None:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("never started again")
