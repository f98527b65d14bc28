"""Every table of a stream verified in one pass over it, the tables shared among one process per core.

A table's batches lie among every other table's in its partition's stream, so a read of each
table makes the server step over the others' again and again; here the stream is pushed once
(``eventlog.delivered``) and each batch goes, as it comes, to the process that holds its
table, which checks it at once (``verify.Verifier``). The reader and the checks run side by
side: the time is the larger of the two, not their sum (docs/record.md, "How fast").
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Collection
from multiprocessing.connection import Connection
from types import TracebackType

from nats.aio.client import Client

from services.eventlog.delivered import delivered
from services.record.verify import Verdict, Verifier
from services.runtime.subjects import table_of

Share = list[tuple[str, int, bytes]]  # a table's id, a batch's stream sequence and its bytes
READY, STOP = "ready", "stop"  # a worker's word that its modules are imported; the word that ends it


def _checking(conn: Connection) -> None:
    """A worker: the tables given to it, checked batch by batch; their verdicts at the end of each pass."""
    conn.send(READY)
    while True:
        checking: dict[str, Verifier] = {}
        while (share := conn.recv()) is not None:
            if share == STOP:
                return
            for table_id, seq, data in share:
                verifier = checking.get(table_id)
                if verifier is None:
                    verifier = checking[table_id] = Verifier(table_id)
                verifier.add_bytes(seq, data)
        conn.send({table_id: v.verdict() for table_id, v in checking.items()})


class Verifiers:
    """Processes that verify tables while their stream is read: ``with Verifiers() as v: await v.verify(…)``."""

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 1
        self._conns: list[Connection] = []
        self._processes: list[multiprocessing.process.BaseProcess] = []

    def __enter__(self) -> Verifiers:
        # spawned, not forked: a fork would copy the caller's running loop and NATS connection
        context = multiprocessing.get_context("spawn")
        for _ in range(self.workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_checking, args=(theirs,), daemon=True)
            process.start()
            self._conns.append(mine)
            self._processes.append(process)
        for conn in self._conns:
            conn.recv()  # READY: the clock of a measured pass starts after every worker's imports
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for conn, process in zip(self._conns, self._processes, strict=True):
            try:
                conn.send(STOP)
            finally:
                process.join(5)
                if process.is_alive():
                    process.kill()
                conn.close()

    async def verify(self, nc: Client, stream: str, subject: str,
                     only: Collection[str] | None = None) -> dict[str, Verdict]:
        """The verdict of every table stored in ``stream`` on ``subject`` (of the tables ``only``, if given)."""
        owner: dict[str, int] = {}
        verdicts: dict[str, Verdict] = {}
        try:
            async for chunk in delivered(nc, stream, subject):
                shares: list[Share] = [[] for _ in self._conns]
                for m in chunk:
                    table_id = table_of(m.subject)
                    if only is not None and table_id not in only:
                        continue
                    w = owner.get(table_id)
                    if w is None:
                        w = owner[table_id] = len(owner) % self.workers
                    shares[w].append((table_id, m.seq, m.data))
                for conn, share in zip(self._conns, shares, strict=True):
                    if share:
                        conn.send(share)
        finally:  # every worker ends its pass, even a broken one: the next starts afresh
            loop = asyncio.get_running_loop()
            for conn in self._conns:
                conn.send(None)
            for conn in self._conns:
                verdicts.update(await loop.run_in_executor(None, conn.recv))
        return verdicts
