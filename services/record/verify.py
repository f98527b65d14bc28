"""A table's record checked from its first batch: the chain, the engine, every decision and every deal.

Pure over a list of stored batches (from the stream, or from an export: ``export.py``):
``verify`` folds the table again batch by batch, as the repository does, and before each
batch is folded asks whether it holds:

* the chain: it names the exact bytes of the batch before it (``previous``) and that
  batch's sequence (``previous_seq``); the first names ``GENESIS`` and 0;
* its engine version is one this engine reproduces (``services/rules/version.py``);
* every action it records is one the rules engine, given the state before it, accepts, and
  the engine's events for it (draws, reshuffles, the round's end and scores) are the
  recorded ones, compared in the protocol's wire form;
* every deal is the one its seed produces, numbered as the table's next, and the seed
  matches the deal's commitment (docs/shuffle.md).

The engine decides; nothing here knows a rule. Events about the table's life (joins,
starts, rematches) are folded, not re-decided: they follow from commands, which the record
does not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from google.protobuf.message import DecodeError, Message

from maumau.v1 import actions_pb2, events_pb2
from services.rules.cards import Family
from services.rules.decider import ActionTaken, deal, decide_folding
from services.rules.errors import RuleError
from services.rules.shuffle import verify_commitment
from services.rules.state import State
from services.rules.version import REPRODUCED
from services.rules.wire import SCHEMA_VERSION, action_from_pb, event_to_pb, taken_bytes
from services.table.domain import Status, Table, evolve
from services.table.store import GENESIS, Stored


@dataclass(frozen=True)
class Verdict:
    batches: int  # checked and found good
    events: int  # in those batches
    bad: int | None = None  # the position of the first bad record (the number of records: the export's end)
    where: str = ""  # how to name it: "seq N", "line N", "end"
    why: str = ""

    @property
    def ok(self) -> bool:
        return self.bad is None

    def __str__(self) -> str:
        return f"ok: {self.batches} batches verified" if self.ok else f"{self.where}: {self.why}"


class Bad(Exception):
    """A record that does not hold; ``earlier``: the record before it is the one to blame."""

    def __init__(self, why: str, earlier: bool = False):
        super().__init__(why)
        self.earlier = earlier


def verify(table_id: str, records: Sequence[Stored]) -> Verdict:
    """Every record of the table from its first, in order; the first that does not hold ends the check."""
    checking = Verifier(table_id)
    for stored in records:
        if not checking.add(stored):
            break
    return checking.verdict()


class Verifier:
    """``verify`` a record at a time, as a reader gets them: ``add`` each in order, then ``verdict``."""

    def __init__(self, table_id: str):
        self.table = Table(table_id)
        self._previous, self._previous_seq = GENESIS, 0
        self._batches = self._events = self._last_events = 0  # checked and found good; the last one's events
        self._bad: Verdict | None = None

    def add(self, stored: Stored) -> bool:
        """Check the next record; whether every record so far holds (after the first that does not, none is read)."""
        if self._bad is not None:
            return False
        try:
            _chained(stored, self._previous, self._previous_seq)
            _decided(self.table, stored)
        except Bad as b:
            self._refuse(b, stored.seq)
            return False
        self._previous, self._previous_seq = stored.digest or b"", stored.seq
        self._last_events = len(stored.batch.events)
        self._batches += 1
        self._events += self._last_events
        return True

    def add_bytes(self, seq: int, data: bytes) -> bool:
        """``add`` the record stored at ``seq`` as ``data``, which may not even be a batch."""
        if self._bad is not None:
            return False
        try:
            stored = Stored.decode(seq, data)
        except DecodeError:
            self._refuse(Bad("not an event batch: its bytes cannot be read"), seq)
            return False
        return self.add(stored)

    def verdict(self) -> Verdict:
        return self._bad or Verdict(self._batches, self._events)

    def _refuse(self, b: Bad, seq: int) -> None:
        if b.earlier:
            at = self._batches - 1
            self._bad = Verdict(at, self._events - self._last_events, at, f"seq {self._previous_seq}", str(b))
        else:
            self._bad = Verdict(self._batches, self._events, self._batches, f"seq {seq}", str(b))


def _chained(stored: Stored, previous: bytes, previous_seq: int) -> None:
    b = stored.batch
    if stored.data is None:
        raise Bad("read without its bytes: what the next record names cannot be known")
    if not b.previous:
        raise Bad("unchained: stored before batches named the one before them")
    if b.previous != previous:
        raise Bad("does not follow the record before it (its previous hash differs)")
    if b.previous_seq != previous_seq and previous_seq == 0:
        raise Bad(f"the first record names seq {b.previous_seq} before it")
    if b.previous_seq != previous_seq:  # this one follows the bytes before it: that record's sequence is wrong
        raise Bad(f"the record after it names it seq {b.previous_seq}", earlier=True)
    if stored.seq <= previous_seq:
        raise Bad(f"comes after seq {previous_seq} in the stream")
    if b.engine_version not in REPRODUCED:
        raise Bad(f"decided by engine version {b.engine_version!r}, which this engine does not reproduce")


def _decided(t: Table, stored: Stored) -> None:
    """Check each event against the engine, folding the table as it goes."""
    events = stored.batch.events
    i = 0
    while i < len(events):
        ev = events[i]
        if ev.table_id != t.table_id or ev.schema_version > SCHEMA_VERSION:
            raise Bad(f"event {i} is of table {ev.table_id!r}, schema {ev.schema_version}")
        body = ev.WhichOneof("body")
        try:
            folded = 0
            if body == "action_taken":
                n, folded = _action(t, stored.seq, events, i), 1
            elif body == "round_dealt":
                n = _deal(t, ev.round_dealt)
            elif body == "round_ended":
                raise Bad("a round's end that no action brought")
            else:
                n = 1
            for e in events[i + folded:i + n]:
                evolve(t, stored.seq, e)
        except Bad:
            raise
        except Exception as e:  # a record may be anything: what cannot be folded is bad, not a crash
            raise Bad(f"event {i} cannot be folded: {type(e).__name__}: {e}") from None
        i += n


def _action(t: Table, seq: int, events: Sequence[events_pb2.Event], i: int) -> int:
    """How many of the events from ``i`` the recorded action makes, once the engine agrees with each.

    The action's own event is folded into ``t`` here: the engine decides on the copy the fold
    steps (``decide_folding``), not on one of its own as well.
    """
    match = t.match
    if match is None or t.status != Status.PLAYING:
        raise Bad("an action while no match is being played")
    family = match.rs.family
    recorded = events[i].action_taken.action

    def fold() -> State:
        evolve(t, seq, events[i])
        return t.match or match

    try:
        decided = decide_folding(match, action_from_pb(recorded, family), fold)
    except RuleError as e:
        move = recorded.move or recorded.do
        raise Bad(f"the engine refuses {move} by seat {recorded.seat}: {e.code} ({e})") from None
    for k, event in enumerate(decided):
        if k == 0 and isinstance(event, ActionTaken) and \
                events[i].action_taken.SerializeToString() == taken_bytes(event, family):
            continue  # spelt as the engine spells it (every record of this release): no need to say where it differs
        want = event_to_pb(event, family)
        body = want.WhichOneof("body") or ""
        got = events[i + k] if i + k < len(events) else events_pb2.Event()
        if got.WhichOneof("body") != body:
            raise Bad(f"the engine's {body} is not in the record")
        if body == "action_taken":
            _same_action(want.action_taken.action, got.action_taken.action, family)
            want.action_taken.action.CopyFrom(got.action_taken.action)  # the rest compared as it is
        _same(body, getattr(want, body), getattr(got, body))
    return len(decided)


def _deal(t: Table, recorded: events_pb2.RoundDealt) -> int:
    if t.match is None or not t.match.round_over:
        raise Bad("a deal while a round is being played, or no match")
    if recorded.round_no != t.round_no:
        raise Bad(f"deal number {recorded.round_no}, the table's next is {t.round_no}")
    if not verify_commitment(t.table_id, recorded.round_no, recorded.seed, recorded.commitment):
        raise Bad(f"round {recorded.round_no}: the seed does not match the deal's commitment")
    dealt = deal(t.match, recorded.seed, t.table_id, recorded.round_no)
    _same("round_dealt", event_to_pb(dealt, t.match.rs.family).round_dealt, recorded)
    return 1


def _same_action(want: actions_pb2.Action, got: actions_pb2.Action, family: Family) -> None:
    """The record's action is the engine's, however the record spells it: its move and the same move
    field by field (this release), the move alone (the next), or the fields alone (a record written
    before the move); where it has both, both must be the engine's, since each release reads one."""
    if got.do and not got.move:
        want.move = ""
    if got.move and not got.do:
        meant = got.move == want.move or action_from_pb(got, family) == action_from_pb(want, family)
        same = meant and got.seat == want.seat
    else:
        same = got == want
    if not same:
        raise Bad(f"action_taken.action is {_short(got)} in the record, {_short(want)} by the engine")


def _same(what: str, want: Message, got: Message) -> None:
    """Raise ``Bad`` naming the first field where the record differs from the engine."""
    if want == got:
        return
    for f in want.DESCRIPTOR.fields:
        w, g = getattr(want, f.name), getattr(got, f.name)
        if w != g:
            raise Bad(f"{what}.{f.name} is {_short(g)} in the record, {_short(w)} by the engine")
    raise Bad(f"{what} differs from the engine's")  # unknown fields: not of this schema


def _short(value: object) -> str:
    text = str(list(value) if isinstance(value, Iterable) and not isinstance(value, str | bytes | Message)
               else value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."
