"""Which timers a table has running, derived from the table alone (pure).

>>> from services.table.domain import Table
>>> t = Table("t1", status="lobby", last_move=100.0, seq=3)
>>> [(x.kind, x.due) for x in timers(t, Durations(absence=10, expiry=50))]
[('expiry', 150.0)]
"""

from __future__ import annotations

from dataclasses import dataclass

from maumau.v1 import table_pb2
from services.runtime.settings import ABSENCE_SECONDS, EXPIRY_SECONDS, SOLO_SECONDS, STANDIN_SECONDS
from services.table.domain import Table

KINDS = frozenset({"turn", "absence", "expiry", "standin"})  # the timers this version runs


@dataclass(frozen=True)
class Durations:
    absence: float = ABSENCE_SECONDS
    expiry: float = EXPIRY_SECONDS
    standin: float = STANDIN_SECONDS
    solo: float = SOLO_SECONDS


@dataclass(frozen=True)
class Timer:
    kind: str  # turn, absence, expiry, standin
    table_id: str
    seq: int  # the table's last sequence when the timer was set: a later move makes it stale
    due: float

    @property
    def command_id(self) -> str:
        """The same timer always fires the same command: replicas firing it twice store it once."""
        return f"clock:{self.kind}:{self.table_id}:{self.seq}"

    def command(self) -> table_pb2.TableCommand:
        cmd = table_pb2.TableCommand(command_id=self.command_id, table_id=self.table_id, actor="clock",
                                     actor_name="Relógio")
        if self.kind == "turn":
            cmd.turn_timeout.seq = self.seq
        elif self.kind == "absence":
            cmd.notice_absence.seq = self.seq
        elif self.kind == "standin":
            cmd.stand_in.seq = self.seq
        else:
            cmd.expire.SetInParent()
        return cmd


def timers(t: Table, d: Durations) -> list[Timer]:
    """The timers running at table ``t`` as it stands."""
    if t.status in ("none", "ended"):
        return []
    out = [Timer("expiry", t.table_id, t.seq, t.last_move + d.expiry)]
    match = t.match
    if t.status == "playing" and match is not None and not match.round_over:
        turn_seconds = t.options.get("turn_seconds")
        if match.turn in t.auto:  # automatic mode: the system plays that seat's turn at once
            out.append(Timer("turn", t.table_id, t.seq, t.last_move))
        elif turn_seconds:
            out.append(Timer("turn", t.table_id, t.seq, t.last_move + turn_seconds))
        if t.absent_seat < 0:
            out.append(Timer("absence", t.table_id, t.seq, t.last_move + d.absence))
        away = [since for seat, since in t.away.items() if seat not in t.auto]
        if turn_seconds and away:  # a stand-in plays for whoever left a timed table
            out.append(Timer("standin", t.table_id, t.seq, min(away) + d.standin))
    return sorted(out, key=lambda x: x.due)
