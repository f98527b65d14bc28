"""A table's decider: a command in, the events it causes out (or ``Refused``).

``decide`` asks the rules service, through the ``Rules`` port, for everything about the game
itself; what the events do to the table is ``services.table.domain.evolve``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from maumau.v1 import actions_pb2, events_pb2, table_pb2
from services.rules.decider import ActionTaken
from services.rules.decider import evolve as evolve_match
from services.rules.engine import auto_action, may_join_late, new_match, winners_without
from services.rules.rulesets import OptionError, make_ruleset
from services.rules.state import State
from services.rules.wire import SCHEMA_VERSION, action_to_pb, options_from_pb
from services.runtime.refusals import Code, Refused
from services.runtime.settings import ABSENCE_SECONDS, EXPIRY_SECONDS, SOLO_SECONDS, STANDIN_SECONDS
from services.table.domain import MAX_STAKE, Player, Status, Table, evolve, solo_since


class Rules(Protocol):
    """What the table asks of the rules service."""

    async def decide(self, state: State, action: actions_pb2.Action) -> list[events_pb2.Event]:
        """The events of an accepted action; raises ``Refused`` with the rules' code otherwise."""
        ...

    async def new_round(self, state: State, seed: str, table_id: str, round_no: int) -> events_pb2.Event:
        ...


@dataclass
class Context:
    rules: Rules
    now: float
    new_token: Callable[[], str]  # an invitation token
    new_seed: Callable[[], str]  # 64 hex digits
    absence_seconds: float = ABSENCE_SECONDS
    expiry_seconds: float = EXPIRY_SECONDS
    standin_seconds: float = STANDIN_SECONDS
    solo_seconds: float = SOLO_SECONDS


def _stamp(ev: events_pb2.Event, cmd: table_pb2.TableCommand, now: float) -> events_pb2.Event:
    """Fill the envelope: the table, the command that caused the event, when, and who."""
    ev.schema_version = SCHEMA_VERSION
    ev.table_id, ev.command_id, ev.actor = cmd.table_id, cmd.command_id, cmd.actor
    ev.time.FromNanoseconds(int(now * 1e9))
    return ev


def envelope(cmd: table_pb2.TableCommand, now: float, **body: Any) -> events_pb2.Event:
    """A table event in its envelope, e.g. ``envelope(cmd, now, player_left=PlayerLeft(seat=1))``."""
    ((name, message),) = body.items()
    ev = events_pb2.Event(type=type(message).DESCRIPTOR.name)
    getattr(ev, name).CopyFrom(message)
    return _stamp(ev, cmd, now)


def _player_pb(p: Player) -> table_pb2.Player:
    return table_pb2.Player(identity=p.identity, name=p.name, bot=p.bot, level=p.level)


async def decide(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    """The events ``cmd`` causes at table ``t`` (the table is not changed)."""
    kind = cmd.WhichOneof("command")
    if kind is None:
        raise Refused(Code.BAD_REQUEST, "the command names no action")
    if kind == "create":
        return await _create(t, cmd, ctx)
    if t.status == Status.NONE:
        raise Refused(Code.UNKNOWN_TABLE, f"there is no table {cmd.table_id!r}")
    if kind == "join":
        return _join(t, cmd, ctx)
    if kind == "expire":
        if t.status == Status.ENDED:
            raise Refused(Code.TABLE_CLOSED, "the table has ended")
        if ctx.now - t.last_move < ctx.expiry_seconds:
            raise Refused(Code.NOT_EXPIRED, "the table has moved recently")
        return [envelope(cmd, ctx.now, match_ended=table_pb2.MatchEnded(reason="expired", by_seat=-1))]
    if kind in _CLOCK:
        return await _CLOCK[kind](t, cmd, ctx)
    if kind == "annul":  # staff, who need no seat (docs/disputes.md)
        return _annul(t, cmd, ctx)
    seat = t.seat_of(cmd.actor)
    if seat < 0 and not (cmd.actor == t.creator and kind in _CREATOR_ONLY):
        raise Refused(Code.NOT_SEATED, "only the players seated at this table may do that")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise Refused(Code.BAD_REQUEST, f"unknown command {kind!r}")
    events = await handler(t, cmd, ctx, seat)
    if seat in t.auto and events and kind != "auto_mode":  # any action of the player takes the seat back
        return [_auto_mode(cmd, ctx, seat, False, "returned"), *events]
    return events


async def _create(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    if t.status != Status.NONE:
        raise Refused(Code.TABLE_EXISTS, f"table {cmd.table_id!r} exists already")
    c = cmd.create
    try:
        options = options_from_pb(c.options)
        new_match(make_ruleset(c.ruleset, options), c.seats)
    except (OptionError, ValueError) as e:
        raise Refused(Code.BAD_OPTIONS, str(e)) from None
    if not 0 <= c.stake <= MAX_STAKE:
        raise Refused(Code.BAD_OPTIONS, f"a stake is 0 to {MAX_STAKE} chips")
    if c.stake and not c.watch:
        _may_stake(cmd, c.stake)
    creator = _person(cmd, "Jogador 1")
    created = table_pb2.TableCreated(ruleset=c.ruleset, options=c.options, seats=c.seats, creator=creator,
                                     invitation=ctx.new_token(), creator_watches=c.watch, stake=c.stake,
                                     salt=c.salt, open=c.open)
    if len(c.seated) >= c.seats or (c.watch and c.seated):
        raise Refused(Code.BAD_OPTIONS, "more players than seats")
    if c.stake and c.seated:
        raise Refused(Code.BAD_OPTIONS, "a competitive table seats its players by their own requests")
    events = [envelope(cmd, ctx.now, table_created=created)]
    events += [envelope(cmd, ctx.now, player_joined=table_pb2.PlayerJoined(player=p, seat=i + 1))
               for i, p in enumerate(c.seated)]
    if not c.start:
        return events
    seated = Table(t.table_id)  # the table as these events leave it, to start its match from
    for ev in events:
        evolve(seated, 0, ev)
    return events + await _start_match(seated, cmd, ctx)


def _may_stake(cmd: table_pb2.TableCommand, stake: int) -> None:
    """A seat at a competitive table is an account's, with chips to cover the stake that its seats in
    other competitive lobbies do not hold already (the same chips are not staked twice)."""
    if not cmd.actor_account:
        raise Refused(Code.ACCOUNT_NEEDED, "competitive tables seat accounts only")
    if cmd.actor_chips < stake:
        raise Refused(Code.NOT_ENOUGH_CHIPS, f"this table's stake is {stake} chips")
    if cmd.actor_chips - cmd.actor_reserved < stake:
        raise Refused(Code.CHIPS_RESERVED, f"{cmd.actor_reserved} of your {cmd.actor_chips} chips are held by your "
                      f"seats at other competitive tables; this table's stake is {stake}")


def _person(cmd: table_pb2.TableCommand, name: str) -> table_pb2.Player:
    return table_pb2.Player(identity=cmd.actor, name=cmd.actor_name or name, account=cmd.actor_account,
                            address=cmd.actor_address)


def _join(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    if cmd.join.invitation != t.invitation and not t.open:  # an open table takes anyone
        raise Refused(Code.BAD_INVITATION, "this invitation is not for this table")
    if t.seat_of(cmd.actor) >= 0 or len(t.players) >= t.capacity:
        return []  # seated already, or full: watching
    if t.stake:
        _may_stake(cmd, t.stake)
    player = _person(cmd, f"Jogador {len(t.players) + 1}")
    if t.status == Status.LOBBY:
        return [envelope(cmd, ctx.now, player_joined=table_pb2.PlayerJoined(player=player, seat=len(t.players)))]
    if t.status == Status.PLAYING and t.match is not None and may_join_late(t.match) and not t.match_stake:
        # a late joiner put no stake in the pot: at a match played for one, they watch
        joined = table_pb2.PlayerJoined(player=player, seat=len(t.players), late=True)
        return [envelope(cmd, ctx.now, player_joined=joined)]
    return []  # the match is under way: watching


async def _leave(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    if t.status != Status.LOBBY:
        raise Refused(Code.MATCH_STARTED, "after the start, leaving is giving up")
    if cmd.actor == t.creator:
        raise Refused(Code.CREATOR_STAYS, "the table's creator cannot leave its lobby")
    return [envelope(cmd, ctx.now, player_left=table_pb2.PlayerLeft(seat=seat))]


async def _fill_bots(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    if t.status != Status.LOBBY:
        raise Refused(Code.MATCH_STARTED, "bots take seats before the start")
    if cmd.actor != t.creator:
        raise Refused(Code.NOT_CREATOR, "only the table's creator seats bots")
    if t.stake:
        raise Refused(Code.NO_BOTS, "competitive tables seat people only")
    taken = {p.name for p in t.players}
    names = [nl for nl in make_ruleset(t.ruleset, t.options).bot_names if nl[0] not in taken]
    if cmd.fill_bots.level:
        names = [(n, cmd.fill_bots.level) for n, _ in names]
    events = []
    for k in range(t.capacity - len(t.players)):
        name, level = names[k % len(names)] if names else (f"Robô {k + 1}", "medium")
        if k >= len(names) and names:
            name = f"{name} {k // len(names) + 1}"
        bot = table_pb2.Player(identity=f"bot:{t.table_id}:{len(t.players) + k}", name=name, bot=True, level=level)
        events.append(envelope(cmd, ctx.now, player_joined=table_pb2.PlayerJoined(player=bot,
                                                                                   seat=len(t.players) + k)))
    if not events:
        raise Refused(Code.TABLE_FULL, "every seat is taken")
    return events


async def _deal(t: Table, cmd: table_pb2.TableCommand, ctx: Context, state: State) -> events_pb2.Event:
    dealt = await ctx.rules.new_round(state, ctx.new_seed(), t.table_id, t.round_no)
    return _stamp(dealt, cmd, ctx.now)


async def _start_match(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    rs = make_ruleset(t.ruleset, t.options)
    if len(t.players) < rs.min_seats:
        raise Refused(Code.NOT_ENOUGH_PLAYERS, f"{t.ruleset} needs at least {rs.min_seats} players")
    started = envelope(cmd, ctx.now, match_started=table_pb2.MatchStarted(match_no=t.match_no + 1,
                                                                         category=t.seated_category(),
                                                                         stake=t.seated_stake()))
    fresh = new_match(rs, len(t.players))
    return [started, await _deal(t, cmd, ctx, fresh)]


async def _start(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    if t.status != Status.LOBBY:
        raise Refused(Code.MATCH_STARTED, "the match has started")
    if cmd.actor != t.creator:
        raise Refused(Code.NOT_CREATOR, "only the table's creator starts the match")
    return await _start_match(t, cmd, ctx)


async def _move_seat(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    """The creator, before the start, makes two seated players change places (teams: partners sit opposite)."""
    if t.status != Status.LOBBY:
        raise Refused(Code.MATCH_STARTED, "players change seats before the start")
    if cmd.actor != t.creator:
        raise Refused(Code.NOT_CREATOR, "only the table's creator moves players")
    a, b = cmd.move_seat.seat, cmd.move_seat.to
    if not (0 <= a < len(t.players) and 0 <= b < len(t.players)) or a == b:
        raise Refused(Code.BAD_SEAT, "a player moves to another seated player's seat")
    return [envelope(cmd, ctx.now, seat_moved=table_pb2.SeatMoved(seat=a, to=b))]


def _playing(t: Table) -> State:
    if t.status != Status.PLAYING or t.match is None:
        raise Refused(Code.NOT_PLAYING, "no match is being played at this table")
    return t.match


async def _act(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    match = _playing(t)
    if cmd.act.seat != seat:
        raise Refused(Code.WRONG_SEAT, "a player acts only for their own seat")
    events = await ctx.rules.decide(match, cmd.act)
    return [_stamp(e, cmd, ctx.now) for e in events]


async def _next_round(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    match = _playing(t)
    if not match.round_over:
        raise Refused(Code.ROUND_IN_PLAY, "the round is still being played")
    return [await _deal(t, cmd, ctx, match)]


async def _give_up(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    match = _playing(t)
    ended = table_pb2.MatchEnded(reason="gave_up", by_seat=seat, winners=winners_without(match, seat))
    return [envelope(cmd, ctx.now, match_ended=ended)]


async def _claim_absence(t: Table, cmd: table_pb2.TableCommand, ctx: Context,
                         seat: int) -> list[events_pb2.Event]:
    match = _playing(t)
    if match.round_over or match.turn == seat:
        raise Refused(Code.NOT_ABSENT, "nobody is keeping the table waiting")
    if ctx.now - t.last_move < ctx.absence_seconds:
        raise Refused(Code.NOT_ABSENT, "the player on turn has not been away long enough")
    absent = match.turn
    ended = table_pb2.MatchEnded(reason="absence", by_seat=absent, winners=winners_without(match, absent))
    return [envelope(cmd, ctx.now, match_ended=ended)]


async def _rematch(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    """An answer to the rematch: open until every person accepts (it starts) or one declines (it closes)."""
    if t.status != Status.OVER or t.rematch_closed:
        raise Refused(Code.NO_REMATCH, "a rematch follows a match played to its end, until someone declines")
    if cmd.rematch.accept and t.stake:  # a rematch takes the stakes again: the chips must be there again
        _may_stake(cmd, t.stake)
    vote = envelope(cmd, ctx.now, rematch_voted=table_pb2.RematchVoted(seat=seat, accept=cmd.rematch.accept))
    humans = {i for i, p in enumerate(t.players) if not p.bot}
    accepted = (t.rematch | {seat}) if cmd.rematch.accept else (t.rematch - {seat})
    if cmd.rematch.accept and humans <= accepted:
        return [vote, *await _start_match(t, cmd, ctx)]
    return [vote]


def _timer(t: Table, seq: int, ctx: Context, after: float) -> None:
    """A clock's timer fires only for the table as it was set from, and only once its time has come."""
    if seq != t.seq:
        raise Refused(Code.STALE_TIMER, "the table has moved since the timer was set")
    if ctx.now - t.last_move < after:
        raise Refused(Code.NOT_DUE, "the time has not come yet")


def _auto_mode(cmd: table_pb2.TableCommand, ctx: Context, seat: int, on: bool, reason: str) -> events_pb2.Event:
    return envelope(cmd, ctx.now, auto_mode_changed=table_pb2.AutoModeChanged(seat=seat, on=on, reason=reason))


async def _set_auto_mode(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    """A player puts their seat in automatic mode, or takes it back ("Voltar a jogar"); asked twice, nothing more."""
    _playing(t)
    on = cmd.auto_mode.on
    if on == (seat in t.auto):
        return []
    return [_auto_mode(cmd, ctx, seat, on, "chosen" if on else "returned")]


async def _turn_timeout(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    """The system plays for the seat on turn: at once in automatic mode, else when the turn timer ran out.

    A person's second timeout in a row turns their seat's automatic mode on.
    """
    match = _playing(t)
    if match.round_over:
        raise Refused(Code.STALE_TIMER, "nobody is on turn")
    seat, events = match.turn, list[events_pb2.Event]()
    if seat in t.auto:
        _timer(t, cmd.turn_timeout.seq, ctx, 0.0)
    else:
        seconds = t.options.get("turn_seconds")
        if not seconds:
            raise Refused(Code.NO_TURN_TIMER, "this table plays without a turn timer")
        _timer(t, cmd.turn_timeout.seq, ctx, seconds)
        events.append(envelope(cmd, ctx.now, turn_timed_out=table_pb2.TurnTimedOut(seat=seat)))
        if seat in t.timed_out and not t.players[seat].bot:
            events.append(_auto_mode(cmd, ctx, seat, True, "timeouts"))
    while not match.round_over and match.turn == seat and len(events) < 8:  # a draw may leave a pass to make
        action = auto_action(match, seat)
        decided = await ctx.rules.decide(match, action_to_pb(action, match.rs.family))
        events += decided
        match = evolve_match(match, ActionTaken(action))
    return [_stamp(e, cmd, ctx.now) for e in events]


async def _notice_absence(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    match = _playing(t)
    if match.round_over or t.absent_seat >= 0:
        raise Refused(Code.STALE_TIMER, "nobody is keeping the table waiting")
    _timer(t, cmd.notice_absence.seq, ctx, ctx.absence_seconds)
    return [envelope(cmd, ctx.now, absence_noticed=table_pb2.AbsenceNoticed(seat=match.turn))]


async def _penalise(t: Table, cmd: table_pb2.TableCommand, ctx: Context, seat: int) -> list[events_pb2.Event]:
    if t.status != Status.ENDED or not t.match_stake or t.end_reason not in ("gave_up", "absence"):
        raise Refused(Code.NO_PENALTY, "only the one who left a competitive match may be penalised")
    if seat == t.ended_by:
        raise Refused(Code.NO_PENALTY, "the one who left does not vote")
    if t.penalised or seat in t.penalty_votes or t.match_no in t.annulled:
        raise Refused(Code.NO_PENALTY, "this vote is over")
    vote = envelope(cmd, ctx.now, penalty_voted=table_pb2.PenaltyVoted(seat=seat, penalise=cmd.penalise.penalise))
    others = [i for i, p in enumerate(t.players) if i != t.ended_by and not p.bot]
    yes = sum(t.penalty_votes.values()) + cmd.penalise.penalise
    if 2 * yes > len(others):
        return [vote, envelope(cmd, ctx.now, leaver_penalised=table_pb2.LeaverPenalised(seat=t.ended_by))]
    return [vote]


def _annul(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    """Staff upholding a dispute annul a finished match (the gateway vouches for ``actor_staff``)."""
    if not cmd.actor_staff:
        raise Refused(Code.NOT_STAFF, "only staff annul a match")
    n = cmd.annul.match_no
    if not 1 <= n <= t.match_no:
        raise Refused(Code.BAD_MATCH, f"this table has no match {n}")
    if n == t.match_no and t.status == Status.PLAYING:
        raise Refused(Code.MATCH_IN_PLAY, "a match is annulled once it has ended")
    if n in t.annulled:
        raise Refused(Code.ANNULLED, "this match is annulled already")
    annulled = table_pb2.MatchAnnulled(match_no=n, dispute_id=cmd.annul.dispute_id)
    return [envelope(cmd, ctx.now, match_annulled=annulled)]


async def _presence(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    seat, here = cmd.presence.seat, cmd.presence.here
    if not 0 <= seat < len(t.players) or t.players[seat].bot or here != (seat in t.away):
        raise Refused(Code.STALE_PRESENCE, "the table knows it already")
    if not here:
        return [envelope(cmd, ctx.now, player_away=table_pb2.PlayerAway(seat=seat))]
    events = [envelope(cmd, ctx.now, player_back=table_pb2.PlayerBack(seat=seat))]
    if seat in t.stood_in and seat in t.auto:
        back = table_pb2.AutoModeChanged(seat=seat, on=False, reason="returned")
        events.append(envelope(cmd, ctx.now, auto_mode_changed=back))
    return events


async def _stand_in(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    _playing(t)
    if cmd.stand_in.seq != t.seq or not t.options.get("turn_seconds"):
        raise Refused(Code.STALE_TIMER, "the table has moved since the timer was set")
    due = [seat for seat, since in sorted(t.away.items())
           if seat not in t.auto and ctx.now - since >= ctx.standin_seconds]
    if not due:
        raise Refused(Code.NOT_DUE, "nobody has been away long enough")
    return [envelope(cmd, ctx.now, auto_mode_changed=table_pb2.AutoModeChanged(seat=seat, on=True, reason="away"))
            for seat in due]


async def _abandon(t: Table, cmd: table_pb2.TableCommand, ctx: Context) -> list[events_pb2.Event]:
    since = solo_since(t)
    if since is None or not cmd.abandon.nobody_watching:
        raise Refused(Code.NOT_ABANDONED, "someone is at this table")
    if ctx.now - since < ctx.solo_seconds:
        raise Refused(Code.NOT_DUE, "its people have not been away long enough")
    return [envelope(cmd, ctx.now, match_ended=table_pb2.MatchEnded(reason="abandoned", by_seat=-1))]


_CLOCK = {"presence": _presence, "stand_in": _stand_in, "abandon": _abandon,
          "turn_timeout": _turn_timeout, "notice_absence": _notice_absence}

_CREATOR_ONLY = frozenset({"fill_bots", "start", "move_seat"})  # what a creator who only watches may still do

_HANDLERS = {
    "leave": _leave, "fill_bots": _fill_bots, "start": _start, "act": _act, "next_round": _next_round,
    "give_up": _give_up, "claim_absence": _claim_absence, "rematch": _rematch,
    "penalise": _penalise, "auto_mode": _set_auto_mode, "move_seat": _move_seat,
}
