"""Settings from the environment, the same names in ``maumau up``, tests and Kubernetes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

T = TypeVar("T", bound=Any)

# The one default of each duration and limit; the dataclasses of the services name these.
ABSENCE_SECONDS = 48 * 3600.0  # a player on turn away this long may be declared absent
EXPIRY_SECONDS = 7 * 24 * 3600.0  # a table without a move this long expires
STANDIN_SECONDS = 60.0  # a seated person away this long at a timed table is played for (automatic mode)
SOLO_SECONDS = 300.0  # a timed table whose people are all away this long, nobody watching, ends
BOT_THINK_SECONDS = 1.2  # a natural pause before a bot acts, so people can follow the game
BOT_BUDGET_MS = 100.0  # the strongest bot's search time per move
CHAT_MAX_CHARS = 300
CHAT_RATE = "5/10"  # lines a player may write per seconds, at one table (per replica)
SIGNING_KEY = ".data/signing-key.pem"  # the platform's Ed25519 key, which signs exports (services/runtime/signing.py)
SESSION_SECONDS = 30 * 24 * 3600.0  # an account session lasts this long from its sign-in
TIME_ZONE = "America/Sao_Paulo"  # the platform's days, weeks and months, for the rankings' periods


def parse_rate(value: str) -> tuple[int, float]:
    """``"COUNT/SECONDS"`` (a trailing ``s`` allowed) as (count, seconds).

    >>> parse_rate("5/10"), parse_rate(" 3 / 2.5s ")
    ((5, 10.0), (3, 2.5))
    """
    count, _, seconds = value.partition("/")
    n, s = int(count), float(seconds.strip().removesuffix("s") or "nan")
    if n < 1 or not s > 0:
        raise ValueError(f"MAUMAU_CHAT_RATE must be COUNT/SECONDS, like 5/10, not {value!r}")
    return n, s


def _partitions(value: str) -> int:
    count = int(value)
    if not 1 <= count <= 9999:
        raise ValueError(f"MAUMAU_STREAM_PARTITIONS is a count of streams from 1 to 9999, not {value!r}")
    return count


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
    accounts_per_address: int = 30  # registrations (a name taken tells that it exists: few tries)
    logins_per_address: int = 60
    logins_per_name_and_address: int = 10  # failed, from one address to one name (known or not): then 429
    logins_per_account: int = 10  # failed, to one name from every address: then each try waits (gateway/signins.py)
    # A replay made (not kept) reads and folds a whole table: 0.2-0.3 ms of CPU per batch, 0.2 s for 700
    # batches, mostly in the gateway's low-priority worker (docs/performance.md, "Issue 25: replays"); a kept
    # one costs about 3 ms. 30 a minute from one address is at most 6 s of made replays a minute. Tokens are
    # free: the limit per identity only spreads one person's asks.
    replays_per_address: int = 30
    replays_per_identity: int = 10

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
    health_port: int
    stream_partitions: int = 1  # MAUMAU_STREAM_PARTITIONS: the TABLES streams new tables spread over (docs/scaling.md)
    standin_seconds: float = STANDIN_SECONDS
    solo_seconds: float = SOLO_SECONDS
    log_level: str = "INFO"
    log_format: str = ""  # MAUMAU_LOG_FORMAT: json or text (unset: text on a terminal, else JSON lines)
    bot_think_seconds: float = BOT_THINK_SECONDS
    bot_budget_ms: float = BOT_BUDGET_MS
    chat_max_chars: int = CHAT_MAX_CHARS
    chat_rate: str = CHAT_RATE
    public_urls: tuple[str, ...] = ()  # MAUMAU_PUBLIC_URL: where browsers reach the gateway
    trusted_proxies: int = 0  # reverse proxies in front of the gateway, each appending to X-Forwarded-For
    rate_limits: RateLimits = field(default_factory=RateLimits)
    socket_limits: SocketLimits = field(default_factory=SocketLimits)
    signing_key: str = SIGNING_KEY  # MAUMAU_SIGNING_KEY: a file path
    time_zone: str = TIME_ZONE  # MAUMAU_TIME_ZONE: an IANA zone name

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            nats_url=os.environ.get("NATS_URL", "nats://127.0.0.1:4222"),
            rules_addr=os.environ.get("RULES_ADDR", "127.0.0.1:50051"),
            database_url=os.environ.get("DATABASE_URL", "sqlite+aiosqlite:///.data/maumau.db"),
            stream_replicas=int(os.environ.get("MAUMAU_STREAM_REPLICAS", "1")),
            stream_partitions=_partitions(os.environ.get("MAUMAU_STREAM_PARTITIONS") or "1"),
            absence_seconds=_float("MAUMAU_ABSENCE_SECONDS", ABSENCE_SECONDS),
            expiry_seconds=_float("MAUMAU_EXPIRY_SECONDS", EXPIRY_SECONDS),
            health_port=int(os.environ.get("MAUMAU_HEALTH_PORT", "0")),
            standin_seconds=_float("MAUMAU_STANDIN_SECONDS", STANDIN_SECONDS),
            solo_seconds=_float("MAUMAU_SOLO_SECONDS", SOLO_SECONDS),
            log_level=os.environ.get("MAUMAU_LOG_LEVEL") or "INFO",
            log_format=os.environ.get("MAUMAU_LOG_FORMAT", ""),
            bot_think_seconds=_float("MAUMAU_BOT_THINK_SECONDS", BOT_THINK_SECONDS),
            bot_budget_ms=_float("MAUMAU_BOT_BUDGET_MS", BOT_BUDGET_MS),
            chat_max_chars=int(os.environ.get("MAUMAU_CHAT_MAX_CHARS") or CHAT_MAX_CHARS),
            chat_rate=os.environ.get("MAUMAU_CHAT_RATE") or CHAT_RATE,
            public_urls=tuple(u.strip() for u in os.environ.get("MAUMAU_PUBLIC_URL", "").split(",") if u.strip()),
            trusted_proxies=int(os.environ.get("MAUMAU_TRUSTED_PROXIES", "0")),
            rate_limits=RateLimits.from_env(),
            socket_limits=SocketLimits.from_env(),
            signing_key=os.environ.get("MAUMAU_SIGNING_KEY") or SIGNING_KEY,
            time_zone=os.environ.get("MAUMAU_TIME_ZONE") or TIME_ZONE,
        )
