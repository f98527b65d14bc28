"""What the staff's desk shows of a dispute's table, pure: the verification and the steps around the moment.

The steps are ``services/record/replay.py``'s, in full (staff see every hand, every draw and
every seed): each event as the players read it, with its words and its stream sequence.
They run from a little before the disputed moment (the table's sequence when it was
reported) to a few batches after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.eventlog.repository import fold_stream
from services.record import replay
from services.record.verify import Verdict
from services.table.domain import Table, evolve
from services.table.store import Stored

BEFORE = 300  # steps shown before the moment, at most
AFTER = 10  # batches shown after it


def verification(verdict: Verdict) -> dict[str, Any]:
    """``services/record/verify.py``'s verdict as the desk shows it: ok, or the first bad record and why."""
    return {"ok": verdict.ok, "batches": verdict.batches, "events": verdict.events, "where": verdict.where,
            "why": verdict.why, "text": str(verdict)}


def steps(table_id: str, records: Sequence[Stored], moment: int, before: int = BEFORE,
          after: int = AFTER) -> list[dict[str, Any]]:
    """The table's events up to the batch at ``moment`` (the last ``before`` of them) and ``after`` batches more.

    Each step: ``seq``, ``event`` (as ``replay.seen`` in full), ``text`` (``replay.words``),
    ``after`` (stored after the moment). A record that cannot be folded ends the steps there.
    """
    t, names, shown, later = Table(table_id), list[str](), list[dict[str, Any]](), 0
    for stored in records:
        if stored.seq > moment:
            later += 1
            if later > after:
                break
        for ev in stored.batch.events:
            seen = replay.seen(ev, replay.FULL)
            shown.append({"seq": stored.seq, "event": seen, "text": replay.words(seen, names),
                          "after": stored.seq > moment})
        try:
            fold_stream(t, ((stored.seq, stored.batch.events),), evolve)
        except Exception as e:  # a record may be anything: the verification names it
            shown.append({"seq": stored.seq, "event": {"type": "unreadable"}, "after": stored.seq > moment,
                          "text": f"cannot be folded: {type(e).__name__}"})
            break
        names = [p.name for p in t.players]
    first_after = next((i for i, s in enumerate(shown) if s["after"]), len(shown))
    return shown[max(0, first_after - before):]
