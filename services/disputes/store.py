"""The DISPUTES stream: one subject per dispute (``disputes.<dispute_id>``), one event per message.

Written by the gateway itself, no service between (docs/disputes.md): each append carries
the expected last sequence of the dispute's subject, so two staff closing one dispute at once
cannot both win (the loser reads the dispute again and is refused ``dispute_closed``), and a
``Nats-Msg-Id``, so a request sent again is stored once.
"""

from __future__ import annotations

from nats.js import JetStreamContext

from maumau.v1 import disputes_pb2
from services.disputes.domain import Dispute, evolve
from services.eventlog.repository import fold_stream
from services.eventlog.store import EventLog
from services.runtime import subjects

STREAM = "DISPUTES"
SUBJECTS = subjects.DISPUTE_EVENTS


class DisputeStore:
    def __init__(self, js: JetStreamContext, replicas: int = 1, duplicate_window: float = 120.0):
        self.log = EventLog(js, STREAM, SUBJECTS, replicas, duplicate_window)

    async def ensure_stream(self) -> None:
        await self.log.ensure()

    async def append(self, dispute_id: str, event: disputes_pb2.DisputeEvent, expected: int | None,
                     msg_id: str) -> tuple[int, bool]:
        """Store ``event`` if the dispute's last sequence is ``expected`` (None: whatever it is);
        returns (sequence, was a duplicate). Raises ``Conflict`` when the dispute moved on."""
        return await self.log.append(subjects.dispute_events(dispute_id), dispute_id, event.SerializeToString(),
                                     expected=expected, command_id=msg_id)

    async def events(self, dispute_id: str) -> list[tuple[int, disputes_pb2.DisputeEvent]]:
        """The dispute's stored events, in order, with their stream sequences."""
        return [(m.seq, disputes_pb2.DisputeEvent.FromString(m.data))
                for m in await self.log.read(subjects.dispute_events(dispute_id))]

    async def load(self, dispute_id: str) -> Dispute:
        """The dispute as its stream has it now (a handful of events: read whole)."""
        return fold_stream(Dispute(dispute_id), ((seq, (ev,)) for seq, ev in await self.events(dispute_id)), evolve)
