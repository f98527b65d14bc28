"""``maumau bench rankings``: the rankings' projection filled with N finished matches, then queried.

10,000 accounts (and 2,000 guests, who play but do not rank) play N matches of two to four
seats over the year before now, a third of them with a bot seated (training), half of the
others for a stake (competitive: XP changes hands). All but ``PROJECTED`` of them are loaded
first in bulk, the rows the projection would write (their seats, and every total summed once
over all of them), by the database's own bulk path (PostgreSQL's COPY, SQLite's executemany), so
that a million matches are set up in minutes; then the last ``PROJECTED`` are projected onto
them as the projector projects them (``record``, a transaction per 2,000 matches: the
projection's speed is measured there). Then ranking pages of every
ruleset, category and period, by wins and by XP (first pages mostly, deeper ones too) are read
as the gateway reads them. One JSON line: the matches, projected matches per second, the bulk
load's seconds and rows per second, ranking query p50/p99, and beside them what bounds them on this machine:
a round trip of ``SELECT 1`` through the same driver, and the seconds a 10-million-step Python
loop takes.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import json
import random
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from sqlalchemy import Index, event, func, select, text
from sqlalchemy import Table as SqlTable
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.sql.schema import ScalarElementColumnDefault

from services.eventlog.sql import engine
from services.readmodels.accounts.projection import accounts
from services.readmodels.rankings import queries
from services.readmodels.rankings.outcome import outcome
from services.readmodels.rankings.periods import Period, keys, zone
from services.readmodels.rankings.projection import (
    TOTALS_KEY,
    record,
    seat_rows,
    seats_played,
    totals,
)
from services.readmodels.schema import migrate
from services.rules.rulesets import RULESETS
from services.runtime.machine import loop_seconds
from services.table.domain import Category, Player, Status, Table

ACCOUNTS, GUESTS = 10_000, 2_000
PER_TRANSACTION = 2_000
RULESET_NAMES = sorted(RULESETS)
PROJECTED = 10_000  # matches through the projection's own path (5 transactions), after the rest in bulk
CHUNK = 50_000  # rows a bulk insert sends at once
YEAR = 365 * 86400


_FINISHED = Table("", status=Status.OVER, match_no=1)  # what every match of the run shares


class _Drawn(NamedTuple):
    """A match of the run as drawn: who sat (account or guest numbers; a bot last, if ``bot``), what it was."""

    n: int
    picked: list[int]
    bot: bool
    ruleset: str
    category: Category
    winner: int
    stake: int
    ended: datetime


def _drawn(seed: int, n: int, now: datetime) -> _Drawn:
    """Match ``n`` of the run: the same whichever path loads it, and in whatever order. Its draws plain floats
    (``sample`` and ``randint`` cost as much as the rest of the match)."""
    draw = random.Random(seed * 1_000_003 + n).random
    people, bot = 2 + int(draw() * 3), draw() < 1 / 3
    picked: list[int] = []
    while len(picked) < people - bot:
        if (i := int(draw() * (ACCOUNTS + GUESTS))) not in picked:
            picked.append(i)
    ruleset, winner = RULESET_NAMES[int(draw() * len(RULESET_NAMES))], int(draw() * people)
    stake = 50 if not bot and draw() < 0.5 else 0
    return _Drawn(n, picked, bot, ruleset, Category.TRAINING if bot else Category.OFFICIAL, winner, stake,
                  now - timedelta(seconds=draw() * YEAR))


def _identity(i: int) -> str:
    return f"a-{i}" if i < ACCOUNTS else f"g-{i}"


def _seated(m: _Drawn) -> list[tuple[str, str, bool]]:
    """Identity, name and whether a bot, seat by seat."""
    people = [(_identity(i), f"P{i}", False) for i in m.picked]
    return [*people, (f"bot:{m.n}", "Robô", True)] if m.bot else people


def _match(seed: int, n: int, now: datetime) -> tuple[Table, datetime]:
    """Match ``n`` of the run as the projection sees it end. Its table is a copy of ``_FINISHED`` (a third of the
    time of a new one: a table has 30 fields)."""
    m = _drawn(seed, n, now)
    players = [Player(identity, name, bot=bot) for identity, name, bot in _seated(m)]
    t = copy.copy(_FINISHED)
    t.table_id, t.players, t.ruleset = f"b{n}", players, m.ruleset
    t.category, t.winners, t.match_stake = m.category, [m.winner], m.stake
    return t, m.ended


SEAT_COLUMNS = ("table_id", "match_no", "seat", "identity", "name", "bot", "ruleset", "category", "won", "left",
                "end_reason", "ended_at", "xp", "chips")


def _seat_records(m: _Drawn) -> list[tuple[Any, ...]]:
    """The seats of a drawn match as ``seat_rows`` makes them (``SEAT_COLUMNS``), made straight from its draws: a
    match of the run is played to its end (no seat left it), and a table, players and a dict per seat cost
    twice the rest of a seat's making. Its category a plain string, as stored: the driver binds an enum's
    member through its adaptation protocol, three times a string's cost."""
    table_id, results = f"b{m.n}", outcome(len(m.picked) + m.bot, [m.winner], m.stake)
    return [(table_id, _FINISHED.match_no, seat, identity, name, bot, m.ruleset, m.category.value, seat == m.winner,
             False, "played", m.ended, xp, chips)
            for seat, ((identity, name, bot), (xp, chips)) in enumerate(zip(_seated(m), results, strict=True))]


Group = tuple[str, str, str, str]  # the totals' key but the identity: ruleset, category, period, period key


class _Totals:
    """The people's totals of drawn matches, summed as the projection sums them (``add_gains``) but grouped by
    their key but the identity: a match finds its five groups by its local day once, each seat then one lookup
    of its identity per group (a 5-tuple made and hashed per seat and period was most of a bulk load's Python),
    and the rows come out in the primary key's order sorting groups, then identities within each. Category and
    period plain strings, as stored (``_seat_records``)."""

    def __init__(self, tz: ZoneInfo) -> None:
        self.tz = tz
        self.groups: dict[Group, dict[str, list[int]]] = {}  # identity -> [played, wins, xp]
        self._of_day: dict[tuple[str, str, date], tuple[dict[str, list[int]], ...]] = {}

    def add(self, m: _Drawn) -> None:
        day = (m.ruleset, m.category, m.ended.astimezone(self.tz).date())
        if (groups := self._of_day.get(day)) is None:
            category = m.category.value
            groups = self._of_day[day] = tuple(self.groups.setdefault((m.ruleset, category, period.value, key), {})
                                               for period, key in keys(m.ended, self.tz).items())
        seats = len(m.picked) + m.bot
        # the people only: a bot, seated last, has no totals
        for seat, (i, (xp, _)) in enumerate(zip(m.picked, outcome(seats, [m.winner], m.stake), strict=False)):
            identity, won = _identity(i), int(seat == m.winner)
            for people in groups:
                if (row := people.get(identity)) is None:
                    people[identity] = [1, won, xp]
                else:
                    row[0] += 1
                    row[1] += won
                    row[2] += xp

    def in_key_order(self) -> list[tuple[Any, ...]]:
        """The rows (``TOTALS_KEY``, then played, wins, xp) in their primary key's order: each B-tree page filled
        once."""
        return [(*group, identity, *row) for group in sorted(self.groups)
                for identity, row in sorted(self.groups[group].items())]


async def _accounts(db: AsyncEngine, now: datetime) -> None:
    async with db.begin() as conn:
        if (await conn.execute(select(func.count()).select_from(totals))).scalar_one():
            raise SystemExit("maumau bench rankings: the database holds rankings already; give it an empty one")
        await conn.execute(accounts.insert(), [
            {"account_id": str(i), "name": f"P{i}", "name_normalised": f"p{i}", "avatar": "", "identity": f"a-{i}",
             "registered_at": now, "seq": i + 1} for i in range(ACCOUNTS)])


async def _project(db: AsyncEngine, matches: int, seed: int, now: datetime) -> float:
    """The first matches through the projection's own writes; the seconds those took."""
    tz, seconds = zone(), 0.0
    for start in range(0, matches, PER_TRANSACTION):
        ended = [_match(seed, n, now) for n in range(start, min(start + PER_TRANSACTION, matches))]
        started = time.perf_counter()
        async with db.begin() as conn:
            await record(conn, [row for t, when in ended for row in seat_rows(t, when)], tz)
        seconds += time.perf_counter() - started
    return seconds


def _converted(records: list[tuple[Any, ...]], binds: list[tuple[int, Any]]) -> list[tuple[Any, ...]]:
    """The records with the columns that need it bound, column by column: a bind processor is a function of its
    value, so each distinct value of a column is bound once (a match's seats share its end, and flags repeat;
    the bench's times are all UTC, so equal ones are written alike): 0.53 s for 300,000 seats, 0.89 s row by row."""
    columns: list[Sequence[Any]] = list(zip(*records, strict=True))
    for i, f in binds:
        columns[i] = list(map(cache(f), columns[i]))
    return list(zip(*columns, strict=True))


async def _load(db: AsyncEngine, table: SqlTable, columns: tuple[str, ...], records: list[tuple[Any, ...]]) -> None:
    """Records of ``columns`` into an empty table by the database's own bulk path: PostgreSQL's COPY, SQLite's
    executemany on the driver itself (each value as SQLAlchemy would bind it, so the projection reads them
    alike; a column left out gets the default an insert through SQLAlchemy would add)."""
    defaults = {c.name: c.default.arg for c in table.columns
                if c.name not in columns and isinstance(c.default, ScalarElementColumnDefault)}
    if defaults:
        tail = tuple(defaults.values())
        columns, records = columns + tuple(defaults), [r + tail for r in records]
    async with db.begin() as conn:
        binds = [table.c[c].type.dialect_impl(conn.dialect).bind_processor(conn.dialect) for c in columns]
        converted = [(i, f) for i, f in enumerate(binds) if f is not None]  # most columns need nothing
        if converted:
            records = _converted(records, converted)
        driver = (await conn.get_raw_connection()).driver_connection
        assert driver is not None
        if conn.dialect.name == "postgresql":
            await driver.copy_records_to_table(table.name, records=records, columns=list(columns))
        else:
            marks = ", ".join("?" * len(columns))
            await driver.executemany(f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks})", records)


async def _dropped(db: AsyncEngine, table: SqlTable) -> list[Index]:
    """The table's secondary indexes dropped for a bulk load, to be built once after it (``_built``): one sorted
    build costs a fraction of keeping them at every row (6 million totals' rows: four B-trees)."""
    async with db.begin() as conn:
        for ix in table.indexes:
            await conn.run_sync(ix.drop)
    return list(table.indexes)


async def _built(db: AsyncEngine, indexes: list[Index]) -> None:
    if db.dialect.name == "postgresql":  # each on a connection of its own, the cores sharing the sorts
        await asyncio.gather(*(_build(db, ix) for ix in indexes))
    else:  # one writer at a time
        for ix in indexes:
            await _build(db, ix)


async def _build(db: AsyncEngine, index: Index) -> None:
    async with db.begin() as conn:
        if conn.dialect.name == "postgresql":  # the sort in memory, not in files (the default is 64 MB)
            await conn.execute(text("SET LOCAL maintenance_work_mem = '256MB'"))
        await conn.run_sync(index.create)


@contextmanager
def _uncollected() -> Iterator[None]:
    """No cyclic garbage collection meanwhile: a bulk load makes millions of rows that live until it ends and
    hold no cycles, and every collection walked the ones made so far (half its Python's time)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _bulk(db: AsyncEngine, first: int, matches: int, seed: int, now: datetime) -> tuple[int, float]:
    """Matches ``first`` … ``matches`` − 1 loaded in bulk into the empty projection: their seats, then every
    total summed once over all of them, in their primary key's order; the rows and the seconds. The seats'
    index is built while their totals are put in order (and, on PostgreSQL, loaded)."""
    started = time.perf_counter()
    summed = _Totals(zone())
    seats_indexes, totals_indexes = await _dropped(db, seats_played), await _dropped(db, totals)
    rows = await _seats(db, first, matches, seed, now, summed)
    building = asyncio.create_task(_built(db, seats_indexes))
    keyed = await asyncio.to_thread(summed.in_key_order)
    if db.dialect.name != "postgresql":  # one writer at a time
        await building
    for start in range(0, len(keyed), CHUNK):
        await _load(db, totals, (*TOTALS_KEY, "played", "wins", "xp"), keyed[start:start + CHUNK])
    await asyncio.gather(building, _built(db, totals_indexes))
    return rows + len(keyed), time.perf_counter() - started


async def _seats(db: AsyncEngine, first: int, matches: int, seed: int, now: datetime, summed: _Totals) -> int:
    """The seats of matches ``first`` … ``matches`` − 1 loaded and added to ``summed``, each chunk made in a
    thread while the database takes the last; the rows."""
    rows = 0

    def made(start: int) -> list[tuple[Any, ...]]:
        seats = []
        for n in range(start, min(start + CHUNK // 3, matches)):
            m = _drawn(seed, n, now)
            seats += _seat_records(m)
            summed.add(m)
        return seats

    loading: asyncio.Task[None] | None = None
    for start in range(first, matches, CHUNK // 3):
        chunk = await asyncio.to_thread(made, start)
        if loading is not None:
            await loading
        loading = asyncio.create_task(_load(db, seats_played, SEAT_COLUMNS, chunk))
        rows += len(chunk)
    if loading is not None:
        await loading
    return rows


async def _query_ms(db: AsyncEngine, rng: random.Random, count: int, now: datetime) -> list[float]:
    tz, spent = zone(), []
    async with db.connect() as conn:
        for _ in range(count):
            page = 0 if rng.random() < 0.8 else rng.randint(1, 20)
            started = time.perf_counter()
            await queries.ranking(conn, rng.choice(RULESET_NAMES), rng.choice(list(Category)),
                                  rng.choice(list(Period)), now, tz, page, by=rng.choice(list(queries.Score)))
            spent.append((time.perf_counter() - started) * 1000)
    return spent


async def _round_trip_ms(db: AsyncEngine, count: int) -> list[float]:
    spent = []
    async with db.connect() as conn:
        for _ in range(count):
            started = time.perf_counter()
            await conn.execute(text("SELECT 1"))
            spent.append((time.perf_counter() - started) * 1000)
    return spent


def _percentile(values: list[float], q: int) -> float:
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 2) if len(values) > 1 else values[0]


def _scratch_engine(url: str) -> AsyncEngine:
    """The bulk load's engine on the bench's own SQLite file: no journal, no sync. WAL writes every page twice,
    and a crash only loses a file the next run makes again; the projection and the queries after it run on the
    database as the platform sets it (``engine``, WAL)."""
    made = create_async_engine(url)

    def unjournaled(connection: Any, _record: object) -> None:
        cursor = connection.cursor()
        try:
            for pragma in ("journal_mode=OFF", "synchronous=OFF", "temp_store=MEMORY", "cache_size=-262144"):
                cursor.execute(f"PRAGMA {pragma}")
        finally:
            cursor.close()

    event.listen(made.sync_engine, "connect", unjournaled)
    return made


async def bench(matches: int, queries_run: int, database_url: str, seed: int, now: datetime | None = None,
                projected: int = PROJECTED, scratch: bool = False) -> dict[str, Any]:
    rng, now = random.Random(seed), now or datetime.now(UTC)
    await migrate(database_url)
    projected = min(matches, projected)  # projected last: onto the full tables, as a running projector is
    loading = _scratch_engine(database_url) if scratch else engine(database_url)
    try:
        await _accounts(loading, now)
        with _uncollected():
            loaded, bulk_seconds = await _bulk(loading, projected, matches, seed, now)
    finally:
        await loading.dispose()
    db = engine(database_url)
    try:
        seconds = await _project(db, projected, seed, now)
        await _query_ms(db, rng, 20, now)  # warm the caches, as a running gateway's are
        spent = await _query_ms(db, rng, queries_run, now)
        trips = await _round_trip_ms(db, queries_run)
    finally:
        await db.dispose()
    return {"matches": matches, "accounts": ACCOUNTS, "database": database_url.split(":", 1)[0],
            "query_p50_ms": _percentile(spent, 50), "query_p99_ms": _percentile(spent, 99), "queries": queries_run,
            "project_per_s": round(projected / seconds),
            "bulk_s": round(bulk_seconds, 1), "bulk_rows_per_s": round(loaded / bulk_seconds) if loaded else None,
            "select_1_p50_ms": _percentile(trips, 50),
            "python_10m_loop_s": loop_seconds()}


def run(matches: int, queries_run: int, database_url: str | None, seed: int) -> str:
    with tempfile.TemporaryDirectory() as scratch:
        url = database_url or f"sqlite+aiosqlite:///{Path(scratch) / 'rankings.db'}"
        return json.dumps(asyncio.run(bench(matches, queries_run, url, seed, scratch=database_url is None)))
