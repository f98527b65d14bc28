"""A table's life through the table service, over real NATS JetStream and real gRPC."""

from __future__ import annotations

import uuid

import pytest

from maumau.v1 import table_pb2
from services.eventlog.store import duplicate_id
from services.rules.wire import option_to_pb
from services.runtime.subjects import table_command
from services.table.decide import envelope
from services.table.domain import Status, Table, evolve
from tests.table.harness import Platform, act, platform


def _code(reply: table_pb2.CommandReply) -> str:
    return reply.refusal.code if reply.WhichOneof("result") == "refusal" else "done"


async def test_create_gives_the_creator_seat_zero_and_an_invitation(nats_url: str) -> None:
    async with platform(nats_url) as p:
        reply = await p.send("t1", "alice", create=table_pb2.CreateTable(ruleset="candeias", seats=4), name="Alice")
        t = await p.table("t1")
    assert reply.done.seat == 0 and reply.done.invitation == t.invitation and len(t.invitation) >= 16
    assert t.status == "lobby" and [pl.name for pl in t.players] == ["Alice"]


async def test_bad_options_are_refused_and_nothing_is_stored(nats_url: str) -> None:
    async with platform(nats_url) as p:
        bad = table_pb2.CreateTable(ruleset="classic32", seats=9)
        reply = await p.send("t2", "alice", create=bad)
        opts = table_pb2.CreateTable(ruleset="classic32", seats=2)
        opts.options["bogus"].CopyFrom(option_to_pb(True))
        reply2 = await p.send("t2", "alice", create=opts)
        assert await p.last_seq("t2") == 0
    assert _code(reply) == "bad_options" and "seats" in reply.refusal.message
    assert _code(reply2) == "bad_options" and "bogus" in reply2.refusal.message


async def test_the_invitation_takes_a_free_seat_then_watches_when_full(nats_url: str) -> None:
    async with platform(nats_url) as p:
        inv = (await p.send("t3", "alice", create=table_pb2.CreateTable(ruleset="classic32", seats=2))).done.invitation
        bob = await p.send("t3", "bob", join=table_pb2.JoinTable(invitation=inv), name="Bob")
        seq = await p.last_seq("t3")
        carol = await p.send("t3", "carol", join=table_pb2.JoinTable(invitation=inv))
        again = await p.send("t3", "bob", join=table_pb2.JoinTable(invitation=inv))
        wrong = await p.send("t3", "dave", join=table_pb2.JoinTable(invitation="not-it"))
        assert await p.last_seq("t3") == seq
    assert bob.done.seat == 1 and carol.done.seat == -1 and again.done.seat == 1
    assert _code(wrong) == "bad_invitation"


async def test_classic32_bots_are_carmen_tito_and_luna(nats_url: str) -> None:
    async with platform(nats_url) as p:
        await p.send("t4", "alice", create=table_pb2.CreateTable(ruleset="classic32", seats=4))
        reply = await p.send("t4", "alice", fill_bots=table_pb2.FillBots())
        t = await p.table("t4")
    assert _code(reply) == "done"
    assert [(pl.name, pl.bot) for pl in t.players] == [("Jogador 1", False), ("Carmen", True), ("Tito", True),
                                                       ("Luna", True)]


@pytest.mark.parametrize("ruleset", ["candeias", "colors108"])
async def test_every_ruleset_seats_its_bots_by_name_a_tenth_numbered(nats_url: str, ruleset: str) -> None:
    async with platform(nats_url) as p:
        await p.send("t4b", "alice", create=table_pb2.CreateTable(ruleset=ruleset, seats=10 if ruleset == "colors108"
                                                                   else 4), name="Bia")
        await p.send("t4b", "alice", fill_bots=table_pb2.FillBots())
        t = await p.table("t4b")
    names = [pl.name for pl in t.players]
    if ruleset == "colors108":  # Bia sits there herself: her name is skipped, and the ninth bot is Carmen again
        assert names == ["Bia", "Carmen", "Tito", "Luna", "Dona Zezé", "Juca", "Seu Lúcio", "Nina", "Caju", "Carmen 2"]
    else:
        assert names == ["Bia", "Carmen", "Tito", "Luna"]


async def test_only_the_creator_seats_bots_and_starts(nats_url: str) -> None:
    async with platform(nats_url) as p:
        inv = (await p.send("t5", "alice", create=table_pb2.CreateTable(ruleset="classic52", seats=3))).done.invitation
        await p.send("t5", "bob", join=table_pb2.JoinTable(invitation=inv))
        bots = await p.send("t5", "bob", fill_bots=table_pb2.FillBots())
        start = await p.send("t5", "bob", start=table_pb2.StartMatch())
        ok = await p.send("t5", "alice", start=table_pb2.StartMatch())
        t = await p.table("t5")
    assert _code(bots) == "not_creator" and _code(start) == "not_creator" and _code(ok) == "done"
    assert t.status == "playing" and t.match is not None and [len(h) for h in t.match.hands] == [5, 5]


async def test_game_commands_are_checked_by_the_rules_and_refusals_store_nothing(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(humans=("bob",), bots=False, seats=2)
        t = await p.table(tid)
        assert t.match is not None
        on_turn, other = t.match.turn, 1 - t.match.turn
        seq = await p.last_seq(tid)
        replies = {
            "stranger": await p.send(tid, "mallory", act=act(on_turn, "draw")),
            "for another seat": await p.send(tid, t.players[other].identity, act=act(on_turn, "draw")),
            "out of turn": await p.send(tid, t.players[other].identity, act=act(other, "draw")),
            "not a card": await p.send(tid, t.players[on_turn].identity, act=act(on_turn, "play", card="R7")),
            "pass first": await p.send(tid, t.players[on_turn].identity, act=act(on_turn, "pass")),
        }
        assert await p.last_seq(tid) == seq
        drew = await p.send(tid, t.players[on_turn].identity, act=act(on_turn, "draw"))
        assert await p.last_seq(tid) == seq + 1
    assert {k: _code(v) for k, v in replies.items()} == {
        "stranger": "not_seated", "for another seat": "wrong_seat", "out of turn": "not_your_turn",
        "not a card": "bad_request", "pass first": "illegal_action"}
    assert list(drew.done.sequences) == [seq + 1]


async def test_a_refusal_never_shows_another_seats_cards(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(humans=("bob",), bots=False, seats=2)
        t = await p.table(tid)
        assert t.match is not None
        on_turn, other = t.match.turn, 1 - t.match.turn
        hidden = t.match.rs.family.names(t.match.hands[on_turn] + t.match.stock)
        reply = await p.send(tid, t.players[other].identity,
                             act=act(other, "play", card=t.match.rs.family.name(t.match.hands[other][0])))
    assert _code(reply) == "not_your_turn"
    assert not any(card in reply.refusal.message for card in hidden)


async def test_unknown_table_and_malformed_commands_are_refused(nats_url: str) -> None:
    async with platform(nats_url) as p:
        unknown = await p.send("nope", "alice", act=act(0, "draw"))
        raw = await p.client.request(table_command("nope"), b"\xff\xfe not protobuf", timeout=5)
        empty = await p.send("nope", "alice")
        assert await p.last_seq("nope") == 0
    assert _code(unknown) == "unknown_table"
    assert _code(table_pb2.CommandReply.FromString(raw.data)) == "bad_request"
    assert _code(empty) == "bad_request"


async def test_a_command_sent_twice_is_stored_once(nats_url: str) -> None:
    async with platform(nats_url, replicas=2) as p:
        tid = await p.new_table()
        t = await p.table(tid)
        assert t.match is not None
        seat = t.match.turn
        cid = uuid.uuid4().hex
        first = await p.send(tid, t.players[seat].identity, command_id=cid, act=act(seat, "draw"))
        second = await p.send(tid, t.players[seat].identity, command_id=cid, act=act(seat, "draw"))
        stored = await p.store.read(tid)
    assert list(first.done.sequences) == list(second.done.sequences)
    assert [s.batch.events[0].command_id for s in stored].count(cid) == 1


async def test_one_command_id_on_two_tables_is_stored_on_each(nats_url: str) -> None:
    async with platform(nats_url) as p:
        first, second = uuid.uuid4().hex[:16], uuid.uuid4().hex[:16]
        create = table_pb2.CreateTable(ruleset="classic32", seats=2)
        on_first = await p.send(first, "alice", command_id="same-id", create=create)
        on_second = await p.send(second, "alice", command_id="same-id", create=create)
        stored = await p.store.read(second)
    assert _code(on_first) == _code(on_second) == "done"
    assert [s.seq for s in stored] == list(on_second.done.sequences) != list(on_first.done.sequences)


async def test_a_round_plays_to_its_end_and_the_next_round_deals(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(ruleset="classic52", seats=3)
        for _ in range(2000):
            t = await p.table(tid)
            assert t.match is not None
            if t.match.round_over:
                break
            assert _code(await p.play_one(tid)) == "done"
        assert t.match is not None and t.match.round_over
        early = await p.send(tid, "mallory", next_round=table_pb2.NextRound())
        nxt = await p.send(tid, "alice", next_round=table_pb2.NextRound())
        t = await p.table(tid)
    assert _code(early) == "not_seated" and _code(nxt) == "done"
    assert t.match is not None and not t.match.round_over and t.round_no == 2 and t.match.dealer == 1


async def test_giving_up_ends_the_match_for_whoever_leads_among_the_others(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(humans=("bob",), seats=3)
        reply = await p.send(tid, "bob", give_up=table_pb2.GiveUp())
        t = await p.table(tid)
        rematch = await p.send(tid, "alice", rematch=table_pb2.VoteRematch(accept=True))
    assert _code(reply) == "done" and t.status == "ended" and t.end_reason == "gave_up" and t.ended_by == 1
    assert 1 not in t.winners and t.winners
    assert _code(rematch) == "no_rematch"


async def test_absence_and_expiry_follow_the_clock(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(humans=("bob",), bots=False, seats=2)
        t = await p.table(tid)
        assert t.match is not None
        waiting = t.players[1 - t.match.turn].identity
        early = await p.send(tid, waiting, claim_absence=table_pb2.ClaimAbsence())
        not_yet = await p.send(tid, "clock", expire=table_pb2.ExpireTable())
        p.clock.now += 48 * 3600
        late = await p.send(tid, waiting, claim_absence=table_pb2.ClaimAbsence())
        t = await p.table(tid)
    assert _code(early) == "not_absent" and _code(not_yet) == "not_expired" and _code(late) == "done"
    assert t.end_reason == "absence" and t.winners == [1 - (t.match.turn if t.match else 0)]


async def test_a_table_without_moves_expires_without_a_winner(nats_url: str) -> None:
    async with platform(nats_url) as p:
        await p.send("t9", "alice", create=table_pb2.CreateTable(ruleset="colors108", seats=4))
        p.clock.now += 7 * 24 * 3600
        reply = await p.send("t9", "clock", expire=table_pb2.ExpireTable())
        again = await p.send("t9", "clock", expire=table_pb2.ExpireTable())
        t = await p.table("t9")
    assert _code(reply) == "done" and t.status == "ended" and t.end_reason == "expired" and t.winners == []
    assert _code(again) == "table_closed"


async def _played_out(p: Platform) -> str:
    """A classic52 table (one round, no scoring) played to the end of its match."""
    tid = "po" + uuid.uuid4().hex[:8]
    create = table_pb2.CreateTable(ruleset="classic52", seats=3)
    create.options["scoring"].CopyFrom(option_to_pb("none"))
    inv = (await p.send(tid, "alice", create=create)).done.invitation
    await p.send(tid, "bob", join=table_pb2.JoinTable(invitation=inv))
    await p.send(tid, "alice", fill_bots=table_pb2.FillBots())
    await p.send(tid, "alice", start=table_pb2.StartMatch())
    while (await p.table(tid)).status == "playing":
        assert _code(await p.play_one(tid)) == "done"
    return tid


async def test_a_match_played_out_keeps_its_winners_when_its_table_expires(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _played_out(p)
        over = await p.table(tid)
        p.clock.now += 7 * 24 * 3600
        expired = await p.send(tid, "clock", expire=table_pb2.ExpireTable())
        t = await p.table(tid)
    assert over.status == "over" and over.winners
    assert _code(expired) == "done" and t.status == "ended" and t.rematch_closed
    assert (t.winners, t.end_reason) == (over.winners, over.end_reason)


async def test_a_rematch_starts_when_every_person_accepts(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _played_out(p)
        one = await p.send(tid, "alice", rematch=table_pb2.VoteRematch(accept=True))
        between = await p.table(tid)
        two = await p.send(tid, "bob", rematch=table_pb2.VoteRematch(accept=True))
        t = await p.table(tid)
    assert _code(one) == "done" and between.status == "over"
    assert _code(two) == "done" and t.status == "playing" and t.match_no == 2 and t.match is not None
    assert not t.match.round_over


async def test_candeias_takes_late_joiners_before_the_third_round(nats_url: str) -> None:
    async with platform(nats_url) as p:
        inv = (await p.send("cj", "alice", create=table_pb2.CreateTable(ruleset="candeias", seats=3))).done.invitation
        await p.send("cj", "bob", join=table_pb2.JoinTable(invitation=inv))
        await p.send("cj", "alice", start=table_pb2.StartMatch())
        mid_round = await p.send("cj", "carol", join=table_pb2.JoinTable(invitation=inv))
        while not (await p.table("cj")).match.round_over:  # type: ignore[union-attr]
            assert _code(await p.play_one("cj")) == "done"
        between = await p.send("cj", "carol", join=table_pb2.JoinTable(invitation=inv), name="Carol")
        t = await p.table("cj")
    assert mid_round.done.seat == -1 and between.done.seat == 2
    assert t.match is not None and t.match.n == 3 and t.match.scores[2] == max(t.match.scores[:2])


async def test_events_carry_the_trace_context_of_their_command(nats_url: str) -> None:
    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    async with platform(nats_url) as p:
        cmd = table_pb2.TableCommand(command_id=uuid.uuid4().hex, table_id="traced", actor="alice",
                                     create=table_pb2.CreateTable(ruleset="classic32", seats=2))
        await p.client.request(table_command("traced"), cmd.SerializeToString(), timeout=5,
                               headers={"traceparent": f"00-{trace_id}-00f067aa0ba902b7-01"})
        stored = await p.client.jetstream().get_msg("TABLES", subject="tables.traced", next=True, seq=1)
    assert stored.headers is not None
    assert stored.headers["traceparent"].split("-")[1] == trace_id
    assert stored.headers["Nats-Msg-Id"] == duplicate_id("traced", cmd.command_id)


async def _timed_table(p: Platform, seconds: int) -> str:
    create = table_pb2.CreateTable(ruleset="colors108", seats=2)
    create.options["turn_seconds"].CopyFrom(option_to_pb(seconds))
    tid = "timed" + uuid.uuid4().hex[:6]
    inv = (await p.send(tid, "alice", create=create)).done.invitation
    await p.send(tid, "bob", join=table_pb2.JoinTable(invitation=inv))
    await p.send(tid, "alice", start=table_pb2.StartMatch())
    return tid


async def test_the_turn_timer_plays_for_an_idle_player_once_its_time_has_come(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _timed_table(p, 30)
        t = await p.table(tid)
        assert t.match is not None
        idle = t.match.turn
        early = await p.send(tid, "clock", turn_timeout=table_pb2.TurnTimeout(seq=t.seq))
        p.clock.now += 30
        stale = await p.send(tid, "clock", turn_timeout=table_pb2.TurnTimeout(seq=t.seq - 1))
        fired = await p.send(tid, "clock", turn_timeout=table_pb2.TurnTimeout(seq=t.seq))
        after = await p.table(tid)
        actors = {ev.actor for ev in (await p.store.read(tid, t.seq))[0].batch.events}
    assert _code(early) == "not_due" and _code(stale) == "stale_timer" and _code(fired) == "done"
    assert after.match is not None and after.match.turn != idle and actors == {"clock"}


async def test_absence_is_noticed_without_restarting_the_clocks(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await p.new_table(humans=("bob",), bots=False, seats=2)
        t = await p.table(tid)
        p.clock.now += 48 * 3600
        noticed = await p.send(tid, "clock", notice_absence=table_pb2.NoticeAbsence(seq=t.seq))
        t2 = await p.table(tid)
        assert t2.match is not None
        claim = await p.send(tid, t2.players[1 - t2.match.turn].identity, claim_absence=table_pb2.ClaimAbsence())
    assert _code(noticed) == "done" and t2.absent_seat == t2.match.turn and t2.last_move == t.last_move
    assert _code(claim) == "done"


async def test_a_decline_closes_the_rematch_for_everyone(nats_url: str) -> None:
    async with platform(nats_url) as p:
        tid = await _played_out(p)
        yes = await p.send(tid, "alice", rematch=table_pb2.VoteRematch(accept=True))
        p.clock.now += 3 * 3600  # no hour closes it: it waits for the answers
        no = await p.send(tid, "bob", rematch=table_pb2.VoteRematch(accept=False))
        t = await p.table(tid)
        again = await p.send(tid, "bob", rematch=table_pb2.VoteRematch(accept=True))
        after = await p.send(tid, "alice", rematch=table_pb2.VoteRematch(accept=True))
    assert _code(yes) == "done" and _code(no) == "done"
    assert t.status == "over" and t.rematch_closed and t.rematch == {0} and t.winners
    assert _code(again) == "no_rematch" and _code(after) == "no_rematch"


def test_a_rematch_closed_by_an_earlier_clock_is_still_folded() -> None:
    t = Table("old", status=Status.OVER, rematch={0})
    closed = envelope(table_pb2.TableCommand(table_id="old", command_id="clock:rematch:old:9", actor="clock"),
                      1_800_000_000.0, rematch_closed=table_pb2.RematchClosed())
    evolve(t, 10, closed)
    assert t.rematch_closed and t.status == "over" and t.seq == 10 and t.last_move == 0.0
