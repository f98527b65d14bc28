"""Disputes through the gateway (real NATS, the accounts and table services, the projector): a report keeps
the table's moment, only staff list, look at and close disputes, every look is recorded, and the reporter
reads the staff's note. Upholding may annul the match at the table service, which only staff may do."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from maumau.v1 import table_pb2
from services.accounts.staff import set_staff
from services.accounts.store import STREAM as ACCOUNTS
from services.disputes.store import STREAM as DISPUTES
from services.disputes.store import DisputeStore
from services.eventlog.sql import engine
from services.readmodels.accounts.projector import AccountsProjector
from services.readmodels.disputes.projector import DisputesProjector
from services.readmodels.tables.projector import Projector
from services.table.store import STREAM as TABLES
from tests.gateway.harness import Gateways
from tests.gateway.test_accounts import call, platform, register
from tests.service_task import project_to_end


@dataclass
class Desk:
    g: Gateways
    tmp_path: Path
    ana: str  # the reporter's session cookie
    sol: str  # a staff account's
    bia: str  # another player's (not staff)
    table_id: str

    async def project(self) -> None:
        db = engine(f"sqlite+aiosqlite:///{self.tmp_path}/gw.db")
        js = self.g.platform.client.jetstream()
        try:
            await project_to_end(Projector(js, db), js, TABLES)
            await project_to_end(AccountsProjector(js, db), js, ACCOUNTS)
            await project_to_end(DisputesProjector(js, db), js, DISPUTES)
        finally:
            await db.dispose()

    async def report(self, text: str = "Ele não tinha o 7!") -> dict[str, object]:
        status, body, _ = await call(self.g, "POST", f"/api/tables/{self.table_id}/disputes", {"text": text},
                                     session=self.ana)
        assert status == 201, body
        return body


@contextlib.asynccontextmanager
async def desk(nats_url: str, tmp_path: Path) -> AsyncIterator[Desk]:
    """Ana and Bia (accounts) finish a match of classic52 (Bia gives up); Sol is staff."""
    async with platform(nats_url, tmp_path) as g:
        ana, bia, sol = await register(g, "Ana"), await register(g, "Bia"), await register(g, "Sol")
        assert (await set_staff(g.platform.client, "Sol", True)).account.staff
        who = [(await call(g, "GET", "/api/me", session=s))[1]["identity"] for s in (ana, bia)]
        p = g.platform
        created = await p.send("dt1", who[0], create=table_pb2.CreateTable(ruleset="classic52", seats=2), name="Ana")
        await p.send("dt1", who[1], join=table_pb2.JoinTable(invitation=created.done.invitation), name="Bia")
        await p.send("dt1", who[0], start=table_pb2.StartMatch())
        await p.send("dt1", who[1], give_up=table_pb2.GiveUp())
        yield Desk(g, tmp_path, ana, sol, bia, "dt1")


async def test_a_report_keeps_the_tables_moment_and_its_reporter_sees_it(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        last = await d.g.platform.last_seq(d.table_id)
        body = await d.report("  Ele não tinha o 7!  ")
        empty = await call(d.g, "POST", f"/api/tables/{d.table_id}/disputes", {"text": " "}, session=d.ana)
        long = await call(d.g, "POST", f"/api/tables/{d.table_id}/disputes", {"text": "x" * 501}, session=d.ana)
        unknown = await call(d.g, "POST", "/api/tables/nope/disputes", {"text": "?"}, session=d.ana)
        stored = await DisputeStore(d.g.platform.client.jetstream()).events(str(body["dispute_id"]))
        await d.project()
        _, mine, _ = await call(d.g, "GET", "/api/disputes/mine", session=d.ana)
    ((_, opened),) = stored
    assert body["table_seq"] == last and body["match_no"] == 1
    assert opened.WhichOneof("body") == "opened" and opened.opened.table_seq == last
    assert (opened.opened.table_id, opened.opened.seat, opened.opened.text) == (d.table_id, 0, "Ele não tinha o 7!")
    assert (empty[0], long[0], unknown[0]) == (400, 400, 404)
    assert [(m["text"], m["status"], m["table_seq"]) for m in mine["disputes"]] == [
        ("Ele não tinha o 7!", "open", last)]


async def test_someone_who_never_sat_at_the_table_cannot_report_on_it(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        guest = await d.g.client("Gil")  # never seated: watching, or not even that
        status, body = await guest.post(f"/api/tables/{d.table_id}/disputes", {"text": "travou"})
        rui = await register(d.g, "Rui")
        account = await call(d.g, "POST", f"/api/tables/{d.table_id}/disputes", {"text": "?"}, session=rui)
        stored = await d.g.platform.client.jetstream().stream_info(DISPUTES)
    assert (status, body["error"]["code"]) == (403, "not_at_table")
    assert (account[0], account[1]["error"]["code"]) == (403, "not_at_table")
    assert stored.state.messages == 0  # nothing reported


async def test_the_creator_watching_the_bots_it_seated_may_report(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        host = await d.g.client("Lia")
        _, created = await host.post("/api/tables", {"ruleset": "classic32", "seats": 2, "watch": True})
        table = created["table_id"]
        await host.post(f"/api/tables/{table}/bots")
        status, body = await host.post(f"/api/tables/{table}/disputes", {"text": "o robô jogou duas vezes"})
    assert status == 201 and body["table_id"] == table


async def test_only_staff_list_look_at_and_close_disputes(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        dispute = (await d.report())["dispute_id"]
        await d.project()
        guest = await d.g.client("Gil")
        refused = [
            (await call(d.g, "GET", "/api/staff/disputes", session=d.bia))[0],
            (await call(d.g, "GET", f"/api/staff/disputes/{dispute}", session=d.ana))[0],
            (await call(d.g, "POST", f"/api/staff/disputes/{dispute}/close", {"verdict": "dismissed", "note": "n"},
                        session=d.bia))[0],
            (await guest.get("/api/staff/disputes"))[0],
        ]
        status, listed, _ = await call(d.g, "GET", "/api/staff/disputes", session=d.sol)
        _, me, _ = await call(d.g, "GET", "/api/me", session=d.sol)
        _, not_me, _ = await call(d.g, "GET", "/api/me", session=d.bia)
    assert refused == [403, 403, 403, 403]
    assert status == 200 and [x["dispute_id"] for x in listed["disputes"]] == [dispute]
    assert me["staff"] is True and not_me["staff"] is False


async def test_a_staff_look_shows_the_verified_record_in_full_and_is_recorded(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        dispute = (await d.report())["dispute_id"]
        status, seen, _ = await call(d.g, "GET", f"/api/staff/disputes/{dispute}", session=d.sol)
        await call(d.g, "GET", f"/api/staff/disputes/{dispute}", session=d.sol)
        stored = await DisputeStore(d.g.platform.client.jetstream()).events(str(dispute))
    assert status == 200 and seen["verification"]["ok"] is True and seen["verification"]["text"].startswith("ok: ")
    assert seen["players"] == ["Ana", "Bia"] and seen["dispute"]["status"] == "open"
    dealt = next(s for s in seen["steps"] if s["event"]["type"] == "RoundDealt")
    assert len(dealt["event"]["hands"]) == 2 and "Bia:" in dealt["text"]  # staff see every hand
    assert seen["steps"][-1]["event"]["type"] == "MatchEnded" and not seen["steps"][-1]["after"]
    looks = [ev for _, ev in stored if ev.WhichOneof("body") == "looked"]
    assert [(ev.looked.name, ev.looked.table_id) for ev in looks] == [("Sol", d.table_id)] * 2
    assert all(ev.time.seconds > 0 for ev in looks)


async def test_staff_close_a_dispute_with_a_note_the_reporter_reads(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        dispute = (await d.report())["dispute_id"]
        path = f"/api/staff/disputes/{dispute}/close"
        bad = await call(d.g, "POST", path, {"verdict": "maybe", "note": "?"}, session=d.sol)
        status, closed, _ = await call(d.g, "POST", path, {"verdict": "dismissed", "note": "O registro confere."},
                                       session=d.sol)
        twice = await call(d.g, "POST", path, {"verdict": "upheld", "note": "!"}, session=d.sol)
        await d.project()
        _, mine, _ = await call(d.g, "GET", "/api/disputes/mine", session=d.ana)
        _, still_open, _ = await call(d.g, "GET", "/api/staff/disputes", session=d.sol)
        _, closed_list, _ = await call(d.g, "GET", "/api/staff/disputes?status=closed", session=d.sol)
        bad_status = await call(d.g, "GET", "/api/staff/disputes?status=maybe", session=d.sol)
    assert bad[0] == 400 and status == 200 and closed["dispute"]["verdict"] == "dismissed"
    assert twice[0] == 409 and twice[1]["error"]["code"] == "dispute_closed"
    (m,) = mine["disputes"]
    assert (m["status"], m["verdict"], m["note"]) == ("closed", "dismissed", "O registro confere.")
    assert m["annulled"] is False
    assert still_open["disputes"] == [] and bad_status[0] == 400
    assert [(x["dispute_id"], x["verdict"], x["closed_by"]) for x in closed_list["disputes"]] == [
        (dispute, "dismissed", "Sol")]


async def test_upholding_annuls_the_match_and_the_ranking_forgets_it(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        dispute = (await d.report())["dispute_id"]
        await d.project()
        _, before, _ = await call(d.g, "GET", "/api/players/Ana")
        status, closed, _ = await call(d.g, "POST", f"/api/staff/disputes/{dispute}/close",
                                       {"verdict": "upheld", "note": "Partida anulada.", "annul": True}, session=d.sol)
        t = await d.g.platform.table(d.table_id)
        await d.project()
        _, after, _ = await call(d.g, "GET", "/api/players/Ana")
        _, mine, _ = await call(d.g, "GET", "/api/disputes/mine", session=d.ana)
    assert before["statistics"][0]["wins"] == 1
    assert status == 200 and closed["dispute"]["annulled"] is True and t.annulled == {1}
    assert after["statistics"][0]["played"] == 0 and after["statistics"][0]["wins"] == 0
    assert after["history"][0]["annulled"] is True
    assert mine["disputes"][0]["note"] == "Partida anulada." and mine["disputes"][0]["annulled"] is True


async def test_the_table_service_annuls_only_for_staff(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        p = d.g.platform
        annul = table_pb2.AnnulMatch(match_no=1, dispute_id="d1")
        player = await p.send(d.table_id, "someone", annul=annul)
        unknown_match = await p.send(d.table_id, "staff", annul=table_pb2.AnnulMatch(match_no=2), actor_staff=True)
        staff = await p.send(d.table_id, "staff", annul=annul, actor_staff=True)
        again = await p.send(d.table_id, "staff", annul=annul, actor_staff=True)
        stored = (await p.store.read(d.table_id))[-1].batch.events
    codes = (player.refusal.code, unknown_match.refusal.code, again.refusal.code)
    assert codes == ("not_staff", "bad_match", "annulled")
    assert staff.WhichOneof("result") == "done"
    assert [ev.match_annulled for ev in stored] == [table_pb2.MatchAnnulled(match_no=1, dispute_id="d1")]


async def test_the_desk_lists_every_staff_look_with_who_when_and_where(nats_url: str, tmp_path: Path) -> None:
    async with desk(nats_url, tmp_path) as d:
        dispute = (await d.report())["dispute_id"]
        replayed = await call(d.g, "GET", f"/api/tables/{d.table_id}/replay", session=d.sol)  # a table over
        await call(d.g, "GET", f"/api/staff/disputes/{dispute}", session=d.sol)
        await d.project()
        status, listed, _ = await call(d.g, "GET", "/api/staff/looks", session=d.sol)
        refused = await call(d.g, "GET", "/api/staff/looks", session=d.bia)
    assert replayed[0] == 200 and replayed[1]["viewer"] == "staff"
    assert status == 200 and [(x["name"], x["table_id"], x["dispute_id"]) for x in listed["looks"]] == [
        ("Sol", d.table_id, dispute), ("Sol", d.table_id, None)]  # newest first
    assert all(x["at"].startswith("20") for x in listed["looks"]) and refused[0] == 403
