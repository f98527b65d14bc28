"""The event store's contract, run against the event log of every aggregate (eventsourcing's style).

Tables (each partition), accounts, disputes and chat keep their events in ``EventLog``s that
differ only in configuration; each must keep the same promises over a real JetStream.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import nats
import pytest
import pytest_asyncio
from nats.js import JetStreamContext

from services.accounts.store import AccountStore
from services.chat import store as chat
from services.disputes.store import DisputeStore
from services.eventlog.store import Conflict, EventLog
from services.runtime import subjects
from services.table.store import EventStore

LOGS: dict[str, Callable[[JetStreamContext], EventLog]] = {
    "tables": lambda js: EventStore(js).log(0),
    "tables-partition-2": lambda js: EventStore(js, partitions=3).log(2),
    "accounts": lambda js: AccountStore(js).log,
    "disputes": lambda js: DisputeStore(js).log,
    "chat": lambda js: chat.log(js),
}


def subject_of(log: EventLog, aggregate_id: str) -> str:
    return log.subjects.replace("*", aggregate_id)


@pytest_asyncio.fixture(params=sorted(LOGS))
async def log(request: pytest.FixtureRequest, nats_url: str) -> AsyncIterator[EventLog]:
    nc = await nats.connect(nats_url)
    try:
        made = LOGS[request.param](nc.jetstream())
        await made.ensure()
        yield made
    finally:
        await nc.close()


async def append(log: EventLog, aggregate_id: str, data: bytes, expected: int | None, command_id: str) -> int:
    seq, duplicate = await log.append(subject_of(log, aggregate_id), aggregate_id, data, expected=expected,
                                      command_id=command_id)
    assert not duplicate
    return seq


async def test_an_append_is_read_back_in_order_with_its_sequence(log: EventLog) -> None:
    first = await append(log, "a1", b"one", 0, "c1")
    second = await append(log, "a1", b"two", first, "c2")
    read = await log.read(subject_of(log, "a1"))
    assert [(m.seq, m.data) for m in read] == [(first, b"one"), (second, b"two")]


async def test_an_append_expecting_an_old_sequence_is_a_conflict_naming_the_last(log: EventLog) -> None:
    first = await append(log, "a1", b"one", 0, "c1")
    await append(log, "a1", b"two", first, "c2")
    with pytest.raises(Conflict) as refused:
        await log.append(subject_of(log, "a1"), "a1", b"late", expected=first, command_id="c3")
    assert refused.value.last == first + 1
    assert [m.data for m in await log.read(subject_of(log, "a1"))] == [b"one", b"two"]


async def test_a_command_sent_again_is_stored_once(log: EventLog) -> None:
    first = await append(log, "a1", b"one", None, "c1")
    seq, duplicate = await log.append(subject_of(log, "a1"), "a1", b"one", expected=None, command_id="c1")
    assert (seq, duplicate) == (first, True)
    assert len(await log.read(subject_of(log, "a1"))) == 1


async def test_the_same_command_id_at_another_aggregate_is_another_command(log: EventLog) -> None:
    await append(log, "a1", b"one", 0, "c1")
    await append(log, "a2", b"other", 0, "c1")
    assert [m.data for m in await log.read(subject_of(log, "a2"))] == [b"other"]


async def test_a_command_sent_again_expecting_what_it_changed_is_a_conflict(log: EventLog) -> None:
    # JetStream checks the expected sequence before the de-duplication id
    first = await append(log, "a1", b"one", 0, "c1")
    with pytest.raises(Conflict) as refused:
        await log.append(subject_of(log, "a1"), "a1", b"one", expected=0, command_id="c1")
    assert refused.value.last == first


async def test_a_read_starts_after_a_sequence_and_skips_other_aggregates(log: EventLog) -> None:
    first = await append(log, "a1", b"one", 0, "c1")
    await append(log, "a2", b"between", 0, "c1")
    second = await append(log, "a1", b"two", first, "c2")
    assert [(m.seq, m.data) for m in await log.read(subject_of(log, "a1"), after=first)] == [(second, b"two")]


async def test_the_last_sequence_is_the_aggregates_own_and_zero_for_none(log: EventLog) -> None:
    first = await append(log, "a1", b"one", 0, "c1")
    await append(log, "a2", b"later", 0, "c1")
    assert (await log.last_seq(subject_of(log, "a1")), await log.last_seq(subject_of(log, "nobody"))) == (first, 0)


async def test_an_append_expecting_nothing_stores_whatever_the_sequence(log: EventLog) -> None:
    first = await append(log, "a1", b"one", 0, "c1")
    second = await append(log, "a1", b"two", None, "c2")
    assert second > first


def test_every_aggregates_log_names_its_own_subjects() -> None:
    assert {name: make(None).subjects for name, make in LOGS.items()} == {  # type: ignore[arg-type]
        "tables": subjects.partition_events(0), "tables-partition-2": subjects.partition_events(2),
        "accounts": subjects.ACCOUNT_EVENTS, "disputes": subjects.DISPUTE_EVENTS, "chat": subjects.CHAT_LINES}


def test_only_the_chat_forgets_and_only_the_tables_republish() -> None:
    configs = {name: make(None).config() for name, make in LOGS.items()}  # type: ignore[arg-type]
    assert {n: c.max_msgs_per_subject for n, c in configs.items() if c.max_msgs_per_subject != -1} == {
        "chat": chat.HISTORY}
    assert {n for n, c in configs.items() if c.republish} == {"tables", "tables-partition-2"}
