"""A clustered JetStream loses nothing when a stream's leader dies (issue 16).

Three ``nats-server`` processes form one cluster, every stream of three replicas, and the
platform's services run against it (``maumau up``'s supervisor with ``NATS_URL`` listing the
three). Bots play bots at several tables; the ``TABLES`` stream's leader is killed -9 (or
stopped gracefully, SIGTERM: it hands its leadership over first) and started again a few
seconds later, then another server (maybe the new leader) the same way.
Then every table must have played its match out, each record must prove itself (chain,
decisions, deals: ``maumau verify``), no command may be stored twice, every command a client
was answered "done" for must be in the stream where the answer said, and the SQL projection
must reach every stream's end (the checks of ``maumau chaos``), and no command may be left
answered "unavailable" (its sender sends it again until it is taken: ``table.client.deliver``).

The clients here are the bots (and the test, which creates the tables): what they were told
is heard by a tap on the cluster, a plain NATS subscriber to the table commands and to the
inboxes their replies go to. The longest stall a table's players saw (the longest gap
between two of its stored commands) and the longest command round trip are printed
(``pytest -s``; docs/operations.md, "A clustered JetStream").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import Error as NatsError

from maumau.v1 import table_pb2
from services.bots.service import DURABLE as BOTS
from services.record.verify import verify
from services.rules.wire import option_to_pb
from services.runtime.lifecycle import connect
from services.runtime.subjects import table_command
from services.runtime.supervisor import running_platform
from services.table.client import send
from services.table.domain import Status
from services.table.domain import Table as DomainTable
from services.table.repository import tables
from services.table.store import EventStore, Stored, stream_of
from tests.natsserver import ClusterMember, JetStreamCluster
from tools.load.chaos import check_streams, projections_behind
from tools.load.loadclient import Tally
from tools.load.loadtest import Table

TABLES = 6
BOT_THINK_SECONDS = "0.2"  # a quick game, still many moves in flight while a server is down
DOWN_SECONDS = 5.0
PLAYED_BEFORE_SECONDS = 3.0
FINISH_SECONDS = 180.0
PROJECTED_SECONDS = 60.0
SETTINGS = {"MAUMAU_STREAM_REPLICAS": "3", "MAUMAU_BOT_THINK_SECONDS": BOT_THINK_SECONDS,
            "MAUMAU_BOT_BUDGET_MS": "5"}


@dataclass(frozen=True)
class Answered:
    """A command answered "done": where it said it stored it, when it was first sent and when answered."""

    table: str
    command_id: str
    sequences: tuple[int, ...]
    sent: float
    answered: float


@dataclass
class Tap:
    """Every table command sent on the cluster and every reply on an inbox, as they went by."""

    sent: dict[str, tuple[str, str, float]] = field(default_factory=dict)  # inbox: table, command id, when
    replies: list[tuple[str, bytes, float]] = field(default_factory=list)  # inbox, reply, when

    async def listen(self, nc: NATS) -> None:
        async def command(msg: Msg) -> None:
            cmd = table_pb2.TableCommand.FromString(msg.data)
            self.sent.setdefault(msg.reply, (cmd.table_id, cmd.command_id, time.perf_counter()))

        async def reply(msg: Msg) -> None:
            self.replies.append((msg.subject, msg.data, time.perf_counter()))

        await nc.subscribe(table_command("*"), cb=command)
        await nc.subscribe("_INBOX.>", cb=reply)
        await nc.flush()

    def left_unavailable(self) -> list[tuple[str, str]]:
        """The commands whose last answer was "unavailable": their sender gave up sending them again."""
        last: dict[tuple[str, str], str] = {}
        for inbox, data, _ in self.replies:
            if inbox in self.sent:
                table, command_id, _ = self.sent[inbox]
                reply = table_pb2.CommandReply.FromString(data)
                last[table, command_id] = reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"
        return sorted(command for command, code in last.items() if code == "unavailable")

    def answered(self) -> list[Answered]:
        """The commands answered "done", once each (a command sent again keeps its first sending's time)."""
        first_sent: dict[tuple[str, str], float] = {}
        for table, command_id, when in self.sent.values():
            first_sent[table, command_id] = min(when, first_sent.get((table, command_id), when))
        found: dict[tuple[str, str], Answered] = {}
        for inbox, data, when in self.replies:
            if inbox not in self.sent:
                continue  # JetStream's own replies and deliveries
            table, command_id, _ = self.sent[inbox]
            reply = table_pb2.CommandReply.FromString(data)
            if reply.WhichOneof("result") == "done" and (table, command_id) not in found:
                found[table, command_id] = Answered(table, command_id, tuple(reply.done.sequences),
                                                    first_sent[table, command_id], when)
        return list(found.values())


async def _bot_table(nc: NATS, partition: int) -> str:
    """A started table of four bots in ``partition`` that the test watches (classic52, to 40 points)."""
    table_id = f"p{partition}-{uuid.uuid4().hex[:12]}"
    create = table_pb2.CreateTable(ruleset="classic52", seats=4, watch=True)
    create.options["target_points"].CopyFrom(option_to_pb(40))
    for command in ({"create": create}, {"fill_bots": table_pb2.FillBots()}, {"start": table_pb2.StartMatch()}):
        reply = await send(nc, table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id=table_id,
                                                      actor="host", actor_name="Host", **command))
        assert reply.WhichOneof("result") == "done", reply
    return table_id


async def _end_and_restart(server: ClusterMember, ending: str) -> None:
    """Kill -9 the server (``kill``) or stop it (``term``: SIGTERM, as Kubernetes and the supervisor stop
    one), start it again after ``DOWN_SECONDS``, until it has caught up with the others."""
    await asyncio.to_thread(server.kill if ending == "kill" else server.stop)
    await asyncio.sleep(DOWN_SECONDS)
    await asyncio.to_thread(server.start)
    await asyncio.to_thread(server.wait_healthy)


async def _played_out(store: EventStore, table_ids: list[str]) -> dict[str, list[Stored]]:
    """Each table's stored batches once every match is over (a read failing meanwhile is asked again)."""
    folding = tables(store, cache_size=0)
    deadline = time.monotonic() + FINISH_SECONDS
    waiting = set(table_ids)
    while waiting and time.monotonic() < deadline:
        for table_id in sorted(waiting):
            with contextlib.suppress(NatsError):
                if (await folding.get(table_id)).status == Status.OVER:
                    waiting.discard(table_id)
        await asyncio.sleep(0.5)
    stuck = {t: _where(await folding.get(t)) for t in sorted(waiting)}
    assert not stuck, f"tables still playing after {FINISH_SECONDS:.0f} s: {stuck}; {await _bots_backlog(store)}"
    return {table_id: await store.read(table_id) for table_id in table_ids}


async def _bots_backlog(store: EventStore) -> str:
    """What the bots' consumer of each TABLES stream holds: not yet delivered, delivered and not acknowledged."""
    infos = [await store.js.consumer_info(stream, BOTS) for stream, _ in await store.streams()]
    return ", ".join(f"bots on {i.stream_name}: {i.num_pending} pending, {i.num_ack_pending} unacknowledged"
                     for i in infos)


def _where(t: DomainTable) -> str:
    """Where a table stopped: its last sequence and whose turn it is."""
    match = t.match
    moment = "no match" if match is None else "round over" if match.round_over else f"seat {match.turn} to play"
    return f"seq {t.seq}, {t.status}, {moment}"


def _longest_gap(answered: list[Answered]) -> float:
    """The longest time between two consecutive stored commands of one table (the players' longest wait)."""
    by_table: defaultdict[str, list[float]] = defaultdict(list)
    for a in answered:
        if a.sequences:
            by_table[a.table].append(a.answered)
    gaps = [b - a for times in by_table.values() for a, b in zip(sorted(times), sorted(times)[1:], strict=False)]
    return max(gaps, default=0.0)


@pytest.mark.parametrize(("partitions", "ending"), [(1, "kill"), (3, "kill"), (1, "term")],
                         ids=["one-stream", "three-partitions", "one-stream-sigterm"])
async def test_killing_the_stream_leader_then_another_server_loses_and_doubles_nothing(
        nats_cluster: JetStreamCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, partitions: int,
        ending: str) -> None:
    monkeypatch.setenv("NATS_URL", nats_cluster.url)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    stream = stream_of(partitions - 1)  # TABLES; with partitions, the last one's (each has a leader of its own)
    tap = Tap()
    async with running_platform(tmp_path, quiet=True, only=("rules", "table", "proj", "bots"),
                                settings={**SETTINGS, "MAUMAU_STREAM_PARTITIONS": str(partitions)}) as (addresses, _):
        nc = await connect(nats_cluster.url, "faults")
        try:
            await tap.listen(nc)
            js = nc.jetstream()
            table_ids = [await _bot_table(nc, k % partitions) for k in range(TABLES)]
            await asyncio.sleep(PLAYED_BEFORE_SECONDS)
            first = await nats_cluster.leader(js, stream)
            await _end_and_restart(first, ending)
            leader = await nats_cluster.leader(js, stream)
            second = leader if leader is not first else next(s for s in nats_cluster.servers if s is not first)
            await _end_and_restart(second, ending)
            stored = await _played_out(EventStore(js), table_ids)
        finally:
            await nc.close()
        answered = tap.answered()
        tally = Tally(acked={t: {seq for a in answered if a.table == t for seq in a.sequences} for t in table_ids})
        record = await check_streams(nats_cluster.url, [Table(t) for t in table_ids], tally)
        behind = await projections_behind(addresses["database_url"], record.last, PROJECTED_SECONDS)
    at = {(t, s.seq): s.batch.events[0].command_id for t, batches in stored.items() for s in batches}
    misplaced = [a for a in answered if any(at.get((a.table, seq)) != a.command_id for seq in a.sequences)]
    verdicts = {t: str(verify(t, batches)) for t, batches in stored.items()}
    figures = {"ending": ending, "partitions": partitions, "tables": TABLES, "batches": sum(map(len, stored.values())),
               "answered_done": len(answered), "stream": stream, "killed": [first.name, second.name],
               "longest_stall_s": round(_longest_gap(answered), 2),
               "longest_round_trip_s": round(max(a.answered - a.sent for a in answered), 2)}
    print(json.dumps(figures))
    assert {a.table for a in answered} == set(table_ids)  # the tap heard every table's commands answered
    assert tap.left_unavailable() == []  # every command refused "unavailable" was sent again until taken
    assert (record.lost, record.doubled, record.half_done, behind, misplaced) == (0, 0, 0, 0, [])
    assert all(v.startswith("ok: ") for v in verdicts.values()), verdicts
    assert first is not second and first.starts == second.starts == 2
