"""The bots service: reads the tables' stream and plays the bots' seats through the table service.

Replicas share one durable pull consumer (``bots``). For each stored batch, every bot seat
that may act (its turn, or an out-of-turn chance: a challenge, a quick action, an opening
burn) decides from **its own seat's knowledge only** and sends the command like a player,
with a command id made of the stream position: a redelivered batch can never make a bot
act twice. At a table of bots only, a bot also starts the next round. A batch is
acknowledged only once its commands were answered, so a crashed replica's work is redone.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field

from cachetools import LRUCache
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from maumau.v1 import events_pb2, table_pb2
from services.bots.play import decide, may_act
from services.bots.reading import Reading, observe
from services.eventlog.consuming import consume_all
from services.eventlog.repository import Repository
from services.eventlog.store import previous_seq
from services.rules.state import State
from services.rules.wire import action_from_pb, action_to_pb
from services.runtime import logs, metrics
from services.runtime.refusals import Code
from services.runtime.settings import BOT_BUDGET_MS, BOT_THINK_SECONDS
from services.table.client import deliver
from services.table.domain import Table, evolve
from services.table.store import SUBJECTS, EventStore, Stored

FOLDED = 2000  # tables kept folded between their batches
BOTLESS = 50_000  # tables remembered to have no bot seated (a sequence each)
log = logging.getLogger("maumau.bots")
DURABLE = "bots"
AGAIN_SECONDS = 1.0  # a command the table service could not store now (a stream electing its leader) is sent again


@dataclass
class BotSettings:
    think_seconds: float = BOT_THINK_SECONDS
    budget_ms: float = BOT_BUDGET_MS
    concurrency: int = 64
    linger: float = 0.2  # at most this much of a bot's thinking time goes to waiting for a fuller batch


@dataclass(frozen=True)
class Read:
    """A table's reading of its round (``round_no``) as folded up to the stream sequence ``seq``."""

    round_no: int
    seq: int
    reading: Reading


@dataclass
class Turn:
    """A command a bot may send, and for a game action the moment it decides from."""

    command: table_pb2.TableCommand
    state: State | None = None
    seat: int = -1
    level: str = ""
    reading: Reading | None = None  # what the round's public actions said of the hands


@dataclass
class BotsService:
    nc: NATS
    settings: BotSettings = field(default_factory=BotSettings)
    seed: int | None = None
    sent: int = 0

    def __post_init__(self) -> None:
        self.js = self.nc.jetstream()
        self.store = EventStore(self.js)
        # the tables folded as the table service does, with the round's public actions read on the way
        self.folder = Repository(self.store, Table, self._fold, FOLDED)
        self.readings: LRUCache[str, Read] = LRUCache(FOLDED)
        self.botless: LRUCache[str, int] = LRUCache(BOTLESS)  # table: the stream sequence after which no bot sat there
        self.rng = random.Random(self.seed)

    def _fold(self, t: Table, seq: int, ev: events_pb2.Event) -> None:
        """Fold one event into ``t`` (``domain.evolve``), and an action into the table's ``Read``
        first, from the match before it (``reading.observe`` reads only what is public of it).

        A reading is kept only while it has followed every event of the round: one that missed
        some (a table folded again from the stream, another round) starts over, with nothing read.
        """
        read = self.reading(t)
        match = t.match
        if ev.WhichOneof("body") == "action_taken" and match is not None and not match.round_over:
            action = action_from_pb(ev.action_taken.action, match.rs.family)
            read = Read(t.round_no, seq, observe(read.reading if read else None, match, action))
        elif read is not None:
            read = Read(read.round_no, seq, read.reading)
        evolve(t, seq, ev)
        self.readings.pop(t.table_id, None)
        if read is not None and read.round_no == t.round_no:
            self.readings[t.table_id] = read

    def reading(self, t: Table) -> Read | None:
        """The reading of ``t``'s round as folded up to ``t`` itself, if it followed all of it."""
        read = self.readings.get(t.table_id)
        return read if read is not None and read.seq == t.seq and read.round_no == t.round_no else None

    async def run(self) -> None:
        """Play until cancelled (resumes at the durable consumer's position)."""
        config = ConsumerConfig(durable_name=DURABLE, deliver_policy=DeliverPolicy.ALL,
                                ack_policy=AckPolicy.EXPLICIT, filter_subject=SUBJECTS,
                                max_ack_pending=self.settings.concurrency * 4,
                                ack_wait=max(5.0, 4 * self.settings.think_seconds))  # a dead replica's work returns
        limit = asyncio.Semaphore(self.settings.concurrency)

        async def handle(msgs: list[Msg]) -> None:
            for msg in msgs:
                table_id = msg.subject.rsplit(".", 1)[-1]
                seq = msg.metadata.sequence.stream
                batch, previous = events_pb2.EventBatch.FromString(msg.data), previous_seq(msg.headers)
                if self.still_botless(table_id, seq, previous, batch):  # no bot to play: nothing to fold
                    await msg.ack()
                    continue
                t = await self.folder.after(table_id, Stored(seq, batch), previous)
                self._note_bots(t)
                turns = self.turns(t, seq)
                if not turns:  # nothing to wait for: acknowledged with the batch's other acks
                    await msg.ack()
                    continue
                await limit.acquire()
                task = asyncio.create_task(self._act(msg, turns))
                task.add_done_callback(lambda _: limit.release())

        await consume_all(self.js, self.store.streams, config, handle, size=self.settings.concurrency,
                          linger=min(self.settings.linger, self.settings.think_seconds), log=log)

    def still_botless(self, table_id: str, seq: int, previous: int | None, batch: events_pb2.EventBatch) -> bool:
        """Whether the batch at ``seq`` leaves a table known to have no bot seated without one.

        Known only when the batch follows the very batch (``previous``) after which the table had
        none (another replica may have handled the batches between), and seats no bot itself: then
        no bot may act there (``turns`` is empty) and the batch needs no folding. The folded table
        stays behind in the cache; a batch that seats a bot catches it up from the stream
        (``Repository.before``), its round's reading starting from whatever it follows.
        """
        if previous is None or self.botless.get(table_id) != previous:
            return False
        if any(ev.WhichOneof("body") == "player_joined" and ev.player_joined.player.bot for ev in batch.events):
            del self.botless[table_id]
            return False
        self.botless[table_id] = seq
        return True

    def _note_bots(self, t: Table) -> None:
        """Remember whether ``t`` (just folded) has no bot seated."""
        if any(p.bot for p in t.players):
            self.botless.pop(t.table_id, None)
            return
        self.botless[t.table_id] = t.seq

    def turns(self, t: Table, seq: int) -> list[Turn]:
        """The bot seats that may act at ``t`` after the batch at ``seq``, each with its own copy of the moment."""
        match = t.match
        if t.status != "playing" or match is None:
            return []
        bots = [i for i, p in enumerate(t.players) if p.bot]
        if match.round_over:
            if bots and len(bots) == len(t.players):
                return [Turn(self._command(t, seq, bots[0], "next", next_round=table_pb2.NextRound()))]
            return []
        read = self.reading(t)
        return [Turn(self._command(t, seq, seat, "act"), match.copy(), seat, t.players[seat].level,
                     read.reading if read else None)
                for seat in bots if may_act(match, seat)]

    def _command(self, t: Table, seq: int, seat: int, what: str, **command: object) -> table_pb2.TableCommand:
        player = t.players[seat]
        return table_pb2.TableCommand(command_id=f"bot:{t.table_id}:{seq}:{seat}:{what}", table_id=t.table_id,
                                      actor=player.identity, actor_name=player.name, **command)

    def _decide(self, turn: Turn) -> table_pb2.TableCommand | None:
        if turn.state is None:
            return turn.command
        with metrics.BOT_THINK_SECONDS.time():
            action = decide(turn.state, turn.seat, turn.level, random.Random(self.rng.random()),
                            self.settings.budget_ms, turn.reading)
        if action is None:
            return None
        turn.command.act.CopyFrom(action_to_pb(action, turn.state.rs.family))
        return turn.command

    async def _act(self, msg: Msg, turns: list[Turn]) -> None:
        logs.TABLE_ID.set(turns[0].command.table_id)  # this task's log lines name the table
        try:
            if turns and self.settings.think_seconds:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.settings.think_seconds)
            for turn in turns:
                cmd = await asyncio.to_thread(self._decide, turn)  # the search must not stall the other tables
                if cmd is None:
                    continue
                reply = await deliver(self.nc, cmd, waiting=msg.in_progress)  # through a stream's election
                if reply.WhichOneof("result") == "done":
                    self.sent += 1
                elif reply.refusal.code == Code.UNAVAILABLE:  # "send it again"
                    log.warning("bot %s: unavailable; the batch will come again", cmd.command_id)
                    await msg.nak(delay=AGAIN_SECONDS)
                    return
                else:  # refused for good: acknowledged, the turn is lost
                    log.info("bot %s: %s", cmd.command_id, reply.refusal.code)
            await msg.ack()
        except (NatsError, OSError) as e:
            log.warning("bot commands not answered (%s); the batch will come again", e or type(e).__name__)
        except Exception:  # a fault of the bot's own: said where it is seen, and the batch still comes again
            log.exception("bot of table %s failed; the batch will come again", turns[0].command.table_id)
