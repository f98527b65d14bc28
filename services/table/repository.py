"""The tables' repository: whole tables folded from their streams (players, status and the match)."""

from __future__ import annotations

from typing import TypeAlias

from services.eventlog.repository import Repository
from services.table import domain
from services.table.store import EventStore, Stored

Tables: TypeAlias = Repository[domain.Table, Stored]


def tables(store: EventStore, cache_size: int = 10_000) -> Tables:
    """Whole tables: players, status and the match (``services.table.domain.evolve``)."""
    return Repository(store, domain.Table, domain.evolve, cache_size)
