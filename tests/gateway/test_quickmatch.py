"""Play with strangers through two gateway replicas over real NATS: the quick match and the open tables."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import nats
import pytest

from services.eventlog.sql import engine
from services.matchmaking.pool import Pool, Ticket, ask
from services.matchmaking.store import MATCHED_HOLD, AlreadyWaiting, Matchmaking, NotYours, _who, pool_key
from services.readmodels.tables.projector import Projector
from services.table.store import STREAM as TABLES
from tests.gateway.harness import Client, Gateways, gateways
from tests.service_task import project_to_end

ASK = {"ruleset": "classic52", "seats": 3, "turn_seconds": 0}


async def _ask(c: Client, body: dict[str, Any] = ASK) -> dict[str, Any]:
    status, answer = await c.post("/api/quick-match", body)
    assert status == 201, answer
    return answer


async def _matched(c: Client, ticket: str) -> str:
    """The table the ticket was seated at, asking as a waiting page does (long polls)."""
    for _ in range(3):
        _, answer = await c.get(f"/api/quick-match/{ticket}?wait=5")
        if answer["status"] == "matched":
            return str(answer["table_id"])
    raise AssertionError(f"{ticket} was not matched")


async def _players(g: Gateways, n: int) -> list[Client]:
    return [await g.client(f"P{i}", replica=i % 2) for i in range(n)]


async def test_players_on_two_replicas_sit_at_one_started_table(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        players = await _players(g, 3)
        tickets = [(await _ask(p))["ticket"] for p in players]
        tables = {await _matched(p, t) for p, t in zip(players, tickets, strict=True)}
        (table_id,) = tables
        t = await g.platform.table(table_id)
    assert t.status == "playing" and sorted(p.name for p in t.players) == ["P0", "P1", "P2"]


async def test_racing_players_are_each_seated_once(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2, table_replicas=2) as g:
        players = await _players(g, 12)
        answers = await asyncio.gather(*(_ask(p) for p in players))
        tables = await asyncio.gather(*(_matched(p, a["ticket"]) for p, a in zip(players, answers, strict=True)))
        seated = [pl.name for tid in set(tables) for pl in (await g.platform.table(tid)).players]
    assert len(set(tables)) == 4 and sorted(seated) == sorted(p.name for p in players)


async def test_a_waiting_page_hears_of_its_table_from_another_replica_at_once(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana, bia = await g.client("Ana", replica=0), await g.client("Bia", replica=1)
        ticket = (await _ask(ana, {"ruleset": "classic52", "seats": 2, "turn_seconds": 15}))["ticket"]
        waiting = asyncio.create_task(ana.get(f"/api/quick-match/{ticket}?wait=10"))
        await asyncio.sleep(0.3)
        asked = time.monotonic()
        await _ask(bia, {"ruleset": "classic52", "seats": 2, "turn_seconds": 15})
        _, answer = await waiting
        heard = time.monotonic() - asked
        t = await g.platform.table(answer["table_id"])
    assert answer["status"] == "matched" and heard < 5 and t.options["turn_seconds"] == 15


async def test_a_cancelled_ticket_is_not_seated(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana, *others = await _players(g, 4)
        gone = (await _ask(ana))["ticket"]
        async with g.http.delete(f"{g.urls[1]}/api/quick-match/{gone}", headers=ana.headers) as r:
            cancelled = (r.status, await r.json())
        tickets = [(await _ask(p))["ticket"] for p in others]
        table_id = await _matched(others[0], tickets[0])
        _, after = await ana.get(f"/api/quick-match/{gone}")
        names = [pl.name for pl in (await g.platform.table(table_id)).players]
    assert cancelled == (200, {"status": "cancelled", "table_id": None}) and after["status"] == "cancelled"
    assert sorted(names) == ["P1", "P2", "P3"]


async def test_asking_in_another_pool_while_waiting_is_refused_and_the_ticket_waits_on(nats_url: str,
                                                                                       tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        (ana,) = await _players(g, 1)
        first = (await _ask(ana))["ticket"]
        refused = await ana.post("/api/quick-match", {"ruleset": "candeias", "seats": 2, "turn_seconds": 30})
        _, answer = await ana.get(f"/api/quick-match/{first}")
    assert (refused[0], refused[1]["error"]["code"], answer["status"]) == (409, "already_waiting", "waiting")


async def test_asking_again_in_the_same_pool_takes_the_waiting_ticket_back(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana = await g.client("Ana", replica=0)
        first = (await _ask(ana))["ticket"]
        ana.base = g.urls[1]  # another tab, on another replica
        again = await _ask(ana)
        _, before = await ana.get(f"/api/quick-match/{first}")
    assert (again["status"], before["status"]) == ("waiting", "cancelled") and again["ticket"] != first


async def test_a_cancel_that_comes_after_asking_again_leaves_the_new_ticket_waiting(nats_url: str,
                                                                                    tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        (ana,) = await _players(g, 1)
        first = (await _ask(ana))["ticket"]
        again = (await _ask(ana))["ticket"]  # "Cancelar", then "Jogar agora" at once: the cancel is slower
        await _cancel(g, ana, first)
        _, answer = await ana.get(f"/api/quick-match/{again}")
    assert answer["status"] == "waiting"


async def test_a_cancelled_ticket_lets_its_player_ask_elsewhere_at_once(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        (ana,) = await _players(g, 1)
        first = (await _ask(ana))["ticket"]
        async with g.http.delete(f"{g.urls[0]}/api/quick-match/{first}", headers=ana.headers):
            pass
        status, answer = await ana.post("/api/quick-match", {"ruleset": "candeias", "seats": 2, "turn_seconds": 30})
    assert (status, answer["status"]) == (201, "waiting")


async def _race(g: Gateways, ana: Client, pools: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Ana's two tabs, on the two replicas, ask at once: one pool each."""
    tabs = [Client(url, ana.token, ana.name, g.http) for url in g.urls]
    return list(await asyncio.gather(*(tab.post("/api/quick-match", pool) for tab, pool in zip(tabs, pools,
                                                                                                strict=True))))


async def _cancel(g: Gateways, c: Client, ticket: str) -> None:
    async with g.http.delete(f"{g.urls[0]}/api/quick-match/{ticket}", headers=c.headers):
        pass


TWO_POOLS = [{"ruleset": "classic52", "seats": 3, "turn_seconds": 15}, {"ruleset": "candeias", "seats": 3,
                                                                        "turn_seconds": 15}]


async def test_two_tabs_asking_at_once_in_two_pools_hold_one_ticket(nats_url: str, tmp_path: Path) -> None:
    outcomes = []
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        for trial in range(6):
            ana = await g.client(f"Ana{trial}")
            answers = await _race(g, ana, TWO_POOLS)
            outcomes.append(sorted(status for status, _ in answers))
            for status, answer in answers:
                if status == 201:
                    await _cancel(g, ana, answer["ticket"])  # the pools empty again for the next trial
    assert outcomes == [[201, 409]] * 6


async def test_two_tabs_asking_at_once_where_each_would_fill_a_table_sit_at_one(nats_url: str,
                                                                               tmp_path: Path) -> None:
    pools = [{**pool, "seats": 2} for pool in TWO_POOLS]
    seated = []
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        for trial in range(4):
            ana, *others = [await g.client(f"{name}{trial}") for name in ("Ana", "Bia", "Caio")]
            tickets = [(await _ask(other, pool))["ticket"] for other, pool in zip(others, pools, strict=True)]
            answers = await _race(g, ana, pools)
            tables = {answer["table_id"] for status, answer in answers if status == 201 and answer["table_id"]}
            for other, ticket in zip(others, tickets, strict=True):
                await _cancel(g, other, ticket)  # the one left waiting goes
            seated.append(len(tables))
    assert seated == [1] * 4


async def test_only_its_player_may_take_a_ticket_back(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana, bia = await g.client("Ana", replica=0), await g.client("Bia", replica=1)
        ticket = (await _ask(ana))["ticket"]
        async with g.http.delete(f"{g.urls[1]}/api/quick-match/{ticket}", headers=bia.headers) as r:
            refused = (r.status, (await r.json())["error"]["code"])
        _, still = await ana.get(f"/api/quick-match/{ticket}")
    assert refused == (404, "unknown_ticket") and still["status"] == "waiting"


async def test_a_stranger_cancelling_a_matched_ticket_learns_nothing_of_its_table(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        mm = await Matchmaking.open(nc.jetstream())
        key, now = pool_key("classic52", 2, 0), time.time()
        ticket, *_ = await mm.ask(key, 2, "ana", "Ana", False, now)
        await mm.ask(key, 2, "bia", "Bia", False, now)
        await mm.ask(key, 2, "caio", "Caio", False, now + 5)  # the group leaves the pool: found by its ticket's key
        with pytest.raises(NotYours):
            await mm.cancel(ticket, "caio")
        mine = await mm.cancel(ticket, "ana")
    finally:
        await nc.close()
    assert mine[0] == "matched" and mine[1]


async def test_a_ticket_nobody_asks_about_is_dropped(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        mm = await Matchmaking.open(nc.jetstream(), seen_seconds=1.0)
        key = pool_key("classic52", 2, 0)
        gone, *_ = await mm.ask(key, 2, "ana", "Ana", False, time.time())
        await asyncio.sleep(2.5)  # Ana's tab closed: nobody asks about her ticket
        kept, state, _, _ = await mm.ask(key, 2, "bia", "Bia", False, time.time())
        dropped = (await mm.status(gone))[0]
    finally:
        await nc.close()
    assert (state, dropped) == ("waiting", "cancelled") and kept != gone


async def test_a_group_its_replica_never_stored_by_ticket_is_still_found_once_it_leaves_its_pool(
        nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        mm = await Matchmaking.open(nc.jetstream())
        key, now = pool_key("classic52", 2, 0), time.time()
        pool = Pool()  # what a replica that died after forming the group left: the pool, no seated.<ticket> keys
        for name in ("ana", "bia"):
            ask(pool, Ticket(f"{key}.{name}", name, name.title()), seats=2, now=now)
        await mm.kv.put(f"pool.{key}", json.dumps(pool.to_json()).encode())
        await mm.ask(key, 2, "caio", "Caio", False, now + 60)  # the next change, long after: the group leaves
        left, (state, table_id, group) = await mm.kv.get(f"pool.{key}"), await mm.status(f"{key}.ana")
    finally:
        await nc.close()
    assert b"bia" not in (left.value or b"") and (state, table_id) == ("matched", pool.groups[0].table_id)
    assert group is not None and [t.name for t in group.tickets] == ["Ana", "Bia"]


async def test_a_player_just_seated_is_refused_elsewhere_however_late_the_racing_ask_comes(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        mm = await Matchmaking.open(nc.jetstream())
        here, there, now = pool_key("classic52", 2, 0), pool_key("candeias", 2, 0), time.time()
        await mm.ask(here, 2, "bia", "Bia", False, now)
        _, matched, _, _ = await mm.ask(here, 2, "ana", "Ana", False, now)
        await mm.ask(here, 2, "caio", "Caio", False, now + 5)  # the pool changes: Ana's group has left it
        left = (await mm.kv.get(f"pool.{here}")).value or b""
        with pytest.raises(AlreadyWaiting):  # her other tab's ask, slowed down on a busy replica
            await mm.ask(there, 2, "ana", "Ana", False, now + 10)
        _, later, _, _ = await mm.ask(there, 2, "ana", "Ana", False, now + 10 + MATCHED_HOLD)
    finally:
        await nc.close()
    assert (matched, b"ana" in left, later) == ("matched", False, "waiting")


async def test_an_ask_that_failed_on_its_way_does_not_hold_its_player(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        mm = await Matchmaking.open(nc.jetstream())
        key = pool_key("classic52", 3, 0)
        lost = f"{key}.0123456789abcdef"  # what an ask that died after its claim left: claimed, seen, not in its pool
        await mm.seen.put(f"seen.{lost}", b"")
        await mm.kv.put(_who("ana"), lost.encode())
        ticket, state, _, _ = await mm.ask(key, 3, "ana", "Ana", False, time.time())
        now = (await mm.status(ticket))[0]
    finally:
        await nc.close()
    assert (state, now) == ("waiting", "waiting") and ticket != lost


async def test_a_bad_request_is_refused_clearly(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        (ana,) = await _players(g, 1)
        seats = await ana.post("/api/quick-match", {"ruleset": "classic52", "seats": 1})
        ruleset = await ana.post("/api/quick-match", {"ruleset": "poker", "seats": 2})
        turn = await ana.post("/api/quick-match", {"ruleset": "classic52", "seats": 2, "turn_seconds": 7})
    assert [a[0] for a in (seats, ruleset, turn)] == [400, 400, 400]


async def test_an_open_table_is_listed_and_anyone_may_join(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        _, listed = await ana.post("/api/tables", {"ruleset": "classic52", "seats": 3, "open": True})
        await ana.post("/api/tables", {"ruleset": "classic52", "seats": 3})
        db = engine(f"sqlite+aiosqlite:///{tmp_path}/gw.db")
        await project_to_end(Projector(g.platform.client.jetstream(), db), g.platform.client.jetstream(), TABLES)
        await db.dispose()
        _, open_tables = await bia.get("/api/open-tables")
        status, joined = await bia.post(f"/api/tables/{listed['table_id']}/join", {})
    assert [t["table_id"] for t in open_tables["tables"]] == [listed["table_id"]]
    assert open_tables["tables"][0]["free"] == 2 and (status, joined) == (200, {"seat": 1})


async def test_a_gateway_stopped_while_its_player_waits_loses_nobody(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana, bia = await g.client("Ana", replica=0), await g.client("Bia", replica=1)
        ticket = (await _ask(ana, {"ruleset": "classic52", "seats": 2, "turn_seconds": 0}))["ticket"]
        await g.restart(0)  # Ana's page asks the other replica from now on
        ana.base = g.urls[1]
        await _ask(bia, {"ruleset": "classic52", "seats": 2, "turn_seconds": 0})
        table_id = await _matched(ana, ticket)
        names = sorted(p.name for p in (await g.platform.table(table_id)).players)
    assert names == ["Ana", "Bia"]


async def test_a_group_whose_table_was_never_created_gets_it_from_the_next_question(
        nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        ticket = (await _ask(ana, {"ruleset": "candeias", "seats": 2, "turn_seconds": 0}))["ticket"]
        nc = await nats.connect(nats_url)
        try:  # a replica fills the pool and dies before it creates the table
            mm = await Matchmaking.open(nc.jetstream())
            _, state, table_id, _ = await mm.ask(pool_key("candeias", 2, 0), 2, "g-bia", "Bia", False, time.time())
        finally:
            await nc.close()
        before = (await g.platform.table(table_id)).status
        seated_at = await _matched(ana, ticket)
        t = await g.platform.table(table_id)
    assert (state, before, seated_at) == ("matched", "none", table_id)
    assert t.status == "playing" and sorted(p.name for p in t.players) == ["Ana", "Bia"]


async def test_a_lobby_page_sees_open_tables_come_and_fill_live(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        eva = await g.client("Eva", replica=1)
        await eva.connect()
        await eva.send({"type": "open_tables"})
        await eva.send({"type": "ping"})
        await eva.wait(lambda f: f.get("type") == "pong")  # the socket watches from here on
        ana, bia = await g.client("Ana"), await g.client("Bia")
        _, created = await ana.post("/api/tables", {"ruleset": "classic52", "seats": 2, "open": True})
        await ana.post("/api/tables", {"ruleset": "classic52", "seats": 2})  # by invitation: never listed
        tid = created["table_id"]
        listed = await eva.wait(lambda f: f.get("type") == "open_table" and f["table"]["table_id"] == tid)
        await bia.post(f"/api/tables/{tid}/join", {})
        full = await eva.wait(lambda f: f.get("type") == "open_table" and f["table"]["free"] == 0)
        await eva.close()
        announced = {f["table"]["table_id"] for f in eva.frames if f.get("type") == "open_table"}
    assert listed["table"]["listed"] and listed["table"]["players"] == ["Ana"]
    assert full["table"]["table_id"] == tid and not full["table"]["listed"] and announced == {tid}


async def _socket_ask(c: Client, cid: str, **frame: Any) -> dict[str, Any]:
    await c.send({"type": "quick_match", "id": cid, **frame})
    return await c.wait(lambda f: f.get("type") == "ack" and f.get("id") == cid)


async def test_the_quick_match_over_the_websocket_tells_the_waiting_tab_its_table(nats_url: str,
                                                                                  tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, replicas=2) as g:
        ana, bia = await g.client("Ana", replica=0), await g.client("Bia", replica=1)
        for c in (ana, bia):
            await c.connect()
        ask = {"ruleset": "classic52", "seats": 2, "turn_seconds": 30}
        waiting = await _socket_ask(ana, "q1", ask=ask)
        filled = await _socket_ask(bia, "q2", ask=ask)
        told = await ana.wait(lambda f: f.get("type") == "quick_match")
        bad = await _socket_ask(ana, "q3", ask={"ruleset": "poker", "seats": 2})
        await ana.close()
        await bia.close()
    assert waiting["ok"] and waiting["status"] == "waiting"
    assert filled["status"] == "matched" and told["ticket"] == waiting["ticket"]
    assert told["table_id"] == filled["table_id"] and (bad["ok"], bad["code"]) == (False, "bad_options")


async def test_a_closed_tab_leaves_the_queue_at_once(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        await ana.connect()
        ticket = (await _socket_ask(ana, "q1", ask={"ruleset": "candeias", "seats": 3, "turn_seconds": 0}))["ticket"]
        await ana.close()
        for _ in range(50):
            _, answer = await ana.get(f"/api/quick-match/{ticket}")
            if answer["status"] == "cancelled":
                break
            await asyncio.sleep(0.05)
    assert answer["status"] == "cancelled"
