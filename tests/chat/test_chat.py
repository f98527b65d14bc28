"""Table chat through the chat service, over real NATS JetStream and a real table service."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from maumau.v1 import chat_pb2, table_pb2
from services.chat import REACTIONS
from services.chat.service import ChatService, Settings
from services.table.store import EventStore
from tests.chat.harness import chat_platform, code


async def test_a_seated_players_lines_are_stored_and_read_back_as_history(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob")
        first = await c.say(tid, "alice", "oi, tudo bem?")
        second = await c.say(tid, "bob", "tudo ótimo 😄", command_id="b-1")
        history = await c.history(tid)
    assert code(first) == code(second) == "posted" and first.posted.seq < second.posted.seq
    assert [(h.seat, h.name, h.text) for h in history] == [(0, "Alice", "oi, tudo bem?"), (1, "Bob", "tudo ótimo 😄")]
    assert history[1].table_id == tid and history[1].command_id == "b-1"
    assert history[1].time.ToNanoseconds() == int(c.tables.clock.now * 1e9)
    assert list(history) == [first.posted.line, second.posted.line]


async def test_a_spectator_and_a_stranger_are_refused_and_nothing_is_stored(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.tables.new_table(seats=2)  # alice and a bot: full, the match under way
        invitation = (await c.tables.table(tid)).invitation
        joined = await c.tables.send(tid, "carol", join=table_pb2.JoinTable(invitation=invitation))
        spectator = await c.say(tid, "carol", "posso jogar?")
        stranger = await c.say(tid, "dave", "oi")
        history = await c.history(tid)
    assert joined.done.seat == -1
    assert code(spectator) == code(stranger) == "not_seated" and spectator.refusal.message
    assert history == []


async def test_who_may_write_follows_the_table_as_players_join_and_leave(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob", "carol")
        await c.say(tid, "carol", "cheguei")  # the chat service has the table folded now
        await c.tables.send(tid, "bob", leave=table_pb2.LeaveTable())
        invitation = (await c.tables.table(tid)).invitation
        await c.tables.send(tid, "dave", join=table_pb2.JoinTable(invitation=invitation), name="Dave")
        bob = await c.say(tid, "bob", "voltei?")
        carol = await c.say(tid, "carol", "tchau, Bob")
        dave = await c.say(tid, "dave", "oi, gente")
    assert code(bob) == "not_seated"
    assert (carol.posted.line.seat, dave.posted.line.seat, dave.posted.line.name) == (1, 2, "Dave")


async def test_an_unknown_table_is_refused(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        reply = await c.say("nowhere", "alice", "oi")
        history = await c.history("nowhere")
    assert code(reply) == "unknown_table" and history == []


async def test_more_than_300_characters_are_refused_too_long(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby()
        long = await c.say(tid, "alice", "a" * 301)
        limit = await c.say(tid, "alice", "é" * 300)
        history = await c.history(tid)
    assert code(long) == "too_long" and "300" in long.refusal.message
    assert code(limit) == "posted" and [h.text for h in history] == ["é" * 300]


async def test_control_zero_width_and_bidi_characters_are_stripped(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby()
        reply = await c.say(tid, "alice", "\u202ebora\x00 jogar\u200b?\r\nvai\x1b[31m\x85já\u2066!\t ")
        history = await c.history(tid)
    assert code(reply) == "posted" and [h.text for h in history] == ["bora jogar? vai[31m já!"]


async def test_a_line_of_only_control_characters_is_refused_empty(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby()
        reply = await c.say(tid, "alice", "\x00\u200b\u202e\r\n\t\x9b \ufeff")
        history = await c.history(tid)
    assert code(reply) == "empty" and history == []


async def test_a_sixth_line_within_ten_seconds_is_refused_too_fast(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob")
        five = [await c.say(tid, "alice", f"linha {i}") for i in range(5)]
        c.tables.clock.now += 9.9
        sixth = await c.say(tid, "alice", "mais uma")
        bob = await c.say(tid, "bob", "eu posso")
        c.tables.clock.now += 0.1
        later = await c.say(tid, "alice", "agora sim")
        history = await c.history(tid)
    assert [code(r) for r in five] == ["posted"] * 5
    assert code(sixth) == "too_fast" and code(bob) == code(later) == "posted"
    assert [h.text for h in history] == [*(f"linha {i}" for i in range(5)), "eu posso", "agora sim"]


async def test_html_is_stored_verbatim_as_text(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby()
        text = "<b>oi</b> <script>alert('x')</script> &amp; <a href=\"javascript:x\">link</a>"
        reply = await c.say(tid, "alice", text)
        history = await c.history(tid)
    assert reply.posted.line.text == text and [h.text for h in history] == [text]


async def test_only_the_last_100_lines_of_a_table_are_kept(nats_url: str) -> None:
    async with chat_platform(nats_url, Settings(rate_count=1_000)) as c:
        tid, other = await c.lobby(), await c.lobby()
        await c.say(other, "alice", "outra mesa")
        for i in range(105):
            assert code(await c.say(tid, "alice", f"linha {i}")) == "posted"
        history = await c.history(tid)
        others = await c.history(other)
    assert [h.text for h in history] == [f"linha {i}" for i in range(5, 105)]
    assert [h.text for h in others] == ["outra mesa"]


async def test_the_same_command_id_twice_is_stored_once(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby()
        first = await c.say(tid, "alice", "oi", command_id="line-1")
        again = await c.say(tid, "alice", "oi", command_id="line-1")
        history = await c.history(tid)
    assert code(first) == code(again) == "posted" and first.posted == again.posted
    assert [h.command_id for h in history] == ["line-1"]


async def test_one_command_id_on_two_tables_is_a_line_on_each(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        first, second = await c.lobby(), await c.lobby()
        on_first = await c.say(first, "alice", "oi", command_id="same-id")
        on_second = await c.say(second, "alice", "olá", command_id="same-id")
        history = await c.history(second)
    assert code(on_first) == code(on_second) == "posted"
    assert [h.text for h in history] == ["olá"] and on_second.posted.line.table_id == second


async def test_a_line_resent_to_another_replica_is_stored_once_and_not_counted_again(nats_url: str) -> None:
    async with chat_platform(nats_url, Settings(rate_count=1)) as c:
        tid = await c.lobby()
        first = await c.say(tid, "alice", "oi", command_id="line-2")
        js = c.tables.client.jetstream()
        other = ChatService(js, EventStore(js), Settings(rate_count=1), clock=c.tables.clock)  # knows nothing
        cmd = chat_pb2.ChatCommand(command_id="line-2", table_id=tid, actor="alice", text="oi")
        again = await other.handle(cmd)
        fresh = await other.handle(chat_pb2.ChatCommand(command_id=uuid.uuid4().hex, table_id=tid, actor="alice",
                                                        text="e agora?"))
        history = await c.history(tid)
    assert again.posted == first.posted and other.stats["duplicates"] == 1
    assert code(fresh) == "posted" and [h.text for h in history] == ["oi", "e agora?"]


async def test_a_reaction_is_stored_as_a_line_with_the_seat_and_no_text(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob")
        reply = await c.react(tid, "bob", "aplausos")
        history = await c.history(tid)
    assert code(reply) == "posted"
    assert [(h.seat, h.name, h.text, h.reaction) for h in history] == [(1, "Bob", "", "aplausos")]


async def test_an_unknown_reaction_or_one_with_a_text_is_refused(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob")
        unknown = await c.react(tid, "bob", "<script>")
        with_text = await c.react(tid, "bob", "risos", text="kkk")
        history = await c.history(tid)
    assert code(unknown) == code(with_text) == "bad_reaction" and history == []


async def test_reactions_count_in_the_chat_rate_limit(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob")
        replies = [await c.react(tid, "bob", "risos") for _ in range(5)]
        sixth = await c.say(tid, "bob", "e agora?")
    assert [code(r) for r in replies] == ["posted"] * 5 and code(sixth) == "too_fast"


async def test_a_spectator_may_not_react(nats_url: str) -> None:
    async with chat_platform(nats_url) as c:
        tid = await c.lobby("bob")
        reply = await c.react(tid, "carol", "uau")
    assert code(reply) == "not_seated"


def test_the_web_client_offers_exactly_the_reactions_the_service_takes() -> None:
    client = (Path(__file__).resolve().parents[2] / "gateway/static/table/reactions.js").read_text()
    offered = set(re.findall(r"\{ id: '([a-z]+)', emoji:", client))
    assert offered == REACTIONS
