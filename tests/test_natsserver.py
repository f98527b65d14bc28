"""The NATS JetStream test server itself (tests/natsserver.py), against the real server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import nats
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.errors import BadRequestError

from tests.natsserver import RESERVED_PORT, JetStreamServer

STREAM = "EVENTS"
EXPECTED_SEQ = "Nats-Expected-Last-Subject-Sequence"
MSG_ID = "Nats-Msg-Id"
WRONG_LAST_SEQUENCE = 10071


async def _connect(url: str) -> Client:
    return await nats.connect(url, connect_timeout=5, allow_reconnect=False)


@pytest.fixture
async def nc(nats_url: str) -> AsyncIterator[Client]:
    client = await _connect(nats_url)
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
async def js(nc: Client) -> JetStreamContext:
    context = nc.jetstream()
    await context.add_stream(name=STREAM, subjects=["events.>"])
    return context


async def test_each_test_gets_a_fresh_server_on_its_own_port(nats_server: JetStreamServer, nc: Client) -> None:
    assert nats_server.url.startswith("nats://127.0.0.1:") and nats_server.port != RESERVED_PORT
    assert await nc.jetstream().streams_info() == []


async def test_publish_expecting_the_current_subject_sequence_succeeds(js: JetStreamContext) -> None:
    first = await js.publish("events.t1", b"e1", headers={EXPECTED_SEQ: "0"})
    await js.publish("events.t2", b"other subject", headers={EXPECTED_SEQ: "0"})
    second = await js.publish("events.t1", b"e2", headers={EXPECTED_SEQ: str(first.seq)})
    assert (first.seq, second.seq) == (1, 3)


async def test_publish_expecting_a_stale_subject_sequence_fails_with_10071(js: JetStreamContext) -> None:
    first = await js.publish("events.t1", b"e1", headers={EXPECTED_SEQ: "0"})
    await js.publish("events.t1", b"e2", headers={EXPECTED_SEQ: str(first.seq)})
    with pytest.raises(BadRequestError) as raised:
        await js.publish("events.t1", b"lost race", headers={EXPECTED_SEQ: str(first.seq)})
    assert raised.value.err_code == WRONG_LAST_SEQUENCE
    assert (await js.stream_info(STREAM)).state.messages == 2


async def test_a_duplicate_msg_id_is_acknowledged_as_duplicate(js: JetStreamContext) -> None:
    first = await js.publish("events.t1", b"e1", headers={MSG_ID: "cmd-1"})
    again = await js.publish("events.t1", b"e1", headers={MSG_ID: "cmd-1"})
    assert not first.duplicate
    assert again.duplicate is True and again.seq == first.seq
    assert (await js.stream_info(STREAM)).state.messages == 1


@pytest.mark.parametrize("kill", [False, True], ids=["stop", "kill-9"])
async def test_stream_messages_survive_a_server_restart(nats_server: JetStreamServer, kill: bool) -> None:
    nc = await _connect(nats_server.url)
    js = nc.jetstream()
    await js.add_stream(name=STREAM, subjects=["events.>"])
    acks = [await js.publish(f"events.t{i % 2}", f"e{i}".encode(), headers={MSG_ID: f"m{i}"}) for i in range(10)]
    await nc.close()
    url = nats_server.url

    nats_server.restart(kill=kill)

    assert nats_server.url == url and nats_server.starts == 2
    nc = await _connect(nats_server.url)
    try:
        js = nc.jetstream()
        assert (await js.stream_info(STREAM)).state.messages == 10
        stored = [await js.get_msg(STREAM, seq=ack.seq) for ack in acks]
        assert [(m.subject, m.data) for m in stored] == [(f"events.t{i % 2}", f"e{i}".encode()) for i in range(10)]
        after = await js.publish("events.t1", b"e10", headers={EXPECTED_SEQ: str(acks[-1].seq)})
        assert after.seq == 11
    finally:
        await nc.close()


async def test_a_frozen_server_keeps_the_connection_and_answers_only_once_thawed(nats_server: JetStreamServer,
                                                                                nc: Client) -> None:
    nats_server.freeze()
    try:
        with pytest.raises(nats.errors.TimeoutError):
            await nc.request("$JS.API.INFO", b"", timeout=0.5)
        connected_while_frozen = nc.is_connected
    finally:
        nats_server.thaw()
    reply = await nc.request("$JS.API.INFO", b"", timeout=5)
    assert connected_while_frozen and b"account_info" in reply.data
