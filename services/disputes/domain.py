"""A dispute's life, pure: a report opened at a table's moment, staff looking, staff closing it.

The gateway hands the domain who asks and the time; it decides the events and ``evolve``
folds them (one handler per event in ``_EVOLVE``).

>>> d = Dispute("d1")
>>> evolve(d, 1, report(d, "t1", 12, 1, "g-ana", "Ana", 0, "  He had no 7!  ", now=0.0))
>>> (str(d.status), d.table_seq, d.text)
('open', 12, 'He had no 7!')
>>> evolve(d, 2, close(d, "upheld", "Annulled.", "s1", "Sol", annulled=True, now=1.0))
>>> (str(d.status), d.verdict, d.annulled, d.seq)
('closed', 'upheld', True, 2)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from maumau.v1 import disputes_pb2
from services.runtime.refusals import Code, Refused

MAX_TEXT = 500  # a report's and a note's characters
TABLE_LOOKS = "table-"  # a table's subject in DISPUTES for looks opened from no dispute (no dispute id has one)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class Status(StrEnum):
    NONE = "none"
    OPEN = "open"
    CLOSED = "closed"


class Verdict(StrEnum):
    DISMISSED = "dismissed"
    UPHELD = "upheld"


@dataclass
class Dispute:
    dispute_id: str
    status: Status = Status.NONE
    table_id: str = ""
    table_seq: int = 0
    match_no: int = 0
    reporter: str = ""
    reporter_name: str = ""
    seat: int = -1
    text: str = ""
    opened_at: float = 0.0
    verdict: str = ""
    note: str = ""
    closed_by: str = ""
    closed_at: float = 0.0
    annulled: bool = False
    looks: int = 0
    seq: int = 0  # the last stream sequence of the dispute's subject folded in


def looks_subject(table_id: str) -> str:
    """The DISPUTES subject's id under which staff looks at a table opened from no dispute are recorded.

    >>> looks_subject("ab12")
    'table-ab12'
    """
    return f"{TABLE_LOOKS}{table_id}"


def looked_dispute(subject_id: str) -> str:
    """The dispute a look stored under ``subject_id`` was opened from: "" for a table's own subject.

    >>> looked_dispute("table-ab12"), looked_dispute("0123456789abcdef01234567")
    ('', '0123456789abcdef01234567')
    """
    return "" if subject_id.startswith(TABLE_LOOKS) else subject_id


def clean_text(text: str, what: str = "a report") -> str:
    """The text as stored: control characters out, trimmed, 1 to ``MAX_TEXT`` characters.

    >>> clean_text(" a\\x00b ")
    'ab'
    """
    text = _CONTROL.sub("", text).strip()
    if not text:
        raise Refused(Code.EMPTY, f"{what} says something")
    if len(text) > MAX_TEXT:
        raise Refused(Code.TOO_LONG, f"{what} has at most {MAX_TEXT} characters")
    return text


def _event(now: float, **body: object) -> disputes_pb2.DisputeEvent:
    ev = disputes_pb2.DisputeEvent(**body)
    ev.time.FromNanoseconds(int(now * 1e9))
    return ev


def report(d: Dispute, table_id: str, table_seq: int, match_no: int, reporter: str, name: str, seat: int, text: str,
           *, now: float) -> disputes_pb2.DisputeEvent:
    if d.status != Status.NONE:
        raise Refused(Code.DISPUTE_EXISTS, "this dispute exists already")
    return _event(now, opened=disputes_pb2.DisputeOpened(
        table_id=table_id, table_seq=table_seq, match_no=match_no, reporter=reporter, reporter_name=name, seat=seat,
        text=clean_text(text)))


def existing(d: Dispute) -> Dispute:
    if d.status == Status.NONE:
        raise Refused(Code.UNKNOWN_DISPUTE, f"there is no dispute {d.dispute_id!r}")
    return d


def look(d: Dispute, account_id: str, name: str, *, now: float) -> disputes_pb2.DisputeEvent:
    """A staff account looks at the dispute's table: recorded, open or closed."""
    return _event(now, looked=disputes_pb2.StaffLooked(account_id=account_id, name=name,
                                                       table_id=existing(d).table_id))


def close(d: Dispute, verdict: str, note: str, account_id: str, name: str, *, annulled: bool,
          now: float) -> disputes_pb2.DisputeEvent:
    if existing(d).status == Status.CLOSED:
        raise Refused(Code.DISPUTE_CLOSED, "this dispute is closed already")
    if verdict not in list(Verdict):
        raise Refused(Code.BAD_VERDICT, "a dispute is closed as dismissed or upheld")
    if annulled and verdict != Verdict.UPHELD:
        raise Refused(Code.BAD_VERDICT, "only an upheld dispute annuls a match")
    return _event(now, closed=disputes_pb2.DisputeClosed(verdict=verdict, note=clean_text(note, "a note"),
                                                         account_id=account_id, name=name, annulled=annulled))


def _seconds(ev: disputes_pb2.DisputeEvent) -> float:
    return float(ev.time.ToNanoseconds()) / 1e9


def _opened(d: Dispute, ev: disputes_pb2.DisputeEvent) -> None:
    o = ev.opened
    d.status, d.table_id, d.table_seq, d.match_no = Status.OPEN, o.table_id, o.table_seq, o.match_no
    d.reporter, d.reporter_name, d.seat, d.text, d.opened_at = o.reporter, o.reporter_name, o.seat, o.text, _seconds(ev)


def _looked(d: Dispute, ev: disputes_pb2.DisputeEvent) -> None:
    d.looks += 1


def _closed(d: Dispute, ev: disputes_pb2.DisputeEvent) -> None:
    c = ev.closed
    d.status, d.verdict, d.note, d.closed_by, d.annulled = Status.CLOSED, c.verdict, c.note, c.name, c.annulled
    d.closed_at = _seconds(ev)


_EVOLVE: dict[str, Callable[[Dispute, disputes_pb2.DisputeEvent], None]] = {
    "opened": _opened, "looked": _looked, "closed": _closed,
}


def evolve(d: Dispute, seq: int, ev: disputes_pb2.DisputeEvent) -> None:
    """Fold one stored event (``seq``: its stream sequence) into the dispute."""
    handler = _EVOLVE.get(ev.WhichOneof("body") or "")
    if handler is not None:
        handler(d, ev)
    d.seq = seq
