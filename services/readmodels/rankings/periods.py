"""The ranking periods and the key of the period a moment falls in, in the platform's time zone.

A day is a calendar day in the platform's zone (``America/Sao_Paulo`` by default), a week
runs Monday to Sunday (ISO 8601), a month is a calendar month and a season a calendar
quarter (January–March, April–June, July–September, October–December).

>>> from datetime import datetime, UTC
>>> list(keys(datetime(2026, 12, 1, 2, 30, tzinfo=UTC), zone("America/Sao_Paulo")).values())
['2026-11-30', '2026-W49', '2026-11', '2026-T4', 'all']
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from enum import StrEnum
from functools import cache, lru_cache
from types import MappingProxyType
from zoneinfo import ZoneInfo

from services.runtime.settings import TIME_ZONE


class Period(StrEnum):
    """The filters of the ranking: Hoje, Semana, Mês, Temporada, Histórico."""

    TODAY = "today"
    WEEK = "week"
    MONTH = "month"
    SEASON = "season"
    ALL = "all"


@cache
def zone(name: str = TIME_ZONE) -> ZoneInfo:
    return ZoneInfo(name)


def keys(moment: datetime, tz: ZoneInfo) -> Mapping[Period, str]:
    """The key of every period ``moment`` (aware) falls in: a match counts once in each.

    >>> from datetime import datetime, UTC
    >>> keys(datetime(2027, 1, 1, 12, tzinfo=UTC), zone())["week"]  # ISO years end with their weeks
    '2026-W53'
    """
    return _keys_of(moment.astimezone(tz).date())


@lru_cache(maxsize=4096)  # every seat of every match asks: the keys depend on its local day alone
def _keys_of(day: date) -> Mapping[Period, str]:
    year, week, _ = day.isocalendar()
    return MappingProxyType({Period.TODAY: f"{day:%Y-%m-%d}", Period.WEEK: f"{year}-W{week:02d}",
                             Period.MONTH: f"{day:%Y-%m}", Period.SEASON: f"{day.year}-T{(day.month - 1) // 3 + 1}",
                             Period.ALL: "all"})


def key(period: Period, moment: datetime, tz: ZoneInfo) -> str:
    """The key of the ``period`` that holds ``moment``: what a ranking of "this week" reads."""
    return keys(moment, tz)[period]


def utc(moment: datetime) -> datetime:
    """A time read back from the database, aware: SQLite gives back the UTC times it was given without their zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
