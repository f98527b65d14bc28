"""/readyz says whether a replica may be sent work: 503 until it answers, 200 once it does, 503 while NATS does not."""

from __future__ import annotations

import asyncio

import aiohttp
import nats

from maumau.v1 import table_pb2
from services.runtime.lifecycle import run_until_stopped
from services.table.client import send
from services.table.rules_client import GrpcRules
from services.table.service import Settings, TableService
from services.table.store import EventStore
from tests.natsserver import JetStreamServer, free_port


async def _probe(port: int, path: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status


async def _until_listening(port: int) -> None:
    for _ in range(200):
        try:
            await _probe(port, "/healthz")
            return
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.02)
    raise AssertionError("the health endpoint never listened")


async def test_readyz_is_503_until_the_service_says_it_answers_and_healthz_is_200_throughout(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    answering, done = asyncio.Event(), asyncio.Event()
    port = free_port()
    service = asyncio.create_task(run_until_stopped(done.wait(), nc, port, answering.is_set))
    try:
        await _until_listening(port)
        before = (await _probe(port, "/readyz"), await _probe(port, "/healthz"))
        answering.set()
        after = (await _probe(port, "/readyz"), await _probe(port, "/healthz"))
    finally:
        done.set()
        await service
    assert before == (503, 200)
    assert after == (200, 200)


async def _until_status(port: int, status: int) -> None:
    for _ in range(50):  # a probe waits for NATS at most a second
        if await _probe(port, "/readyz") == status:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"/readyz never answered {status}")


async def test_readyz_is_503_while_nats_is_frozen_and_200_again_once_it_answers(nats_server: JetStreamServer) -> None:
    nc = await nats.connect(nats_server.url)
    done = asyncio.Event()
    port = free_port()
    service = asyncio.create_task(run_until_stopped(done.wait(), nc, port))
    try:
        await _until_listening(port)
        await _until_status(port, 200)
        nats_server.freeze()
        try:
            await _until_status(port, 503)
        finally:
            nats_server.thaw()
        await _until_status(port, 200)
    finally:
        done.set()
        await service


async def test_a_table_replica_says_it_answers_once_its_subscription_is_in_place(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    store = EventStore(nc.jetstream())
    await store.ensure_stream()
    replica = TableService(store, GrpcRules("127.0.0.1:1"), Settings())
    ready_before = replica.answering.is_set()
    serving = asyncio.create_task(replica.serve(nc))
    try:
        await asyncio.wait_for(replica.answering.wait(), 5)
        reply = await send(nc, table_pb2.TableCommand(command_id="c1", table_id="t1", actor="ana",
                                                      create=table_pb2.CreateTable(ruleset="classic32", seats=2)))
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
        await nc.close()
    assert not ready_before
    assert reply.WhichOneof("result") == "done"
