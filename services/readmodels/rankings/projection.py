"""What matches write to the rankings: one row per seat (history), the people's totals per period,
and the chips of competitive matches.

Written by the tables' projector in the transaction that projects the batches (a ``Standings``
per transaction: ``services/readmodels/tables/projector.py``), so a replayed or redelivered stream writes
nothing twice. Totals are kept per ruleset, category, period and identity, added to as matches
end: a ranking reads one period's rows in the order of an index, never the matches
(docs/rankings.md). Bots have seats in the history (people play against them) but no totals.
Chips move in stream order: the stakes when a competitive match starts, the pot when it ends
(or every stake back, when fair play settles it for nothing: ``fairplay.py``); the seats of
competitive lobbies hold their stakes meanwhile (``reservations.py``).
A match staff annul (``MatchAnnulled``, docs/disputes.md) leaves it all again: its seats' played,
wins and XP are taken from the totals of the periods of its end, and its chips go back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Boolean, Column, DateTime, Index, Integer, String, Table, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from maumau.v1 import events_pb2
from services.eventlog.sql import metadata
from services.readmodels.rankings import fairplay, reservations
from services.readmodels.rankings.fairplay import Settlement
from services.readmodels.rankings.outcome import OPENING_CHIPS, XP_PENALTY, balance_on, outcome
from services.readmodels.rankings.periods import Period, keys, utc
from services.table import domain
from services.table.domain import finished

seats_played = Table(
    "match_seats", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("identity", String(64), nullable=False),
    Column("name", String(64), nullable=False),  # as seated: a later rename shows in profiles, not in old matches
    Column("bot", Boolean, nullable=False),
    Column("ruleset", String(16), nullable=False),
    Column("category", String(16), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),  # this seat gave up, or its absence ended the match
    Column("end_reason", String(16), nullable=False),  # played, gave_up, absence, expired
    Column("ended_at", DateTime(timezone=True), nullable=False),
    Column("xp", Integer, nullable=False),
    Column("chips", Integer, nullable=False),  # won or lost, the stake included
    Column("annulled", Boolean, nullable=False, default=False),  # by staff: no longer in the totals nor the chips
    Index("ix_match_seats_identity", "identity", "ended_at"),
)

totals = Table(
    "ranking_totals", metadata,
    Column("ruleset", String(16), primary_key=True),
    Column("category", String(16), primary_key=True),
    Column("period", String(8), primary_key=True),
    Column("period_key", String(16), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("played", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("xp", Integer, nullable=False),
    Index("ix_ranking_totals_wins", "ruleset", "category", "period", "period_key", "wins", "identity"),
    Index("ix_ranking_totals_xp", "ruleset", "category", "period", "period_key", "xp", "identity"),
    Index("ix_ranking_totals_identity", "identity", "period"),
)

chip_moves = Table(
    "chip_moves", metadata,
    Column("identity", String(64), primary_key=True),
    Column("table_id", String(64), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("kind", String(8), primary_key=True),  # topup, stake, pot, refund, annul
    Column("amount", Integer, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

chip_balances = Table(
    "chip_balances", metadata,
    Column("identity", String(64), primary_key=True),
    Column("balance", Integer, nullable=False),
    Column("changed_on", String(10), nullable=False),  # the last day (a day key) its chips moved
)

TOTALS_KEY = ("ruleset", "category", "period", "period_key", "identity")


def seat_rows(t: domain.Table, when: datetime) -> list[dict[str, Any]]:
    """The seats of the match that just ended at ``t``, as its history and totals keep them."""
    winners = set(t.winners)
    results = outcome(len(t.players), t.winners, t.match_stake)
    return [{"table_id": t.table_id, "match_no": t.match_no, "seat": i, "identity": p.identity, "name": p.name,
             "bot": p.bot, "ruleset": t.ruleset, "category": t.category, "won": i in winners,
             "left": i == t.ended_by and t.end_reason in ("gave_up", "absence"),
             "end_reason": t.end_reason or "played", "ended_at": when, "xp": xp, "chips": chips}
            for i, (p, (xp, chips)) in enumerate(zip(t.players, results, strict=True))]


Gains = dict[tuple[str, ...], list[int]]  # a totals key (TOTALS_KEY's order) -> [played, wins, xp]


def add_gains(gained: Gains, seats: Sequence[dict[str, Any]], tz: ZoneInfo, sign: int = 1) -> Gains:
    """Add to ``gained`` what the people's totals gain from these seats (``sign`` -1: lose), per identity and period."""
    ended: datetime | None = None
    periods: tuple[tuple[Period, str], ...] = ()
    for s in seats:
        if s["bot"]:
            continue
        played, won, xp = sign * s.get("played", 1), sign * int(s["won"]), sign * s["xp"]
        ruleset, category, identity = s["ruleset"], s["category"], s["identity"]
        if s["ended_at"] is not ended:  # a match's seats come together: its periods found once
            ended, periods = s["ended_at"], tuple(keys(s["ended_at"], tz).items())
        for period, key in periods:  # a bulk load sums millions: one lookup each
            row = gained.get(k := (ruleset, category, period, key, identity))
            if row is None:
                gained[k] = [played, won, xp]
            else:
                row[0] += played
                row[1] += won
                row[2] += xp
    return gained


def gains_rows(gained: Gains) -> list[dict[str, Any]]:
    """The totals' rows of summed gains."""
    return [dict(zip(TOTALS_KEY, k, strict=True)) | {"played": p, "wins": w, "xp": x}
            for k, (p, w, x) in gained.items()]


def total_rows(seats: Sequence[dict[str, Any]], tz: ZoneInfo, sign: int = 1) -> list[dict[str, Any]]:
    """What the people's totals gain from these seats (``sign`` -1: lose), one row per identity and period."""
    return gains_rows(add_gains({}, seats, tz, sign))


async def add_to_totals(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """Add played and won matches and XP to the totals (a row made on the first, added to after)."""
    if not rows:
        return
    insert = (sqlite_insert if conn.dialect.name == "sqlite" else postgresql_insert)(totals)
    await conn.execute(insert.on_conflict_do_update(
        index_elements=list(TOTALS_KEY),
        set_={"played": totals.c.played + insert.excluded.played, "wins": totals.c.wins + insert.excluded.wins,
              "xp": totals.c.xp + insert.excluded.xp}), rows)


@dataclass
class ChipMove:
    identity: str
    table_id: str
    match_no: int
    kind: str
    amount: int
    at: datetime


@dataclass
class Annulment:
    """Staff annulled a match: where its chips go back, in stream order among the other moves."""

    table_id: str
    match_no: int
    at: datetime


@dataclass
class Standings:
    """What one transaction's batches do to the rankings and the chips, gathered as they are folded."""

    seats: list[dict[str, Any]] = field(default_factory=list)
    moves: list[ChipMove | Annulment | Settlement] = field(default_factory=list)
    penalties: list[tuple[str, int, int]] = field(default_factory=list)  # table, match, seat
    held: dict[str, list[dict[str, object]]] = field(default_factory=dict)  # table: its lobby's reservations now

    def observe(self, t: domain.Table, batch: events_pb2.EventBatch, was_over: bool, when: datetime) -> None:
        """Note what the batch just folded into ``t`` changed (``was_over``: whether its match had ended)."""
        bodies = {ev.WhichOneof("body") for ev in batch.events}
        people = [p for p in t.players if not p.bot]
        if "match_started" in bodies and t.match_stake:
            self.moves += [ChipMove(p.identity, t.table_id, t.match_no, "stake", -t.match_stake, when) for p in people]
        if t.stake and bodies & reservations.SEATING:
            self.held[t.table_id] = reservations.held(t)
        if finished(t, was_over):
            seats = seat_rows(t, when)
            self.seats += seats
            if t.match_stake:
                self.moves.append(Settlement(t.table_id, t.match_no, t.match_stake, seats, fairplay.short_give_up(t)))
        if "leaver_penalised" in bodies:
            self.penalties.append((t.table_id, t.match_no, t.ended_by))
        self.moves += [Annulment(t.table_id, ev.match_annulled.match_no, when)
                       for ev in batch.events if ev.WhichOneof("body") == "match_annulled"]

    async def write(self, conn: AsyncConnection, tz: ZoneInfo) -> None:
        pairs: dict[tuple[str, str, str], list[int]] = {}
        for m in self.moves:  # fair play first, in stream order: the seats' rows settle as it decides
            if isinstance(m, Settlement):
                await m.decide(conn, tz, pairs)
        await fairplay.write_pairs(conn, pairs)
        await reservations.write(conn, self.held)
        if self.seats:
            await conn.execute(seats_played.insert(), self.seats)
            void = {(m.table_id, m.match_no) for m in self.moves if isinstance(m, Settlement) and m.void}
            await add_to_totals(conn, total_rows([_unwon(s) if (s["table_id"], s["match_no"]) in void else s
                                                  for s in self.seats], tz))
        for table_id, match_no, seat in self.penalties:
            await _penalise(conn, table_id, match_no, seat, tz)
        moves: list[ChipMove] = []
        for m in self.moves:  # an annulment's moves where it stands in the stream
            if isinstance(m, Settlement):
                moves += _settled(m)
            else:
                moves += await _annul(conn, m, tz) if isinstance(m, Annulment) else [m]
        if moves:
            await _move_chips(conn, moves, tz)


async def record(conn: AsyncConnection, seats: Sequence[dict[str, Any]], tz: ZoneInfo) -> None:
    """Write the seats of matches that just ended (``seat_rows``), and add them to the totals."""
    await Standings(seats=list(seats)).write(conn, tz)


def _unwon(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat of a match settled for nothing, as the totals count it: played, not won (its history keeps
    who won: the table's record says so)."""
    return seat | {"won": False}


def _settled(m: Settlement) -> list[ChipMove]:
    """The chips a finished match gives back: the pot to its winners, or (no winner, or fair play
    settled it for nothing) every stake to its seat."""
    kind = "pot" if m.settled else "refund"
    return [ChipMove(s["identity"], m.table_id, m.match_no, kind, s["chips"] + m.stake, s["ended_at"])
            for s in m.seats if s["chips"] + m.stake]


async def _penalise(conn: AsyncConnection, table_id: str, match_no: int, seat: int, tz: ZoneInfo) -> None:
    """The one who left loses the penalty's XP, in the periods of the match's end (not when the
    match settled for nothing: no XP changed hands in it)."""
    where = (seats_played.c.table_id == table_id, seats_played.c.match_no == match_no, seats_played.c.seat == seat)
    row = (await conn.execute(select(seats_played).where(*where))).first()
    if row is None or row.annulled or await fairplay.marked(conn, table_id, match_no):
        return
    await conn.execute(seats_played.update().where(*where).values(xp=seats_played.c.xp - XP_PENALTY))
    penalty = dict(row._mapping) | {"played": 0, "won": False, "xp": -XP_PENALTY, "ended_at": utc(row.ended_at)}
    await add_to_totals(conn, total_rows([penalty], tz))


async def _annul(conn: AsyncConnection, a: Annulment, tz: ZoneInfo) -> list[ChipMove]:
    """Take an annulled match out of the totals (in the periods of its end) and mark its seats; the chip
    moves that give each seat its net chips back (``annul``)."""
    where = (seats_played.c.table_id == a.table_id, seats_played.c.match_no == a.match_no,
             seats_played.c.annulled.is_(False))
    rows = [dict(r._mapping) | {"ended_at": utc(r.ended_at)}
            for r in (await conn.execute(select(seats_played).where(*where))).all()]
    if not rows:
        return []
    if await fairplay.marked(conn, a.table_id, a.match_no):  # its wins never counted
        rows = [_unwon(r) for r in rows]
    await add_to_totals(conn, total_rows(rows, tz, sign=-1))
    await conn.execute(seats_played.update().where(*where).values(annulled=True))
    return [ChipMove(r["identity"], a.table_id, a.match_no, "annul", -r["chips"], a.at)
            for r in rows if r["chips"] and not r["bot"]]


async def _move_chips(conn: AsyncConnection, moves: list[ChipMove], tz: ZoneInfo) -> None:
    """Write the moves in their order, topping up a poorer account on the first stake of a new day."""
    who = {m.identity for m in moves}
    known = {r.identity: (r.balance, r.changed_on) for r in (await conn.execute(
        select(chip_balances).where(chip_balances.c.identity.in_(who)))).all()}
    balances = dict(known)
    written: list[dict[str, Any]] = []
    for m in moves:
        balance, changed = balances.get(m.identity, (OPENING_CHIPS, ""))
        day = keys(m.at, tz)[Period.TODAY]
        if m.kind == "stake" and balance_on(balance, changed, day) != balance:
            written.append(vars(ChipMove(m.identity, m.table_id, m.match_no, "topup", OPENING_CHIPS - balance, m.at)))
            balance = OPENING_CHIPS
        written.append(vars(m))
        balances[m.identity] = (balance + m.amount, day)
    await conn.execute(chip_moves.insert(), written)
    for identity, (balance, changed) in balances.items():
        values = {"balance": balance, "changed_on": changed}
        if identity in known:
            await conn.execute(chip_balances.update().where(chip_balances.c.identity == identity).values(values))
        else:
            await conn.execute(chip_balances.insert().values(identity=identity, **values))
