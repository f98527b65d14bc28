"""What a benchmark's work cost each process of the platform, in CPU time read from ``/proc``.

CPU time, unlike wall time, is what one process itself spent, whatever else the machine was
doing: the benchmarks print it per move (or command) and per process beside their rates, so a
run on a busy or slow machine still says where the work went (docs/performance.md).

>>> meter = CpuMeter.begin({"me": os.getpid()})
>>> sum(range(200_000)) > 0
True
>>> figures = meter.per(1)
>>> sorted(figures), figures["me"] >= 0
(['me', 'total'], True)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

TICKS = os.sysconf("SC_CLK_TCK")


class Process(Protocol):
    """One running process of the platform (``services.runtime.supervisor.Child``)."""

    @property
    def name(self) -> str: ...

    @property
    def pid(self) -> int | None: ...


def pids(processes: Iterable[Process]) -> dict[str, int]:
    """The running ones' pids by name."""
    return {p.name: pid for p in processes if (pid := p.pid) is not None}


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds ``pid`` has used so far (None: no such process, or no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # after the command's name, which may hold spaces
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime and stime: fields 14 and 15 of proc(5)


@dataclass(frozen=True)
class CpuMeter:
    """CPU seconds of named processes since ``begin``."""

    pids: dict[str, int]
    start: dict[str, float]

    @classmethod
    def begin(cls, pids: dict[str, int]) -> CpuMeter:
        start = {name: s for name, pid in pids.items() if (s := cpu_seconds(pid)) is not None}
        return cls({name: pid for name, pid in pids.items() if name in start}, start)

    def per(self, count: int) -> dict[str, float]:
        """Milliseconds of CPU per unit of work (``count`` units done since ``begin``), per process and in all.

        A process that ended or restarted meanwhile is left out: its count is not comparable.
        """
        spent = {}
        for name, pid in self.pids.items():
            now = cpu_seconds(pid)
            if now is not None and now >= self.start[name]:
                spent[name] = now - self.start[name]
        spent["total"] = sum(spent.values())
        return {name: round(1000 * s / max(1, count), 3) for name, s in spent.items()}
