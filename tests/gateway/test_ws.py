"""The gateway over real HTTP and WebSockets, in front of a real platform."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp

from gateway.http_api import DB_KEY
from services.eventlog.sql import engine
from services.readmodels.tables.projector import Projector
from tests.gateway.harness import Client, Gateways, gateways
from tests.table.harness import table_replica


async def _table_for_two(g: Gateways, alice: Client, bob: Client, ruleset: str = "classic32") -> str:
    status, created = await alice.post("/api/tables", {"ruleset": ruleset, "seats": 2})
    assert status == 201, created
    status, joined = await bob.post(f"/api/tables/{created['table_id']}/join", {"invitation": created["invitation"]})
    assert status == 200 and joined["seat"] == 1
    return str(created["table_id"])


async def _started_and_watched(g: Gateways, alice: Client, bob: Client) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A started table for two, each player's socket following it: the table and each one's first state frame."""
    tid = await _table_for_two(g, alice, bob)
    assert (await alice.post(f"/api/tables/{tid}/start"))[0] == 200
    for c in (alice, bob):
        await c.connect()
        await c.send({"type": "subscribe", "table": tid})
    return (tid, await alice.wait(lambda f: f.get("type") == "state"),
            await bob.wait(lambda f: f.get("type") == "state"))


async def test_two_players_see_each_others_moves_with_only_their_own_hand(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid, a_state, b_state = await _started_and_watched(g, alice, bob)
        on_turn = alice if a_state["view"]["turn"] == 0 else bob
        view = (a_state if on_turn is alice else b_state)["view"]
        ack = await on_turn.command(tid, view["legal_actions"][0])
        a_ev = await alice.wait(lambda f: f.get("type") == "events" and f["seq"] == ack["seqs"][0])
        b_ev = await bob.wait(lambda f: f.get("type") == "events" and f["seq"] == ack["seqs"][0])
        await alice.close()
        await bob.close()
    assert ack["ok"] and a_state["table_info"]["my_seat"] == 0 and b_state["table_info"]["my_seat"] == 1
    assert len(a_state["view"]["hand"]) == 5 and set(a_state["view"]["hand"]).isdisjoint(b_state["view"]["hand"])
    assert a_ev["events"][0]["type"] == b_ev["events"][0]["type"] == "ActionTaken"
    assert a_ev["view"]["hand"] != b_ev["view"]["hand"]


async def test_a_move_sent_in_its_notation_is_stored_and_shown_in_it(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid, a_state, b_state = await _started_and_watched(g, alice, bob)
        player, viewer = (alice, bob) if a_state["view"]["turn"] == 0 else (bob, alice)
        ack = await player.command(tid, {"move": "draw"})
        seen = await viewer.wait(lambda f: f.get("type") == "events" and f["seq"] == ack["seqs"][0])
        stored = await g.platform.store.read(tid)
        await alice.close()
        await bob.close()
    action = stored[-1].batch.events[0].action_taken.action
    assert ack["ok"] and (action.move, action.do) == ("draw", "draw")  # and its fields, for the release before
    assert seen["events"][0]["action"] == {"seat": action.seat, "do": "draw", "move": "draw"}
    assert all(a["move"] for a in (a_state if player is alice else b_state)["view"]["legal_actions"])


async def test_a_move_not_in_the_notation_is_refused_and_changes_nothing(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid, a_state, _ = await _started_and_watched(g, alice, bob)
        player = alice if a_state["view"]["turn"] == 0 else bob
        before = len(await g.platform.store.read(tid))
        acks = [await player.command(tid, body) for body in
                ({"move": "play 7H"}, {"move": 7}, {"move": "draw", "do": "pass"})]
        after = len(await g.platform.store.read(tid))
        ping = await player.command(tid, {"move": "draw"})  # the socket and the turn are as they were
        await alice.close()
        await bob.close()
    assert [(a["ok"], a["code"]) for a in acks] == [(False, "bad_request")] * 3
    assert "notation" in acks[0]["message"] and after == before and ping["ok"]


async def test_a_spectator_sees_no_hand_and_can_neither_act_nor_write(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob, eve = await g.client("Ana"), await g.client("Bia"), await g.client("Eva")
        tid = await _table_for_two(g, alice, bob)
        await alice.post(f"/api/tables/{tid}/start")
        _, watch = await eve.post(f"/api/tables/{tid}/join", {"invitation": "wrong"})
        await eve.connect()
        await eve.send({"type": "subscribe", "table": tid})
        state = await eve.wait(lambda f: f.get("type") == "state")
        act = await eve.command(tid, {"do": "draw"})
        say = await eve.command(tid, {"chat": {"text": "oi"}})
        await eve.close()
    assert "hand" not in state["view"] and state["view"]["legal_actions"] == []
    assert state["table_info"]["my_seat"] == -1 and "invitation" not in state["table_info"]
    assert watch["error"]["code"] == "bad_invitation"
    assert not act["ok"] and act["code"] == "not_seated" and not say["ok"] and say["code"] == "not_seated"


async def _chat_heard(nats_url: str, tmp_path: Path, sender: int,
                      body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ana and Bia seated and subscribed; one of them (``sender``: 0 Ana, 1 Bia) sends a chat frame: (its ack,
    the chat frame the other one heard)."""
    async with gateways(nats_url, tmp_path) as g:
        players = [await g.client("Ana"), await g.client("Bia")]
        tid = await _table_for_two(g, *players)
        for c in players:
            await c.connect()
            await c.send({"type": "subscribe", "table": tid})
            await c.wait(lambda f: f.get("type") == "chat")
        ack = await players[sender].command(tid, {"chat": body})
        heard = await players[1 - sender].wait(lambda f: f.get("type") == "chat" and f["lines"])
        for c in players:
            await c.close()
    return ack, heard


async def test_chat_reaches_everyone_at_the_table(nats_url: str, tmp_path: Path) -> None:
    said, line = await _chat_heard(nats_url, tmp_path, 0, {"text": "<b>boa sorte</b>"})
    assert said["ok"] and line["lines"][0]["text"] == "<b>boa sorte</b>" and line["lines"][0]["seat"] == 0


async def test_a_reaction_reaches_everyone_at_the_table_as_a_chat_line(nats_url: str, tmp_path: Path) -> None:
    reacted, line = await _chat_heard(nats_url, tmp_path, 1, {"reaction": "aplausos"})
    assert reacted["ok"] and line["lines"][0]["reaction"] == "aplausos" and line["lines"][0]["seat"] == 1
    assert line["lines"][0]["text"] == ""


async def test_a_reconnecting_client_gets_what_it_missed(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid = await _table_for_two(g, alice, bob)
        await bob.connect()
        await bob.send({"type": "subscribe", "table": tid})
        seen = (await bob.wait(lambda f: f.get("type") == "state"))["seq"]
        await bob.close()
        await alice.post(f"/api/tables/{tid}/start")
        bob.frames.clear()
        await bob.connect()
        await bob.send({"type": "subscribe", "table": tid, "since": seen})
        replayed = await bob.wait(lambda f: f.get("type") == "events")
        await bob.close()
    assert replayed["seq"] == seen + 1
    assert [e["type"] for e in replayed["events"]] == ["MatchStarted", "RoundDealt"]
    assert len(replayed["events"][1]["hand"]) == 5 and not any(f["type"] == "state" for f in bob.frames)


async def test_malformed_frames_get_errors_and_other_tables_go_on(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        t1 = await _table_for_two(g, alice, bob)
        t2 = await _table_for_two(g, alice, bob)
        await alice.connect()
        for tid in (t1, t2):
            await alice.send({"type": "subscribe", "table": tid})
            await alice.wait(lambda f, tid=tid: f.get("type") == "state" and f["table"] == tid)
        for junk in ("not json", "[1,2]", json.dumps({"type": "dance"}), json.dumps({"type": "command", "table": t1}),
                     json.dumps({"type": "subscribe", "table": "../../etc"}), "x" * 9000,
                     json.dumps({"type": "command", "table": t1, "id": "j", "command": {"do": "play", "card": 7}})):
            await alice.send(junk)
        await alice.post(f"/api/tables/{t2}/start")
        moved = await alice.wait(lambda f: f.get("type") == "events" and f["table"] == t2)
        errors = [f for f in alice.frames if f["type"] == "error"]
        bad_ack = await alice.wait(lambda f: f.get("type") == "ack" and f.get("id") == "j")
        still = await alice.command(t1, {"chat": {"text": "ainda aqui"}})
        await alice.close()
    assert len(errors) == 6 and all(e["code"] and e["message"] for e in errors)
    assert moved["events"][0]["type"] == "MatchStarted" and not bad_ack["ok"] and still["ok"]


async def test_a_move_made_while_the_table_service_is_away_is_sent_again_and_the_tab_sees_it_done(
        nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, table_replicas=0) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        async with table_replica(g.platform):
            tid, a, b = await _started_and_watched(g, alice, bob)
        player = alice if a["view"]["turn"] == 0 else bob  # no table service answers now: as in an election
        legal = (a if player is alice else b)["view"]["legal_actions"]
        await player.send({"type": "command", "table": tid, "id": "m1", "command": legal[0]})
        await asyncio.sleep(1.5)
        async with table_replica(g.platform):
            ack = await player.wait(lambda f: f.get("type") == "ack" and f.get("id") == "m1", seconds=25)
            await player.wait(lambda f: f.get("type") == "events" and f["seq"] == ack["seqs"][0])
        stored = await g.platform.store.read(tid)
        await alice.close()
        await bob.close()
    assert ack["ok"], ack
    assert [f for f in player.frames if f.get("code") == "unavailable"] == []
    assert sum(s.batch.events[0].command_id.endswith(":m1") for s in stored) == 1  # stored once


async def test_two_gateway_replicas_serve_the_same_table(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        alice, bob = await g.client("Ana", replica=0), await g.client("Bia", replica=1)
        tid = await _table_for_two(g, alice, bob)
        await alice.post(f"/api/tables/{tid}/start")
        await alice.connect()
        await bob.connect()
        for c in (alice, bob):
            await c.send({"type": "subscribe", "table": tid})
        a = await alice.wait(lambda f: f.get("type") == "state")
        b = await bob.wait(lambda f: f.get("type") == "state")
        player, viewer = (alice, bob) if a["view"]["turn"] == 0 else (bob, alice)
        legal = (a if player is alice else b)["view"]["legal_actions"]
        ack = await player.command(tid, next(x for x in legal if x["do"] == "draw"))
        seen = await viewer.wait(lambda f: f.get("type") == "events" and f["seq"] == ack["seqs"][0])
        await alice.close()
        await bob.close()
    assert ack["ok"] and seen["events"][0]["action"]["do"] == "draw"
    assert "cards" not in seen["events"][0]["draws"][0]


async def test_a_foreign_origin_is_refused(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice = await g.client("Ana")
        url = g.urls[0].replace("http", "ws", 1) + "/ws"
        try:
            await g.http.ws_connect(url, headers={"Origin": "https://evil.example", **alice.headers})
        except aiohttp.WSServerHandshakeError as e:
            status = e.status
        ok = await g.http.ws_connect(url, headers={"Origin": g.urls[0], **alice.headers})
        await ok.close()
    assert status == 403


async def test_my_tables_lists_the_seats_of_the_caller(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid = await _table_for_two(g, alice, bob)
        db = engine(f"sqlite+aiosqlite:///{tmp_path}/gw.db")
        projector = Projector(g.platform.client.jetstream(), db)
        task = asyncio.create_task(projector.run())
        for _ in range(100):
            if await projector.caught_up() >= 2:
                break
            await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await db.dispose()
        status, mine = await bob.get("/api/my-tables")
        _, strangers = await (await g.client("Eva")).get("/api/my-tables")
    assert status == 200 and [(t["table_id"], t["seat"]) for t in mine["tables"]] == [(tid, 1)]
    assert strangers["tables"] == []


async def test_my_tables_says_unavailable_while_the_database_cannot_be_read(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        await g.apps[0][DB_KEY].dispose()
        (tmp_path / "gw.db").unlink()
        (tmp_path / "gw.db").mkdir()  # no database file can be opened there
        status, body = await ana.get("/api/my-tables")
    assert status == 503 and body["error"]["code"] == "unavailable"


async def test_a_table_says_how_it_ended(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid = await _table_for_two(g, alice, bob)
        await alice.post(f"/api/tables/{tid}/start")
        await bob.connect()
        await bob.command(tid, {"give_up": {}})
        await bob.close()
        status, table = await alice.get(f"/api/tables/{tid}")
    assert status == 200 and (table["status"], table["end_reason"], table["winners"]) == ("ended", "gave_up", [0])


async def test_everyone_sees_which_seats_are_automatic(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice, bob = await g.client("Ana"), await g.client("Bia")
        tid = await _table_for_two(g, alice, bob)
        await alice.post(f"/api/tables/{tid}/start")
        for c in (alice, bob):
            await c.connect()
            await c.send({"type": "subscribe", "table": tid})
            await c.wait(lambda f: f.get("type") == "state")
        on = await alice.command(tid, {"auto_mode": {"on": True}})
        seen = await bob.wait(lambda f: f.get("type") == "events" and f["seq"] == on["seqs"][0])
        off = await alice.command(tid, {"auto_mode": {"on": False}})
        back = await bob.wait(lambda f: f.get("type") == "events" and f["seq"] == off["seqs"][0])
        await alice.close()
        await bob.close()
    assert on["ok"] and seen["table_info"]["auto"] == [0] and back["table_info"]["auto"] == []
    assert seen["events"][0] == {"type": "AutoModeChanged", "time": seen["events"][0]["time"], "seat": 0, "on": True,
                                 "reason": "chosen"}
    assert back["events"][0]["reason"] == "returned" and back["events"][0]["on"] is False


async def test_a_teams_lobby_shows_who_partners_whom_as_the_creator_moves_players(nats_url: str,
                                                                                 tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        teams = {"ruleset": "colors108", "seats": 4, "options": {"teams": True}}
        status, created = await ana.post("/api/tables", teams)
        assert status == 201, created
        tid = created["table_id"]
        await bia.post(f"/api/tables/{tid}/join", {"invitation": created["invitation"]})
        await ana.post(f"/api/tables/{tid}/bots")
        for c in (ana, bia):
            await c.connect()
            await c.send({"type": "subscribe", "table": tid})
        before = await bia.wait(lambda f: f.get("type") == "state")
        refused = await bia.command(tid, {"move_seat": {"seat": 1, "to": 2}})
        moved = await ana.command(tid, {"move_seat": {"seat": 1, "to": 2}})  # Bia sits opposite Ana
        after = await bia.wait(lambda f: f.get("type") == "events" and f["seq"] == moved["seqs"][0])
        await ana.close()
        await bia.close()
    assert before["table_info"]["partners"] == [[0, 2], [1, 3]] and before["table_info"]["my_seat"] == 1
    assert not refused["ok"] and refused["code"] == "not_creator" and moved["ok"]
    moved_event = after["events"][0]
    assert (moved_event["type"], moved_event["seat"], moved_event["to"]) == ("SeatMoved", 1, 2)
    info = after["table_info"]
    assert info["my_seat"] == 2 and info["players"][2]["name"] == "Bia" and info["players"][1]["bot"]
    assert info["partners"] == [[0, 2], [1, 3]]


async def test_the_welcome_names_the_client_build_the_shell_loads_now(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        alice = await g.client("Ana")
        async with g.http.get(g.urls[0] + "/") as page:
            shell = await page.text()
        await alice.connect()
        await alice.send({"type": "hello", "v": 1})
        welcome = await alice.wait(lambda f: f.get("type") == "welcome")
        await alice.close()
    assert welcome["client"].startswith("app-")  # make setup built the client
    assert f'src="/static/dist/{welcome["client"]}"' in shell
