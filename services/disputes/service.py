"""The disputes' application service: a report, a staff look and a close, each decided on the dispute's own events.

It appends the DISPUTES stream's events itself (``store``), each with the dispute subject's
expected last sequence: no service process between, as nothing here needs one (each is one
event about one dispute, decided from that dispute's few events). Whoever calls it (the
gateway's HTTP routes) says who asks — a staff account is read from its own stream there — and
turns a ``Refused`` into its answer; the connection's errors pass through unchanged.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from typing import Any

from nats.aio.client import Client as NATS

from maumau.v1 import table_pb2
from services.accounts.domain import Account
from services.disputes import desk, domain
from services.disputes.domain import Dispute
from services.disputes.store import DisputeStore
from services.eventlog.repository import fold_stream
from services.eventlog.store import Conflict
from services.record.verify import verify
from services.runtime.refusals import Code, Refused
from services.table.client import send
from services.table.domain import Status as TableStatus
from services.table.repository import Tables
from services.table.store import EventStore

TRIES = 3  # a close that met a look appended meanwhile decides again on the dispute as it is now


class AnnulRefused(Refused):
    """The table service refused to annul the disputed match (its own code and words)."""


class Changing(Exception):
    """The dispute kept changing under every try to close it."""


@dataclass
class Disputes:
    nc: NATS
    store: DisputeStore
    tables: Tables

    async def load(self, dispute_id: str) -> Dispute:
        """An existing dispute as its stream has it now, else ``Refused(Code.UNKNOWN_DISPUTE)``."""
        return domain.existing(await self.store.load(dispute_id))

    async def report(self, table_id: str, identity: str, name: str, text: str) -> tuple[str, int, int]:
        """"Reportar problema" at a table: the dispute opened; its id and the table's moment (sequence, match).

        Watching leaves no record, so anyone could claim to have watched: only a seat or the creation,
        which the table's record holds, lets one report (``not_at_table`` otherwise; docs/disputes.md).
        """
        t = await self.tables.get(table_id)
        if t.status == TableStatus.NONE:
            raise Refused(Code.UNKNOWN_TABLE, f"there is no table {table_id!r}")
        seat = t.seat_of(identity)
        if seat < 0 and identity != t.creator:  # a creator watching the bots it seated saw the whole match
            raise Refused(Code.NOT_AT_TABLE, "only someone seated at this table may report a problem with it")
        d = Dispute(uuid.uuid4().hex[:24])
        opened = domain.report(d, table_id, t.seq, t.match_no, identity, name, seat, text, now=time.time())
        await self.store.append(d.dispute_id, opened, 0, "opened")
        return d.dispute_id, t.seq, t.match_no

    async def look(self, dispute_id: str, staff: Account) -> dict[str, Any]:
        """A dispute on the staff's desk: the table's record verified, and its steps around the moment, in full.

        The look is recorded first (who, which table, when): nobody sees a table from here unrecorded.
        Staff seated at the table judge none of its disputes (``staff_seated``), and past the moment
        they see in full only a table that is over (docs/disputes.md, "What staff see").
        """
        d = await self.load(dispute_id)
        t = await self.tables.get(d.table_id)
        if t.seat_of(staff.identity) >= 0:
            raise Refused(Code.STAFF_SEATED, "staff seated at this table cannot look at its disputes")
        after = desk.AFTER if t.status in (TableStatus.OVER, TableStatus.ENDED) else 0
        await self.store.append(d.dispute_id, domain.look(d, staff.account_id, staff.name, now=time.time()), None,
                                uuid.uuid4().hex)
        records = await EventStore(self.nc.jetstream()).read(d.table_id)
        events = await self.store.events(d.dispute_id)
        verdict = await asyncio.to_thread(verify, d.table_id, records)  # the engine re-decides every action
        names = [p.name for p in (await self.tables.get(d.table_id, until=d.table_seq)).players]
        looks = [{"name": ev.looked.name, "at": ev.time.ToNanoseconds() / 1e9}
                 for _, ev in events if ev.WhichOneof("body") == "looked"]
        return {"dispute": d, "players": names, "verification": desk.verification(verdict),
                "steps": desk.steps(d.table_id, records, d.table_seq, after=after), "looks": looks}

    async def close(self, dispute_id: str, staff: Account, verdict: str, note: str, annul: bool) -> Dispute:
        """Close a dispute as dismissed or upheld, with a note the reporter sees; upheld, it may annul the match."""
        d = await self.load(dispute_id)
        for attempt in range(TRIES):
            closed = domain.close(d, verdict, note, staff.account_id, staff.name, annulled=annul, now=time.time())
            if annul and attempt == 0:
                await self._annul(staff, d)
            try:
                seq, _ = await self.store.append(d.dispute_id, closed, d.seq, f"closed/{staff.account_id}")
            except Conflict:  # another staff's close, or a look, came first: decide again on the dispute as it is
                d = await self.load(dispute_id)
                continue
            fold_stream(d, ((seq, (closed,)),), domain.evolve)
            return d
        raise Changing("the dispute keeps changing")

    async def _annul(self, staff: Account, d: Dispute) -> None:
        """Annul the disputed match at the table service, vouching that the actor is staff."""
        if d.match_no < 1:
            raise Refused(Code.NO_MATCH, "no match had started when this was reported")
        cmd = table_pb2.TableCommand(command_id=f"annul-{d.dispute_id}", table_id=d.table_id, actor=staff.identity,
                                     actor_name=staff.name, actor_staff=True,
                                     annul=table_pb2.AnnulMatch(match_no=d.match_no, dispute_id=d.dispute_id))
        reply = await send(self.nc, cmd)
        if reply.WhichOneof("result") == "refusal" and reply.refusal.code != Code.ANNULLED:  # annulled: so be it
            raise AnnulRefused(reply.refusal.code, reply.refusal.message)
