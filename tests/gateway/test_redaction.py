"""Every frame a viewer receives holds no card of another seat's hand and nothing of the stock order."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.frames import BatchFrames, events_frame, state_frame
from maumau.v1 import actions_pb2, events_pb2, table_pb2
from services.rules.decider import deal, decide
from services.rules.engine import legal_actions
from services.rules.wire import event_to_pb
from services.table.domain import Player, Status, Table, evolve
from services.table.viewing import redact_event, table_info


def _stamped(ev: events_pb2.Event, actor: str) -> events_pb2.Event:
    ev.actor = actor
    ev.time.FromSeconds(1_800_000_000)
    return ev


def _table(ruleset: str, seats: int) -> tuple[Table, list[events_pb2.EventBatch]]:
    t, batches = Table("t"), []
    created = events_pb2.Event(type="TableCreated")
    created.table_created.CopyFrom(table_pb2.TableCreated(ruleset=ruleset, seats=seats,
                                                          creator=table_pb2.Player(identity="p0", name="P0")))
    batch = [created]
    for i in range(1, seats):
        joined = events_pb2.Event(type="PlayerJoined")
        joined.player_joined.CopyFrom(table_pb2.PlayerJoined(player=table_pb2.Player(identity=f"p{i}", name=f"P{i}"),
                                                             seat=i))
        batch.append(joined)
    started = events_pb2.Event(type="MatchStarted")
    started.match_started.match_no = 1
    batch.append(started)
    for ev in batch:
        evolve(t, 1, _stamped(ev, "p0"))
    batches.append(events_pb2.EventBatch(events=batch))
    return t, batches


def _card_names(frame: dict[str, Any], names: set[str]) -> set[str]:
    found: set[str] = set()

    def walk(x: Any, key: str = "") -> None:
        if isinstance(x, str) and x in names and key not in ("follow", "choose", "ruleset", "do", "type"):
            found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)

    walk(frame)
    return found


def _check(t: Table, frame: dict[str, Any], viewer: int | None, played: set[str]) -> None:
    assert t.match is not None
    fam = t.match.rs.family
    names = {fam.name(c) for c in t.match.rs.deck(t.match.n)}
    visible = _card_names(frame, names)
    allowed = set(played) | {fam.name(t.match.discard[-1])}
    if viewer is not None:
        allowed |= set(fam.names(t.match.hands[viewer]))
    if t.match.round_over:
        allowed |= {c for h in t.match.hands for c in fam.names(h)}
    assert visible <= allowed, f"viewer {viewer} received {visible - allowed}"
    text = json.dumps(frame)
    stock = fam.names(t.match.stock)
    if len(stock) >= 3:
        assert json.dumps(stock) not in text and json.dumps(stock[::-1]) not in text
    assert t.match.seed is None or t.match.round_over or t.match.seed not in text


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([("classic32", 3), ("classic52", 4), ("candeias", 3), ("colors108", 4)]),
       st.integers(0, 10**9))
def test_no_frame_shows_a_card_its_viewer_may_not_see(game: tuple[str, int], seed: int) -> None:
    ruleset, seats = game
    rng = random.Random(seed)
    t, _ = _table(ruleset, seats)
    assert t.match is not None
    dealt = deal(t.match, hashlib.sha256(str(seed).encode()).hexdigest(), "t", 0)
    batches = [events_pb2.EventBatch(events=[_stamped(event_to_pb(dealt, t.match.rs.family, "t"), "p0")])]
    played: set[str] = set()
    for step in range(400):
        batch = batches[-1]
        for ev in batch.events:
            evolve(t, step + 2, ev)
        assert t.match is not None
        fam = t.match.rs.family
        played |= set(fam.names(t.match.discard))
        shared = BatchFrames(t, step + 2, batch)  # what the sockets get: built from parts shared by the viewers
        for viewer in [None, *range(seats)]:
            identity = "nobody" if viewer is None else f"p{viewer}"
            frame = events_frame(t, step + 2, batch, identity)
            _check(t, frame, viewer, played)
            assert json.loads(shared.text_for(identity)) == frame
            _check(t, state_frame(t, identity), viewer, played)
        if t.match.round_over:
            break
        seat = t.match.turn
        options = list(legal_actions(t.match, seat))
        events = decide(t.match, options[rng.randrange(len(options))])
        batches.append(events_pb2.EventBatch(events=[_stamped(event_to_pb(e, fam, "t"), f"p{seat}") for e in events]))


def test_the_table_says_who_ended_its_match_to_a_reloaded_client() -> None:
    ended = Table("t1", status=Status.ENDED, end_reason="gave_up", ended_by=2)
    assert table_info(ended, "someone")["ended_by"] == 2
    assert table_info(Table("t2", status=Status.PLAYING), "someone")["ended_by"] is None


def test_an_ace_played_with_company_shows_both_cards() -> None:
    ev = events_pb2.Event(type="ActionTaken")
    ev.action_taken.action.CopyFrom(actions_pb2.Action(**{"seat": 1, "do": "play", "card": "AH", "with": "9H"}))
    shown = redact_event(ev, None)
    assert shown["action"] == {"seat": 1, "do": "play", "card": "AH", "with": "9H", "move": "AH&9H"}


def test_a_competitive_table_shows_its_stake_and_the_vote_on_the_one_who_left() -> None:
    people = [Player(identity=f"p{i}", name=f"P{i}", account=True) for i in range(3)]
    t = Table("t3", status=Status.ENDED, end_reason="gave_up", ended_by=1, stake=50, match_stake=50, players=people,
              penalty_votes={2: True})
    info = table_info(t, "p0")
    assert (info["stake"], info["match_stake"]) == (50, 50)
    assert info["penalty"] == {"leaver": 1, "penalised": False, "voters": [0, 2],
                               "votes": [{"seat": 2, "penalise": True}]}
    given_up = Table("t4", status=Status.ENDED, end_reason="gave_up", ended_by=1, stake=50)
    assert table_info(given_up, "p0")["penalty"] is None
    assert table_info(Table("t5", status=Status.OVER, stake=50, match_stake=50), "p0")["penalty"] is None
    voted = events_pb2.Event(type="PenaltyVoted")
    voted.penalty_voted.CopyFrom(table_pb2.PenaltyVoted(seat=2, penalise=True))
    assert redact_event(voted, None) == {"type": "PenaltyVoted", "time": 0, "seat": 2, "penalise": True}
    penalised = events_pb2.Event(type="LeaverPenalised")
    penalised.leaver_penalised.CopyFrom(table_pb2.LeaverPenalised(seat=1))
    assert redact_event(penalised, 0) == {"type": "LeaverPenalised", "time": 0, "seat": 1}


def test_viewers_alike_share_one_frame_and_each_gets_what_it_alone_would() -> None:
    t, _ = _table("classic32", 3)
    assert t.match is not None
    dealt = deal(t.match, "ab" * 32, "t", 0)
    batch = events_pb2.EventBatch(events=[_stamped(event_to_pb(dealt, t.match.rs.family, "t"), "p0")])
    for ev in batch.events:
        evolve(t, 2, ev)
    frames = BatchFrames(t, 2, batch)
    viewers = ["p0", "p1", "p2", "spectator-a", "spectator-b"]
    texts = {v: frames.text_for(v) for v in viewers}
    assert all(json.loads(texts[v]) == events_frame(t, 2, batch, v) for v in viewers)
    assert texts["spectator-a"] is texts["spectator-b"]  # built and serialized once
    assert len({texts[v] for v in ("p0", "p1", "p2", "spectator-a")}) == 4  # each seat its own hand
