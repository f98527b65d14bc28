"""A table's whole record as JSON lines, closed by a signed line: what ``maumau export`` writes.

One line per stored batch: its stream sequence, its own SHA-256 (``hash``: what the next
batch names as ``previous``), ``previous``, the engine version, its events in the protocol's
JSON spelling (protobuf's JSON mapping, unredacted: an export is the full record), and the
exact bytes stored (``data``, base64): the chain is over those bytes, which no other
protobuf version need reproduce, and every readable field must say what they say. The last
line, ``{"end": {...}, "signature": ...}``, states the table, the number of batches, the
last sequence and hash and the SHA-256 of every line before it, signed with the
platform's Ed25519 key (``services/runtime/signing.py``).

>>> from maumau.v1 import events_pb2
>>> from services.table.store import GENESIS
>>> batch = events_pb2.EventBatch(events=[events_pb2.Event(table_id="t1", type="RematchClosed")],
...                               previous=GENESIS, engine_version="1")
>>> records = [Stored(5, batch, batch.SerializeToString())]
>>> text = b"".join(lines("t1", records, Ed25519PrivateKey.generate()))
>>> read(text)[0] == records
True
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import DecodeError

from maumau.v1 import events_pb2
from services.record.verify import Verdict, verify
from services.runtime.signing import check
from services.table.store import Stored

_RECORD_KEYS = frozenset({"seq", "hash", "previous", "engine_version", "events", "data"})
_END_KEYS = frozenset({"table_id", "batches", "seq", "head", "digest"})
_SIGNED = b"maumau export\n"  # what a signature is about: never mistaken for a signature of something else


class Readable(TypedDict):
    """A record's line but for its bytes (``readable``)."""

    seq: int
    hash: str  # hex
    previous: str  # hex
    engine_version: str
    events: list[dict[str, Any]]  # each protobuf's JSON mapping of an ``Event`` (its schema: proto/maumau/v1)


class RecordLine(Readable):
    data: str  # the exact bytes stored, base64


class EndFields(TypedDict):
    """What an export's end states (and its signature is about)."""

    table_id: str
    batches: int
    seq: int
    head: str  # hex
    digest: str  # hex, of every line before the end


class EndLine(TypedDict):
    end: EndFields
    signature: str  # base64


def readable(stored: Stored) -> Readable:
    """A record's line, but for its bytes."""
    b = stored.batch
    return {"seq": stored.seq, "hash": (stored.digest or b"").hex(), "previous": b.previous.hex(),
            "engine_version": b.engine_version,
            "events": [MessageToDict(ev, preserving_proto_field_name=True) for ev in b.events]}


def _dumps(value: RecordLine | EndLine) -> bytes:
    # not ASCII-escaped: an escape's hex digits could change case and mean the same, so one flipped byte would not show
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _statement(end: Mapping[str, Any]) -> bytes:
    return _SIGNED + json.dumps(end, sort_keys=True, separators=(",", ":")).encode()


def lines(table_id: str, records: Sequence[Stored], key: Ed25519PrivateKey) -> Iterator[bytes]:
    """The export of a table's records (all of them, from its first), line by line."""
    digest = hashlib.sha256()
    for stored in records:
        record: RecordLine = {**readable(stored), "data": base64.b64encode(stored.data or b"").decode()}
        line = _dumps(record)
        digest.update(line)
        yield line
    last = records[-1]
    end: EndFields = {"table_id": table_id, "batches": len(records), "seq": last.seq,
                      "head": (last.digest or b"").hex(), "digest": digest.hexdigest()}
    yield _dumps({"end": end, "signature": base64.b64encode(key.sign(_statement(end))).decode()})


class Malformed(Exception):
    """A line that is not what an export writes."""


@dataclass(frozen=True)
class End:
    fields: dict[str, Any]
    signature: bytes
    digest: str  # of the lines before it, as read


def read(text: bytes) -> tuple[list[Stored], End | None, tuple[int, str, str] | None]:
    """The records of an export, its end, and the first line that is not a record (position, where, why).

    Lines after an end are not read: the first of them is the one to name, if that end holds.
    """
    rows = text.split(b"\n")
    if rows[-1] == b"":
        rows.pop()
    records: list[Stored] = []
    digest = hashlib.sha256()
    for i, row in enumerate(rows):
        try:
            value = json.loads(row.decode())
            if isinstance(value, dict) and "end" in value:
                after = (i + 1, _where(rows[i + 1], i + 1), "the export goes on after its end") \
                    if i + 1 < len(rows) else None
                return records, _end(value, digest.hexdigest()), after
            records.append(_record(value))
        except (Malformed, ValueError) as e:
            return records, None, (i, _where(row, i), str(e) or type(e).__name__)
        digest.update(row + b"\n")
    return records, None, (len(rows), "end", "the export has no signed end")


def _where(row: bytes, i: int) -> str:
    try:
        return f"seq {int(json.loads(row.decode())['seq'])}"
    except (ValueError, KeyError, TypeError):
        return f"line {i + 1}"


def _record(value: Any) -> Stored:
    if not isinstance(value, dict) or set(value) != _RECORD_KEYS:
        raise Malformed("not a record of an export")
    seq, text = value["seq"], value["data"]
    if type(seq) is not int or seq < 1 or not isinstance(text, str):
        raise Malformed("not a record of an export")
    data = _base64(text)
    try:
        stored = Stored.decode(seq, data)
    except DecodeError:
        raise Malformed("its data is not a batch of events") from None
    expected: Mapping[str, object] = readable(stored)  # compared key by key with the line read
    for key, got in value.items():
        if key != "data" and got != expected[key]:
            raise Malformed(f"its {key} is not what its data says")
    return stored


def _end(value: dict[str, Any], digest: str) -> End:
    end, signature = value.get("end"), value.get("signature")
    if set(value) != {"end", "signature"} or not isinstance(end, dict) or set(end) != _END_KEYS \
            or not isinstance(signature, str):
        raise Malformed("not an export's end")
    return End(end, _base64(signature), digest)


def _base64(text: str) -> bytes:
    """Strict: another spelling of the same bytes (padding bits, say) is a change too."""
    data = base64.b64decode(text, validate=True)
    if base64.b64encode(data).decode() != text:
        raise Malformed("not plain base64")
    return data


def verify_export(text: bytes, public_key: Ed25519PublicKey | None = None) -> Verdict:
    """Every record of an export (``verify``), then its end: the counts, the last hash, the digest, the signature."""
    records, end, unread = read(text)
    table_id = records[0].batch.events[0].table_id if records and records[0].batch.events else ""
    verdict = verify(table_id, records)
    if not verdict.ok:
        return verdict
    if end is not None:
        bad_end = _ended(table_id, records, end, verdict, public_key)
        if bad_end is not None:
            return bad_end
    if unread is not None:
        at, where, why = unread
        return Verdict(verdict.batches, verdict.events, at, where, why)
    return verdict


def _ended(table_id: str, records: list[Stored], end: End, verdict: Verdict,
           public_key: Ed25519PublicKey | None) -> Verdict | None:
    """What is wrong with an export's end, given the records before it (all good)."""
    n = len(records)
    last = records[-1] if records else Stored(0, events_pb2.EventBatch())
    if end.digest != end.fields["digest"] and end.fields["seq"] != last.seq \
            and end.fields["batches"] == n and end.fields["head"] == (last.digest or b"").hex():
        # every record holds and the end names them all, yet the lines and the last sequence differ
        # from those it was written after: only the end binds the last record's sequence
        return Verdict(n - 1, verdict.events - len(last.batch.events), n - 1, f"seq {last.seq}",
                       f"the export's end was written after seq {end.fields['seq']}")
    stated = {"table_id": table_id, "batches": n, "seq": last.seq, "head": (last.digest or b"").hex(),
              "digest": end.digest}
    for key, value in stated.items():
        if end.fields[key] != value:
            return Verdict(n, verdict.events, n, "end", f"it states {key} {end.fields[key]!r}, the records {value!r}")
    if public_key is not None and not check(public_key, _statement(end.fields), end.signature):
        return Verdict(n, verdict.events, n, "end", "the signature is not the platform key's")
    return None
