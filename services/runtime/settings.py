"""Settings from the environment, the same names in ``maumau up``, tests and Kubernetes."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


@dataclass(frozen=True)
class Settings:
    nats_url: str
    rules_addr: str
    database_url: str
    stream_replicas: int
    absence_seconds: float
    expiry_seconds: float
    rematch_seconds: float
    health_port: int

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            nats_url=os.environ.get("NATS_URL", "nats://127.0.0.1:4222"),
            rules_addr=os.environ.get("RULES_ADDR", "127.0.0.1:50051"),
            database_url=os.environ.get("DATABASE_URL", "sqlite+aiosqlite:///.data/maumau.db"),
            stream_replicas=int(os.environ.get("MAUMAU_STREAM_REPLICAS", "1")),
            absence_seconds=_float("MAUMAU_ABSENCE_SECONDS", 48 * 3600),
            expiry_seconds=_float("MAUMAU_EXPIRY_SECONDS", 7 * 24 * 3600),
            rematch_seconds=_float("MAUMAU_REMATCH_SECONDS", 3600),
            health_port=int(os.environ.get("MAUMAU_HEALTH_PORT", "0")),
        )
