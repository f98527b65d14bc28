"""``GET /api/tables/{id}/replay`` (docs/protocol.md): the replay viewer's steps, as each caller saw the table.

Ana and Bia (guests) play a round of classic32 to its end and a few moves of the next, then
Bia gives up. Ana's replay never holds a card of Bia's hand while its round is being played,
and shows every hand once the round is over; someone watching sees no hand at all; a staff
account sees every hand from the first deal, and each staff replay is recorded in the
DISPUTES stream (on the table's subject, or on the dispute it was opened from).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from gateway.identity import identity_of
from gateway.replay_api import CACHE_KEY
from maumau.v1 import table_pb2
from services.accounts.staff import set_staff
from services.disputes.domain import looks_subject
from services.disputes.store import DisputeStore
from services.rules.engine import legal_actions
from services.rules.wire import action_to_pb
from services.table.domain import Table, evolve
from services.table.repository import tables
from tests.gateway.harness import Client, Gateways
from tests.gateway.test_accounts import call, platform, register

TID = "replay1"
Hands = dict[int, list[list[str]]]  # stream sequence: every seat's hand right after that batch


async def _act(g: Gateways, who: list[str], rng: random.Random) -> Table:
    t = await tables(g.platform.store, cache_size=0).get(TID)
    assert t.match is not None
    options = list(legal_actions(t.match, t.match.turn))
    options = [a for a in options if a.kind == "play"] or options  # rounds that end
    action = action_to_pb(options[rng.randrange(len(options))], t.match.rs.family)
    reply = await g.platform.send(TID, who[t.match.turn], act=action)
    assert reply.WhichOneof("result") == "done", reply
    return await tables(g.platform.store, cache_size=0).get(TID)


@contextlib.asynccontextmanager
async def finished(nats_url: str, tmp_path: Path) -> AsyncIterator[tuple[Gateways, Client, Client, str]]:
    """Ana (seat 0) and Bia (seat 1) play round 1 to its end and 4 moves of round 2; Bia gives up. Sol is staff."""
    async with platform(nats_url, tmp_path) as g:
        ana, bia = await g.client("Ana"), await g.client("Bia")
        who = [identity_of(ana.token), identity_of(bia.token)]
        sol = await register(g, "Sol")
        assert (await set_staff(g.platform.client, "Sol", True)).account.staff
        p, rng = g.platform, random.Random(7)
        created = await p.send(TID, who[0], create=table_pb2.CreateTable(ruleset="classic32", seats=2), name="Ana")
        await p.send(TID, who[1], join=table_pb2.JoinTable(invitation=created.done.invitation), name="Bia")
        await p.send(TID, who[0], start=table_pb2.StartMatch())
        for _ in range(500):
            t = await _act(g, who, rng)
            assert t.match is not None
            if t.match.round_over:
                break
        assert t.match is not None and t.match.round_over and not t.match.match_over
        assert (await p.send(TID, who[0], next_round=table_pb2.NextRound())).WhichOneof("result") == "done"
        for _ in range(4):
            t = await _act(g, who, rng)
        assert t.match is not None and not t.match.round_over
        assert (await p.send(TID, who[1], give_up=table_pb2.GiveUp())).WhichOneof("result") == "done"
        yield g, ana, bia, sol


async def _hands(g: Gateways) -> Hands:
    """Every seat's hand after each batch, from the record itself."""
    t, out = Table(TID), {}
    for stored in await g.platform.store.read(TID):
        for ev in stored.batch.events:
            evolve(t, stored.seq, ev)
        if t.match is not None:
            out[stored.seq] = [t.match.rs.family.names(h) for h in t.match.hands]
    return out


def _strings(value: Any) -> set[str]:
    """Every text anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | set().union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value)) if value else set()
    return set()


async def test_a_seated_player_never_sees_another_seats_cards_before_the_rounds_end(nats_url: str,
                                                                                   tmp_path: Path) -> None:
    async with finished(nats_url, tmp_path) as (g, ana, bia, _):
        status, body = await ana.get(f"/api/tables/{TID}/replay")
        _, bias = await bia.get(f"/api/tables/{TID}/replay")
        hands = await _hands(g)
        stored = [b.seq for b in await g.platform.store.read(TID)]
        looks = await DisputeStore(g.platform.client.jetstream()).events(looks_subject(TID))
    assert status == 200 and body["viewer"] == "seat" and body["seat"] == 0 and body["ruleset"] == "classic32"
    steps = body["steps"]
    assert [s["seq"] for s in steps] == stored  # a step per stored batch, in order (a game's length is the deal's)
    revealed = 0
    for s in steps:
        assert "hands" not in _keys(s) and "invitation" not in s["table_info"]
        v = s["view"]
        if v is None:
            continue
        assert sorted(v["hand"]) == sorted(hands[s["seq"]][0])  # her own cards, all
        if v["round_over"]:  # every hand shown once the round is over, as at the table
            assert v["revealed_hands"][1] == hands[s["seq"]][1]
            revealed += 1
        else:
            assert "revealed_hands" not in v
            assert not _strings(s) & set(hands[s["seq"]][1]), s  # not one of Bia's cards, anywhere in the step
            for e in s["events"]:
                if e["type"] == "RoundDealt":
                    assert "hands" not in e and e["hand"]
                for d in e.get("draws", []):
                    assert ("cards" in d) == (d["seat"] == 0)
    assert revealed >= 1
    assert steps[-1]["events"][-1]["type"] == "MatchEnded" and steps[-1]["table_info"]["status"] == "ended"
    assert any("your hand:" in w for s in steps for w in s["words"])
    assert bias["seat"] == 1 and all(s["view"] is None or "hand" in s["view"] for s in bias["steps"][3:])
    assert looks == []  # players' replays are not looks


async def test_someone_watching_sees_no_hand(nats_url: str, tmp_path: Path) -> None:
    async with finished(nats_url, tmp_path) as (g, _, _, _):
        gil = await g.client("Gil")
        status, body = await gil.get(f"/api/tables/{TID}/replay")
        unknown = await gil.get("/api/tables/nobody/replay")
        hands = await _hands(g)
    assert status == 200 and body["viewer"] == "spectator" and body["seat"] is None
    for s in body["steps"]:
        v = s["view"]
        assert "hand" not in _keys(s) and "hands" not in _keys(s)
        assert all("cards" not in d for e in s["events"] for d in e.get("draws", []))
        if v is not None and not v["round_over"]:
            assert not _strings(s) & {c for h in hands[s["seq"]] for c in h}
    assert unknown[0] == 404 and unknown[1]["error"]["code"] == "unknown_table"


async def test_staff_see_every_hand_from_the_first_move_and_the_look_is_recorded(nats_url: str,
                                                                                 tmp_path: Path) -> None:
    async with finished(nats_url, tmp_path) as (g, ana, _, sol):
        rui = await register(g, "Rui")  # an account, not staff
        status, body, _ = await call(g, "GET", f"/api/tables/{TID}/replay", session=sol)
        _, plain, _ = await call(g, "GET", f"/api/tables/{TID}/replay", session=rui)
        reported = await ana.post(f"/api/tables/{TID}/disputes", {"text": "Ela tinha o 7?"})
        dispute = str(reported[1]["dispute_id"])
        await call(g, "GET", f"/api/tables/{TID}/replay?relato={dispute}", session=sol)
        store = DisputeStore(g.platform.client.jetstream())
        table_looks = await store.events(looks_subject(TID))
        dispute_events = await store.events(dispute)
        hands = await _hands(g)
    assert status == 200 and body["viewer"] == "staff" and body["seat"] is None
    dealt = [s for s in body["steps"] if s["view"] is not None]
    assert dealt and dealt[0]["events"][-1]["type"] == "RoundDealt"
    for s in dealt:  # every hand, at every step, from the first deal on
        assert [sorted(h) for h in s["view"]["hands"]] == [sorted(h) for h in hands[s["seq"]]]
    assert len(dealt[0]["events"][-1]["hands"]) == 2 and "seed" in dealt[0]["events"][-1]
    assert plain["viewer"] == "spectator" and "hands" not in _keys(plain)
    (looked,) = [ev for _, ev in table_looks]
    assert (looked.looked.name, looked.looked.table_id) == ("Sol", TID) and looked.time.seconds > 0
    assert [ev.WhichOneof("body") for _, ev in dispute_events] == ["opened", "looked"]
    assert json.dumps(body).count('"hands"') >= len(dealt)


@contextlib.asynccontextmanager
async def live(nats_url: str, tmp_path: Path) -> AsyncIterator[tuple[Gateways, Client, str, str, str, int]]:
    """Ana (a guest) and Sol (staff) play classic32; Ana reports at move 3, and 3 moves more are played.
    Teo is staff too, not seated. Yields the gateways, Ana, Sol's and Teo's sessions, the dispute and its moment."""
    async with platform(nats_url, tmp_path) as g:
        ana = await g.client("Ana")
        sol, teo = await register(g, "Sol"), await register(g, "Teo")
        for name in ("Sol", "Teo"):
            assert (await set_staff(g.platform.client, name, True)).account.staff
        who = [identity_of(ana.token), (await call(g, "GET", "/api/me", session=sol))[1]["identity"]]
        p, rng = g.platform, random.Random(3)
        created = await p.send(TID, who[0], create=table_pb2.CreateTable(ruleset="classic32", seats=2), name="Ana")
        await p.send(TID, who[1], join=table_pb2.JoinTable(invitation=created.done.invitation), name="Sol")
        await p.send(TID, who[0], start=table_pb2.StartMatch())
        for _ in range(3):
            await _act(g, who, rng)
        status, reported = await ana.post(f"/api/tables/{TID}/disputes", {"text": "Ele tinha o 7?"})
        assert status == 201, reported
        for _ in range(3):
            t = await _act(g, who, rng)
        assert t.match is not None and not t.match.round_over
        yield g, ana, sol, teo, str(reported["dispute_id"]), int(reported["table_seq"])


async def _looks(g: Gateways, *subjects: str) -> list[str]:
    store = DisputeStore(g.platform.client.jetstream())
    return [ev.WhichOneof("body") or "" for s in subjects for _, ev in await store.events(s)]


async def test_staff_seated_at_a_table_get_their_seats_view_like_anyone(nats_url: str, tmp_path: Path) -> None:
    async with live(nats_url, tmp_path) as (g, _, sol, _, dispute, _):
        status, body, _ = await call(g, "GET", f"/api/tables/{TID}/replay", session=sol)
        _, from_dispute, _ = await call(g, "GET", f"/api/tables/{TID}/replay?relato={dispute}", session=sol)
        desk = await call(g, "GET", f"/api/staff/disputes/{dispute}", session=sol)
        hands = await _hands(g)
        looks = await _looks(g, looks_subject(TID), dispute)
    for seen in (body, from_dispute):
        assert seen["viewer"] == "seat" and seen["seat"] == 1 and "hands" not in _keys(seen)
        for s in seen["steps"]:
            if s["view"] is not None:
                assert not _strings(s) & set(hands[s["seq"]][0])  # not one of Ana's cards
    assert status == 200 and (desk[0], desk[1]["error"]["code"]) == (403, "staff_seated")
    assert looks == ["opened"]  # no look: nothing was seen in full


async def test_staff_see_a_table_being_played_as_a_spectator_unless_from_a_report(nats_url: str,
                                                                                  tmp_path: Path) -> None:
    async with live(nats_url, tmp_path) as (g, _, _, teo, dispute, _):
        status, body, _ = await call(g, "GET", f"/api/tables/{TID}/replay", session=teo)
        looks = await _looks(g, looks_subject(TID), dispute)
    assert status == 200 and body["viewer"] == "spectator" and body["full_until"] is None
    assert "hands" not in _keys(body) and "hand" not in _keys(body)
    assert looks == ["opened"]


async def test_staff_from_a_report_see_every_hand_up_to_its_moment_only(nats_url: str, tmp_path: Path) -> None:
    async with live(nats_url, tmp_path) as (g, _, _, teo, dispute, moment):
        status, body, _ = await call(g, "GET", f"/api/tables/{TID}/replay?relato={dispute}", session=teo)
        hands = await _hands(g)
        looks = await _looks(g, looks_subject(TID), dispute)
    assert status == 200 and body["viewer"] == "staff" and body["full_until"] == moment
    dealt = [s for s in body["steps"] if s["view"] is not None]
    before = [s for s in dealt if s["seq"] <= moment]
    after = [s for s in dealt if s["seq"] > moment]
    assert before and len(after) == 3
    for s in before:
        assert [sorted(h) for h in s["view"]["hands"]] == [sorted(h) for h in hands[s["seq"]]]
    for s in after:  # past the moment, as anyone watching
        assert "hands" not in _keys(s) and not _strings(s) & {c for h in hands[s["seq"]] for c in h}
    assert looks == ["opened", "looked"]  # recorded on the dispute


async def test_a_tables_replay_is_made_once_for_every_spectator_and_kept_at_its_sequence(nats_url: str,
                                                                                        tmp_path: Path) -> None:
    async with finished(nats_url, tmp_path) as (g, ana, _, _):
        gil, lia = await g.client("Gil"), await g.client("Lia")
        _, first = await gil.get(f"/api/tables/{TID}/replay")
        _, second = await lia.get(f"/api/tables/{TID}/replay")
        await ana.get(f"/api/tables/{TID}/replay")
        last = await g.platform.last_seq(TID)
        cache = g.apps[0][CACHE_KEY]
        kept = cache.cached(TID, last, "spectator")
    assert first == second and kept is not None and json.loads(kept.raw) == first
    assert sorted(kind for table, kind in cache.bodies if table == TID) == [f"own:{identity_of(ana.token)}",
                                                                              "spectator"]
