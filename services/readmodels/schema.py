"""The read models' schema: one chain of Alembic migrations, each read model's in its own folder.

The chain is one line of revisions (the databases made before the read models had folders
of their own keep their ``alembic_version``); a new read model's first migration names the
newest one as its ``down_revision`` and lives in its own ``migrations/`` folder, listed here.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

HERE = Path(__file__).parent
VERSIONS = [HERE / model / "migrations" for model in ("tables", "accounts", "rankings", "disputes")]


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    cfg.set_main_option("version_locations", " ".join(str(v) for v in VERSIONS))
    cfg.set_main_option("path_separator", "space")
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


async def migrate(url: str) -> None:
    """Bring the schema to the newest migration (Alembic runs its own loop, so in a thread)."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")
