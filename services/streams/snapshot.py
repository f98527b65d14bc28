"""JetStream's own snapshot of one stream, taken and given back: every message at its sequence.

A table's record names each batch's previous stream sequence (docs/record.md), so a backup
must bring the messages back at the sequences they had; publishing them again into a new
stream would number them afresh. The server's snapshot API keeps them, and the consumers'
positions too. nats-py does not offer it; the protocol is small:

* **snapshot**: a request to ``$JS.API.STREAM.SNAPSHOT.<stream>`` names a deliver subject; the
  answer is the stream's configuration and state, then the server sends the archive (tar, s2
  compressed) there in chunks, each with a reply subject to acknowledge it (the server sends
  a window ahead, no more), and ends with an empty message (a status header other than 204 in
  it is an error).
* **restore**: a request to ``$JS.API.STREAM.RESTORE.<stream>`` with that configuration and
  state answers a subject; the archive's chunks are sent there as requests, one after the
  other, and an empty request ends it: its answer is the stream made (or why not).

One stream is one directory holding ``backup.json`` (the configuration and state as the
server gave them) and ``stream.tar.s2`` (the archive), the layout of ``nats stream backup``:
natscli's ``nats stream restore DIR`` reads it too. Beside them, ``consumers.json`` (ours) lists
the stream's durable consumers as the server listed them just before the snapshot: each one's
configuration and the stream sequence it had acknowledged up to. A stream of a JetStream
cluster (nats-server 2.15.1) snapshots without some or all of its consumers, though its state
counts them (the restore drill found it: ``tests/test_restore_drill.py``); ``restore`` makes
each durable the archive did not bring back from that list, delivering from the sequence after
the one it had acknowledged. Taken before the snapshot, that position is never past the
archive's last message; a consumer made from it may be handed again a few batches it had
handled, as after any redelivery.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import NoRespondersError

API = "$JS.API.STREAM"
CONSUMER_API = "$JS.API.CONSUMER"
META, ARCHIVE, CONSUMERS = "backup.json", "stream.tar.s2", "consumers.json"
CHUNK = 64 * 1024  # a restore's chunk: well under the servers' 1 MiB payload limit
REQUEST_SECONDS = 10.0
NO_RESPONDERS_SECONDS = 5.0  # a fresh cluster's restore answers before its subject is known on every route
PLACEMENT_SECONDS = 30.0  # a fresh cluster's meta leader counts a peer offline until it has heard from it
NO_PEERS = 10005  # JetStream's "no suitable peers for placement"
FINISH_SECONDS = 3600.0  # the server unpacks and checks the whole archive before it answers the last request
CONSUMERS_SECONDS = 30.0


class SnapshotError(Exception):
    """The server refused or broke off a snapshot or a restore."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Saved:
    """What one stream's backup or restore holds, as the server counted it."""

    stream: str
    messages: int
    first_seq: int
    last_seq: int
    archive_bytes: int

    def __str__(self) -> str:
        return (f"{self.stream}: {self.messages} messages, sequences {self.first_seq}–{self.last_seq}, "
                f"{self.archive_bytes} bytes archived")


def _answer(reply: Msg) -> dict[str, Any]:
    """The JSON of an API answer, or the server's error as an exception."""
    answer: dict[str, Any] = json.loads(reply.data)
    if "error" in answer:
        error = answer["error"]
        code = error.get("err_code")
        raise SnapshotError(f"{error.get('description', error)} (code {code if code is not None else '?'})",
                            int(code) if code is not None else None)
    return answer


def _saved(stream: str, state: dict[str, Any], archive: Path) -> Saved:
    return Saved(stream, int(state.get("messages", 0)), int(state.get("first_seq", 0)),
                 int(state.get("last_seq", 0)), archive.stat().st_size)


async def durables(nc: NATS, stream: str) -> list[dict[str, Any]]:
    """The stream's durable consumers as the server lists them: ``config`` and ``ack_floor`` of each, as JSON."""
    found: list[dict[str, Any]] = []
    while True:
        page = _answer(await nc.request(f"{CONSUMER_API}.LIST.{stream}", json.dumps({"offset": len(found)}).encode(),
                                        timeout=REQUEST_SECONDS))
        consumers = page.get("consumers") or []
        found += consumers
        if not consumers or len(found) >= int(page.get("total", 0)):
            break
    return [{"config": c["config"], "ack_floor": int((c.get("ack_floor") or {}).get("stream_seq", 0))}
            for c in found if c["config"].get("durable_name")]


async def snapshot(nc: NATS, stream: str, into: Path, consumers: bool = True) -> Saved:
    """Write ``stream``'s snapshot (with its durable consumers' positions) into the new directory ``into``."""
    into.mkdir(parents=True)
    if consumers:  # before the snapshot: no position in it is past the archive's messages
        (into / CONSUMERS).write_text(json.dumps(await durables(nc, stream), indent=2))
    archive = into / ARCHIVE
    ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    with archive.open("wb") as out:

        async def chunk(msg: Msg) -> None:
            if ended.done():
                return
            if not msg.data:  # the end, or the server giving up
                headers = msg.headers or {}
                status = headers.get("Status", "")
                if status and status != "204":
                    ended.set_exception(SnapshotError(f"{stream}: {status} {headers.get('Description', '')}"))
                else:
                    ended.set_result(None)
                return
            out.write(msg.data)
            if msg.reply:  # the server sends on only while its window is acknowledged
                await msg.respond(b"")

        inbox = nc.new_inbox()
        sub = await nc.subscribe(inbox, cb=chunk, pending_msgs_limit=-1, pending_bytes_limit=-1)
        try:
            request = {"deliver_subject": inbox, "no_consumers": not consumers}
            meta = _answer(await nc.request(f"{API}.SNAPSHOT.{stream}", json.dumps(request).encode(),
                                            timeout=REQUEST_SECONDS))
            await ended
        finally:
            await sub.unsubscribe()
    (into / META).write_text(json.dumps({"config": meta["config"], "state": meta["state"]}, indent=2))
    return _saved(stream, meta["state"], archive)


def stream_name(saved: Path) -> str:
    """The name of the stream a backup directory holds."""
    return str(json.loads((saved / META).read_text())["config"]["name"])


async def restore(nc: NATS, saved: Path, replicas: int | None = None) -> Saved:
    """Make the stream of the backup directory ``saved`` again, every message at its sequence.

    The stream must not exist. ``replicas`` changes its number of copies (a backup of a
    three-server cluster restored on one server). Returns once its consumers are back too.
    """
    meta = json.loads((saved / META).read_text())
    config = meta["config"]
    if replicas is not None:
        config["num_replicas"] = replicas
    stream = config["name"]
    start = await _begin(nc, stream, meta)
    deliver = start["deliver_subject"]
    archive = saved / ARCHIVE
    with archive.open("rb") as f:
        first = True
        while data := f.read(CHUNK):
            reply = await _send(nc, deliver, data, REQUEST_SECONDS, patient=first)
            first = False
            if reply.data:
                _answer(reply)
    made = _answer(await _send(nc, deliver, b"", FINISH_SECONDS, patient=first))
    # the consumers the archive held: a cluster makes them again a moment after the stream
    await _consumers_back(nc, stream, int(made["state"].get("consumer_count", 0)))
    saved_consumers = saved / CONSUMERS
    if saved_consumers.is_file():
        wanted = json.loads(saved_consumers.read_text())
        await _make_missing(nc, stream, wanted, replicas)
        await _consumers_back(nc, stream, len(wanted))
    return _saved(stream, made["state"], archive)


async def _begin(nc: NATS, stream: str, meta: dict[str, Any]) -> dict[str, Any]:
    """The restore's first answer; asked again while a fresh cluster's servers are not all counted online yet."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PLACEMENT_SECONDS
    while True:
        try:
            return _answer(await nc.request(f"{API}.RESTORE.{stream}", json.dumps(meta).encode(),
                                            timeout=REQUEST_SECONDS))
        except SnapshotError as refused:
            if refused.code != NO_PEERS or loop.time() > deadline:
                raise
            await asyncio.sleep(0.5)


async def _send(nc: NATS, subject: str, data: bytes, timeout: float, patient: bool) -> Msg:
    """A request of the restore; the first may find nobody yet (the subject not known on this server's routes)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + NO_RESPONDERS_SECONDS
    while True:
        try:
            return await nc.request(subject, data, timeout=timeout)
        except NoRespondersError:
            if not patient or loop.time() > deadline:
                raise
            await asyncio.sleep(0.1)


async def _make_missing(nc: NATS, stream: str, wanted: list[dict[str, Any]], replicas: int | None) -> None:
    """Make each durable of ``wanted`` the restored stream lacks, delivering after the sequence it had acknowledged."""
    present = {c["config"]["durable_name"] for c in await durables(nc, stream)}
    for consumer in wanted:
        config = dict(consumer["config"])
        name = config["durable_name"]
        if name in present:
            continue
        for field in ("deliver_policy", "opt_start_seq", "opt_start_time"):
            config.pop(field, None)
        config["deliver_policy"] = "by_start_sequence"
        config["opt_start_seq"] = int(consumer["ack_floor"]) + 1
        if replicas is not None:
            config.pop("num_replicas", None)  # as many copies as its stream has now
        request = {"stream_name": stream, "config": config, "action": "create"}
        _answer(await nc.request(f"{CONSUMER_API}.DURABLE.CREATE.{stream}.{name}", json.dumps(request).encode(),
                                 timeout=REQUEST_SECONDS))


async def _consumers_back(nc: NATS, stream: str, count: int) -> None:
    """Wait until the restored stream lists ``count`` consumers: a cluster makes them a moment after the stream."""
    js = nc.jetstream()
    for _ in range(int(CONSUMERS_SECONDS / 0.1)):
        if len(await js.consumers_info(stream)) >= count:
            return
        await asyncio.sleep(0.1)
    raise SnapshotError(f"{stream}: its {count} consumers did not come back within {CONSUMERS_SECONDS:g} s")
