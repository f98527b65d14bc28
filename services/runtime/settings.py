"""Settings from the environment, the same names in ``maumau up``, tests and Kubernetes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

T = TypeVar("T", bound=Any)


def _float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


def _counts(cls: type[T], prefix: str) -> T:
    """A dataclass of whole numbers, each from ``<prefix><FIELD>`` when set."""
    counts: T = cls(**{f.name: int(os.environ.get(f"{prefix}{f.name.upper()}") or str(f.default))
                       for f in fields(cls)})
    return counts


@dataclass(frozen=True)
class RateLimits:
    """The gateway's HTTP requests allowed per minute (0: unlimited), from ``MAUMAU_RATE_<FIELD>``.

    Generous: ``maumau loadtest`` sets up its 100 tables from one address in well under a minute.
    """

    sessions_per_address: int = 600
    tables_per_address: int = 300
    tables_per_identity: int = 30
    joins_per_address: int = 600
    joins_per_identity: int = 60
    posts_per_address: int = 1200
    posts_per_identity: int = 300

    @classmethod
    def from_env(cls) -> RateLimits:
        return _counts(cls, "MAUMAU_RATE_")


@dataclass(frozen=True)
class SocketLimits:
    """What one gateway replica lets WebSockets hold, from ``MAUMAU_SOCKET_<FIELD>``.

    ``maumau loadtest`` opens thousands of sockets from one address: it raises the last one.
    """

    tables: int = 100  # followed by one socket
    per_identity: int = 32  # open tabs of one device
    per_address: int = 512  # open sockets from one address (many players can share one)

    @classmethod
    def from_env(cls) -> SocketLimits:
        return _counts(cls, "MAUMAU_SOCKET_")


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
    public_urls: tuple[str, ...] = ()  # MAUMAU_PUBLIC_URL: where browsers reach the gateway
    trusted_proxies: int = 0  # reverse proxies in front of the gateway, each appending to X-Forwarded-For
    rate_limits: RateLimits = field(default_factory=RateLimits)
    socket_limits: SocketLimits = field(default_factory=SocketLimits)

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
            public_urls=tuple(u.strip() for u in os.environ.get("MAUMAU_PUBLIC_URL", "").split(",") if u.strip()),
            trusted_proxies=int(os.environ.get("MAUMAU_TRUSTED_PROXIES", "0")),
            rate_limits=RateLimits.from_env(),
            socket_limits=SocketLimits.from_env(),
        )
