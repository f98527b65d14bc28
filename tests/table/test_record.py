"""The record proves itself: the chain over stored bytes, verify over real stored tables, signed exports."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maumau.v1 import actions_pb2, events_pb2, table_pb2
from services.record.export import lines, verify_export
from services.record.verify import verify
from services.rules.engine import legal_actions
from services.rules.version import ENGINE_VERSION
from services.rules.wire import action_to_pb
from services.table.domain import Status
from services.table.repository import tables
from services.table.store import GENESIS, Stored
from services.table.viewing import SeenEvent, redact_event
from tests.natsserver import jetstream_server
from tests.table.harness import Platform, platform

KEY = Ed25519PrivateKey.generate()


async def play(p: Platform, tid: str, moves: int, seed: int = 1, deals: int | None = None) -> None:
    """Random legal moves (a card when there is one) by whoever is on turn, the next round and a rematch when
    they are due (until ``deals``)."""
    repo, rng = tables(p.store), random.Random(seed)
    for _ in range(moves):
        t = await repo.get(tid)
        assert t.match is not None
        if deals is not None and t.round_no >= deals:
            return
        if t.status == Status.OVER:
            reply = await p.send(tid, "alice", rematch=table_pb2.VoteRematch(accept=True))
        elif t.match.round_over:
            reply = await p.send(tid, "alice", next_round=table_pb2.NextRound())
        else:
            options = list(legal_actions(t.match, t.match.turn))
            options = [a for a in options if a.kind == "play"] or options  # rounds that end: random play may not
            action = action_to_pb(options[rng.randrange(len(options))], t.match.rs.family)
            reply = await p.send(tid, t.players[t.match.turn].identity, act=action)
        assert reply.WhichOneof("result") == "done", reply


async def played(nats_url: str, rulesets: tuple[str, ...], moves: int,
                 deals: int | None = None) -> dict[str, list[Stored]]:
    async with platform(nats_url) as p:
        ids = [await p.new_table(ruleset=r, seats=3) for r in rulesets]
        await asyncio.gather(*(play(p, tid, moves, seed=k, deals=deals) for k, tid in enumerate(ids)))
        return {tid: await p.store.read(tid) for tid in ids}


async def test_every_batch_names_the_bytes_and_sequence_of_the_one_before_and_the_engine(nats_url: str) -> None:
    records = await played(nats_url, ("classic32", "candeias", "colors108"), 5000, deals=2)
    for tid, stored in records.items():
        previous, previous_seq = GENESIS, 0
        for s in stored:
            assert s.batch.previous == previous and s.batch.previous_seq == previous_seq
            assert s.batch.engine_version == ENGINE_VERSION
            previous, previous_seq = hashlib.sha256(s.data or b"").digest(), s.seq
        verdict = verify(tid, stored)
        assert verdict.ok and verdict.batches == len(stored), verdict
        # a round's end and the next deal were verified too
        assert sum(ev.HasField("round_dealt") for s in stored for ev in s.batch.events) == 2


async def test_replicas_racing_on_a_table_chain_each_batch_to_the_one_that_won(nats_url: str) -> None:
    async with platform(nats_url, replicas=3) as p:
        created = await p.send("race", "alice", create=table_pb2.CreateTable(ruleset="classic52", seats=4))
        join = table_pb2.JoinTable(invitation=created.done.invitation)
        replies = await asyncio.gather(*(p.send("race", who, join=join) for who in ("bob", "cai", "dan")))
        stored = await p.store.read("race")
    assert all(r.WhichOneof("result") == "done" for r in replies) and len(stored) == 4
    assert verify("race", stored).ok


async def test_a_stream_from_before_the_chain_still_folds_and_is_reported_unchained(nats_url: str) -> None:
    async with platform(nats_url) as p:
        created = events_pb2.Event(type="TableCreated", table_id="old", command_id="c1", table_created=table_pb2.
                                   TableCreated(ruleset="classic32", seats=3, invitation="inv",
                                                creator=table_pb2.Player(identity="alice", name="Alice")))
        await p.store.append("old", events_pb2.EventBatch(events=[created]), 0, "c1")
        reply = await p.send("old", "bob", join=table_pb2.JoinTable(invitation="inv"))
        stored = await p.store.read("old")
        t = await p.table("old")
    assert reply.WhichOneof("result") == "done" and [pl.identity for pl in t.players] == ["alice", "bob"]
    assert stored[1].batch.previous == hashlib.sha256(stored[0].data or b"").digest()  # chained from then on
    verdict = verify("old", stored)
    assert not verdict.ok and verdict.bad == 0 and str(verdict).startswith(f"seq {stored[0].seq}: unchained")


_PLAYED: dict[str, list[Stored]] = {}


@pytest.fixture(scope="module")
def table() -> tuple[str, list[Stored]]:
    """One table played for 80 moves, stored on a JetStream of its own (shared by the tests of this module)."""
    if not _PLAYED:
        with jetstream_server() as server:
            _PLAYED.update(asyncio.run(played(server.url, ("classic32",), 80)))
    ((tid, stored),) = _PLAYED.items()
    return tid, stored


def _forged(stored: list[Stored], at: int, change: Callable[[events_pb2.EventBatch], None]) -> list[Stored]:
    """The records up to ``at``, whose batch is changed and stored again, chained as before."""
    batch = events_pb2.EventBatch()
    batch.CopyFrom(stored[at].batch)
    change(batch)
    return [*stored[:at], Stored(stored[at].seq, batch, batch.SerializeToString())]


def test_a_draw_the_engine_would_not_have_made_is_named(table: tuple[str, list[Stored]]) -> None:
    tid, stored = table
    at = next(i for i, s in enumerate(stored) if s.batch.events[0].action_taken.draws)

    def other_card(b: events_pb2.EventBatch) -> None:
        cards = b.events[0].action_taken.draws[0].cards
        cards[0] = "AS" if cards[0] != "AS" else "KS"

    verdict = verify(tid, _forged(stored, at, other_card))
    assert verdict.bad == at and "action_taken.draws" in verdict.why, verdict


def test_a_batch_of_an_engine_this_one_does_not_reproduce_is_named(table: tuple[str, list[Stored]]) -> None:
    tid, stored = table

    def older(b: events_pb2.EventBatch) -> None:
        b.engine_version = "0"

    verdict = verify(tid, _forged(stored, 5, older))
    assert verdict.bad == 5 and "engine version '0'" in verdict.why, verdict


def _respelt(stored: list[Stored], spell: Callable[[actions_pb2.Action], None]) -> list[Stored]:
    """The records with every action spelt again by ``spell``, chained again over the new bytes."""
    out, previous = [], GENESIS
    for s in stored:
        batch = events_pb2.EventBatch()
        batch.CopyFrom(s.batch)
        for ev in batch.events:
            if ev.HasField("action_taken"):
                spell(ev.action_taken.action)
        batch.previous = previous
        data = batch.SerializeToString()
        out.append(Stored(s.seq, batch, data))
        previous = hashlib.sha256(data).digest()
    return out


def _fields_alone(a: actions_pb2.Action) -> None:  # as the release before the move wrote it
    a.ClearField("move")


def _move_alone(a: actions_pb2.Action) -> None:  # as the release after this one will write it
    for name in ("do", "card", "cards", "choose", "announce", "target", "with"):
        a.ClearField(name)


def _seen(stored: list[Stored]) -> list[SeenEvent]:
    return [redact_event(ev, seat) for s in stored for ev in s.batch.events for seat in (None, 0, 1, 2)]


@pytest.mark.parametrize("spell", [_fields_alone, _move_alone])
def test_a_record_spelt_by_its_fields_alone_or_its_move_alone_verifies_and_reads_the_same(
        table: tuple[str, list[Stored]], spell: Callable[[actions_pb2.Action], None]) -> None:
    tid, stored = table
    respelt = _respelt(stored, spell)
    assert sum(s.data != t.data for s, t in zip(stored, respelt, strict=True)) > 40
    verdict = verify(tid, respelt)
    assert verdict.ok and verdict.batches == len(stored), verdict
    assert _seen(respelt) == _seen(stored)


def test_a_record_whose_move_and_fields_disagree_is_named(table: tuple[str, list[Stored]]) -> None:
    tid, stored = table
    at = next(i for i, s in enumerate(stored) if s.batch.events[0].action_taken.action.card)

    def other_move(b: events_pb2.EventBatch) -> None:
        b.events[0].action_taken.action.move = "draw"

    verdict = verify(tid, _forged(stored, at, other_move))
    assert verdict.bad == at and "action_taken.action" in verdict.why, verdict


@pytest.fixture(scope="module")
def export(table: tuple[str, list[Stored]]) -> bytes:
    tid, stored = table
    return b"".join(lines(tid, stored, KEY))


def test_an_untouched_export_verifies_and_another_key_does_not(export: bytes) -> None:
    verdict = verify_export(export, KEY.public_key())
    assert verdict.ok and verdict.batches == len(export.splitlines()) - 1
    other = verify_export(export, Ed25519PrivateKey.generate().public_key())
    assert str(other) == "end: the signature is not the platform key's"


def _rows(text: bytes) -> list[bytes]:
    return text.splitlines(keepends=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_change_to_an_export_is_found_at_the_record_it_touched(export: bytes, data: st.DataObject) -> None:
    rows = _rows(export)
    kind = data.draw(st.sampled_from(["flip", "drop", "duplicate", "swap"]))
    if kind == "flip":
        at = data.draw(st.integers(0, len(export) - 1))
        bit = data.draw(st.integers(0, 7))
        tampered = export[:at] + bytes([export[at] ^ (1 << bit)]) + export[at + 1:]
        expected = export[:at].count(b"\n")
    else:
        k = data.draw(st.integers(0, len(rows) - 1))
        if kind == "drop":
            changed, expected = rows[:k] + rows[k + 1:], k
        elif kind == "duplicate":
            changed, expected = rows[:k + 1] + rows[k:], k + 1
        else:
            j = data.draw(st.integers(0, len(rows) - 1).filter(lambda j: j != k))
            changed = list(rows)
            changed[k], changed[j] = changed[j], changed[k]
            expected = min(k, j)
        tampered = b"".join(changed)
    verdict = verify_export(tampered, KEY.public_key())
    assert not verdict.ok and verdict.bad == expected, (kind, expected, str(verdict))


async def test_the_commands_verify_export_and_replay_a_table(nats_url: str, tmp_path: Path) -> None:
    from services.runtime.signing import ensure_key, load_key, public_pem

    key = tmp_path / "key.pem"
    ensure_key(key)
    (tmp_path / "public.pem").write_bytes(public_pem(load_key(key)))
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic32", seats=3)
        await play(p, tid, 40)
        env = {"NATS_URL": nats_url, "MAUMAU_SIGNING_KEY": str(key)}
        ok = await _maumau(env, "verify", tid)
        exported = await _maumau(env, "export", tid, "-o", str(tmp_path / "t.jsonl"))
        checked = await _maumau(env, "verify", "--file", str(tmp_path / "t.jsonl"), "--public-key",
                                str(tmp_path / "public.pem"))
        seat = await _maumau(env, "replay", tid, "--seat", "0")
        full = await _maumau(env, "replay", tid, "--full", "--json")
        unknown = await _maumau(env, "verify", "nobody")
    assert ok[0] == 0 and ok[1].startswith("ok: ") and ok[1].endswith("batches verified\n")
    assert exported[0] == 0 and checked == (0, ok[1])
    text = (tmp_path / "t.jsonl").read_bytes()
    (tmp_path / "bad.jsonl").write_bytes(text.replace(b'"engine_version":"1"', b'"engine_version":"2"', 1))
    bad = await _maumau(env, "verify", "--file", str(tmp_path / "bad.jsonl"))
    assert bad[0] == 1 and bad[1].startswith("seq ") and "engine_version" in bad[1]
    assert seat[0] == 0 and "your hand:" in seat[1] and "Alice" in seat[1]
    assert full[0] == 0 and '"hands"' in full[1] and '"seed"' in full[1]
    assert unknown[0] == 1


async def _maumau(env: dict[str, str], *args: str) -> tuple[int, str]:
    import os
    import sys

    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "cli.main", *args, env={**os.environ, **env},
                                                stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


async def test_verify_all_checks_every_table_of_the_stream_and_names_the_ones_that_do_not_hold(nats_url: str) -> None:
    async with platform(nats_url) as p:
        first, second = [await p.new_table(ruleset="classic32", seats=3) for _ in range(2)]
        await play(p, first, 10)
        env = {"NATS_URL": nats_url}
        each = [await _maumau(env, "verify", tid) for tid in (first, second)]
        every = await _maumau(env, "verify", "--all")
        # a batch nobody decided, stored under a table of its own: its record does not hold
        await p.client.jetstream().publish("tables.forged", events_pb2.EventBatch(previous_seq=7).SerializeToString())
        forged = await _maumau(env, "verify", "--all")
    batches = sum(int(out.split()[1]) for _, out in each)
    assert every == (0, f"ok: 2 tables, {batches} batches verified\n")
    assert forged[0] == 1 and forged[1].startswith("forged: ") and forged[1].endswith("1 of 3 tables do not hold\n")
