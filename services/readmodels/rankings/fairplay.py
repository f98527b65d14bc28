"""Fair play: which competitive matches settle for their stake, and the marks the staff's desk lists.

Two friends could hand each other XP and chips by giving up at once, again and again (the
daily top-up refills the loser). So a match played for a stake settles for nothing (every
stake back, no XP) when

* it was **given up before ``MIN_MOVES`` moves**: no round can be played out in fewer, so a
  give-up that early is no contest (the smallest hand is 5 cards and a move puts down at most
  two, an Ace with company or a double: the winner alone needs 3 moves); or
* one of its winners has **earned from one of its losers, that day**, ``PAIR_XP_PER_DAY`` XP
  or ``PAIR_CHIPS_PER_DAY`` chips already (days in the platform's time zone, as the rankings'):
  a farm runs one way, so each direction of a pair has its own bound, and friends who beat
  each other in turn keep playing for something.

Each such match is marked for the staff (``fair_play_marks``, listed on the desk beside the
disputes). Decided by the projector in stream order (``Standings``): a rebuild decides the same.

>>> earned([{"identity": "a", "won": True, "xp": 20, "bot": False},
...         {"identity": "b", "won": False, "xp": -10, "bot": False}], stake=100)
[('a', 'b', 20, 100)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import JSON, Column, DateTime, Integer, String, Table, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection

from services.eventlog.sql import metadata
from services.readmodels.rankings.periods import Period, keys, utc
from services.table import domain

MIN_MOVES = 3
PAIR_XP_PER_DAY = 60  # three wins at a table of two
PAIR_CHIPS_PER_DAY = 500  # half the opening balance: a loser's daily top-up is not handed over whole

pair_earnings = Table(
    "pair_earnings", metadata,
    Column("day", String(10), primary_key=True),
    Column("earner", String(64), primary_key=True),
    Column("payer", String(64), primary_key=True),
    Column("xp", Integer, nullable=False),
    Column("chips", Integer, nullable=False),
)

marks = Table(
    "fair_play_marks", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("reason", String(16), nullable=False),  # short_give_up, pair_bound
    Column("players", JSON, nullable=False),  # the names seated, as they were
    Column("ended_at", DateTime(timezone=True), nullable=False, index=True),
)


def short_give_up(t: domain.Table) -> bool:
    """Whether the match that just ended at ``t`` was given up before ``MIN_MOVES`` moves."""
    return t.end_reason == "gave_up" and t.moves < MIN_MOVES


def earned(seats: list[dict[str, Any]], stake: int) -> list[tuple[str, str, int, int]]:
    """(earner, payer, XP, chips) of each winner and loser of a settled match: a winner's XP shared
    among the losers, a loser's stake among the winners."""
    won = [s for s in seats if s["won"] and not s["bot"]]
    lost = [s for s in seats if not s["won"] and not s["bot"]]
    return [(w["identity"], p["identity"], w["xp"] // len(lost), stake // len(won)) for w in won for p in lost]


@dataclass
class Settlement:
    """A finished match played for a stake, its seats' rows as they would settle it (``seat_rows``)."""

    table_id: str
    match_no: int
    stake: int
    seats: list[dict[str, Any]]
    short: bool  # given up before MIN_MOVES
    void: bool = False  # settled for nothing (after ``decide``): no XP, no chips, and no win in the rankings

    async def decide(self, conn: AsyncConnection, tz: ZoneInfo, pairs: dict[tuple[str, str, str], list[int]]) -> None:
        """Settle for the stake, or for nothing (the seats' XP and chips set to 0, and a mark);
        ``pairs``: what the pairs earned, read and added to in this transaction."""
        day = keys(utc(self.seats[0]["ended_at"]), tz)[Period.TODAY]
        owed = [] if self.short else earned(self.seats, self.stake)
        await _read(conn, pairs, [(day, e, p) for e, p, _, _ in owed])
        reason = "short_give_up" if self.short else "pair_bound" if any(
            pairs[day, e, p][0] >= PAIR_XP_PER_DAY or pairs[day, e, p][1] >= PAIR_CHIPS_PER_DAY
            for e, p, _, _ in owed) else ""
        if not reason:
            for e, p, xp, chips in owed:
                pairs[day, e, p][0] += xp
                pairs[day, e, p][1] += chips
            return
        self.void = True
        for s in self.seats:
            s["xp"] = s["chips"] = 0
        await conn.execute(marks.insert().values(table_id=self.table_id, match_no=self.match_no, reason=reason,
                                                 players=[s["name"] for s in self.seats],
                                                 ended_at=self.seats[0]["ended_at"]))

    @property
    def settled(self) -> bool:
        """Whether it settled for its stake (after ``decide``): some seat won or lost chips."""
        return any(s["chips"] for s in self.seats)


async def _read(conn: AsyncConnection, pairs: dict[tuple[str, str, str], list[int]],
                wanted: list[tuple[str, str, str]]) -> None:
    """Bring the stored earnings of the ``wanted`` (day, earner, payer) not yet in ``pairs``."""
    missing = [k for k in wanted if k not in pairs]
    if not missing:
        return
    key = tuple_(pair_earnings.c.day, pair_earnings.c.earner, pair_earnings.c.payer)
    for r in (await conn.execute(select(pair_earnings).where(key.in_(missing)))).all():
        pairs[r.day, r.earner, r.payer] = [r.xp, r.chips]
    for k in missing:
        pairs.setdefault(k, [0, 0])


async def write_pairs(conn: AsyncConnection, pairs: dict[tuple[str, str, str], list[int]]) -> None:
    """Store what the pairs have earned (every pair read in the transaction: some unchanged, some
    still at nothing, as their matches settled for nothing: those get no row)."""
    rows = [{"day": d, "earner": e, "payer": p, "xp": xp, "chips": chips}
            for (d, e, p), (xp, chips) in pairs.items() if xp or chips]
    if not rows:
        return
    key = tuple_(pair_earnings.c.day, pair_earnings.c.earner, pair_earnings.c.payer)
    await conn.execute(pair_earnings.delete().where(key.in_([(r["day"], r["earner"], r["payer"]) for r in rows])))
    await conn.execute(pair_earnings.insert(), rows)


async def marked(conn: AsyncConnection, table_id: str, match_no: int) -> bool:
    """Whether fair play settled this match for nothing."""
    return (await conn.execute(select(marks.c.reason).where(
        marks.c.table_id == table_id, marks.c.match_no == match_no))).first() is not None


async def latest(conn: AsyncConnection, size: int = 50) -> list[dict[str, Any]]:
    """The newest marks, for the staff's desk."""
    rows = (await conn.execute(select(marks).order_by(marks.c.ended_at.desc(), marks.c.table_id).limit(size))).all()
    return [{"table_id": r.table_id, "match_no": r.match_no, "reason": r.reason, "players": r.players,
             "ended_at": utc(r.ended_at).isoformat()} for r in rows]
