"""The protocol's JSON shapes, byte for byte: played rounds' frames, replays, exports and views against digests.

A guard for refactors that must not change the wire (issue 26: the shapes typed): a key
renamed, dropped, added or moved changes a text, and so its digest. The digests were taken
before the shapes were typed; a change of the protocol on purpose takes them again
(``_texts`` below, printed) and says so in docs/protocol.md. Taken again for the move
notation: every action and legal action carries its ``move`` beside its fields, the replay's
words end with it ("Protocol versions" in docs/protocol.md). Taken again when the legal actions
came in the hand's order instead of its set's (issue 29: a hand's cards told apart without a set;
docs/performance.md): with every legal list sorted, the texts were the same before and after.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

from gateway.frames import BatchFrames, events_frame, state_frame
from gateway.replaymaker import body
from maumau.v1 import events_pb2
from services.record.export import readable
from services.record.replay import FULL, steps
from services.rules.decider import deal, decide
from services.rules.engine import legal_actions
from services.rules.views import full_state
from services.rules.wire import event_to_pb, view_to_pb
from services.table.domain import evolve
from services.table.store import Stored
from tests.gateway.test_redaction import _stamped, _table

GAMES = [("classic32", 3), ("classic52", 4), ("candeias", 3), ("colors108", 4)]
DIGESTS = {
    "classic32": "e4ff554b185a6b6774f0d9151ee27c987eb683fea8e4a807719ce7c10d09322d",
    "classic52": "dc52d03f3f7315d1294004b2a21f766ca0945d9f4f1587df3d8820fe06a456a7",
    "candeias": "db00ab3e1239380f0191bfe318f6c1b53bc2c899c7fc41a6b6c30dc61efac4ac",
    "colors108": "2bd3f130065efee28b8a077b220f8df40fc95a61a0afc791d933427cbd6955e1",
}


def _texts(ruleset: str, seats: int) -> Iterator[str]:
    """Every text a played round makes: each batch's frames for every viewer, the replays, the export's lines."""
    rng = random.Random(ruleset)
    t, batches = _table(ruleset, seats)
    assert t.match is not None
    dealt = deal(t.match, hashlib.sha256(ruleset.encode()).hexdigest(), "t", 0)
    batches.append(events_pb2.EventBatch(events=[_stamped(event_to_pb(dealt, t.match.rs.family, "t"), "p0")]))
    viewers = ["nobody", *(f"p{i}" for i in range(seats))]
    for step in range(400):
        batch = batches[-1]
        for ev in batch.events:
            evolve(t, step + 2, ev)
        assert t.match is not None
        frames = BatchFrames(t, step + 2, batch)
        for identity in viewers:
            yield frames.text_for(identity)
            yield json.dumps(events_frame(t, step + 2, batch, identity))
            yield json.dumps(state_frame(t, identity))
        yield json.dumps(full_state(t.match))
        for seat in range(seats * (not t.match.round_over)):  # the rules service's answer (GetView)
            yield view_to_pb(events_frame(t, 0, batch, f"p{seat}")["view"]).SerializeToString().hex()
        if t.match.round_over:
            break
        assert step < 399, "the round ends, so that its last frames (every hand revealed) are compared too"
        seat = t.match.turn
        options = list(legal_actions(t.match, seat))
        plays = [a for a in options if a.kind == "play"]  # playing when it can, so that the round ends
        fam = t.match.rs.family
        events = decide(t.match, rng.choice(plays or options))
        batches.append(events_pb2.EventBatch(events=[_stamped(event_to_pb(e, fam, "t"), f"p{seat}") for e in events]))
    records = [Stored(i + 1, b, b.SerializeToString()) for i, b in enumerate(batches)]
    for stored in records:
        yield json.dumps(readable(stored))
    yield json.dumps(steps("t", records, lambda _: FULL))
    yield json.dumps(steps("t", records, lambda _: 0, "p0"))
    for identity, full_until in (("p1", None), ("nobody", None), ("staff", 3)):
        yield body("t", records, identity, full_until).raw.decode()


def _digest(ruleset: str, seats: int) -> str:
    h = hashlib.sha256()
    for text in _texts(ruleset, seats):
        h.update(text.encode() + b"\n")
    return h.hexdigest()


def test_the_wire_is_as_it_was() -> None:
    assert {ruleset: _digest(ruleset, seats) for ruleset, seats in GAMES} == DIGESTS


if __name__ == "__main__":
    print({ruleset: _digest(ruleset, seats) for ruleset, seats in GAMES})
