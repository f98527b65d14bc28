"""The moves ``wire`` keeps read and written: each read as its own deck reads it, and the set kept bounded."""

from __future__ import annotations

import pytest

from maumau.v1 import actions_pb2
from services.rules import wire
from services.rules.actions import Action, BadRequest, parse_action
from services.rules.cards import FRENCH
from services.rules.rulesets.crazy8 import EIGHTS


def test_a_move_read_in_one_deck_is_read_again_as_the_other_deck_reads_it() -> None:
    eight_asks = actions_pb2.Action(seat=1, move="8H=S")
    assert wire.action_from_pb(eight_asks, EIGHTS) == Action("play", 1, EIGHTS.parse("8H"), 3)
    with pytest.raises(BadRequest):  # a French 8 asks for no suit: what crazy eights' reading kept is not this one
        wire.action_from_pb(eight_asks, FRENCH)
    assert wire.action_from_pb(actions_pb2.Action(seat=2, move="8H=S"), EIGHTS).seat == 2


def test_more_moves_than_are_kept_are_each_read_and_written_right_and_the_kept_stay_bounded() -> None:
    for seat in range(wire.KEPT + 10):  # a seat number each: every move a new one to keep
        read = wire.action_from_pb(actions_pb2.Action(seat=seat, move="JC=H!"), FRENCH)
        assert read == parse_action({"do": "play", "seat": seat, "card": "JC", "choose": "H", "announce": "mau"},
                                    FRENCH)
        assert wire.action_to_pb(read, FRENCH) == actions_pb2.Action(
            seat=seat, do="play", card="JC", choose="H", announce="mau", move="JC=H!")
        assert len(wire._parsed) <= wire.KEPT and len(wire._written) <= wire.KEPT
