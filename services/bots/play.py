"""Where a bot meets the table: the one step from a table's state to what one bot seat knows.

``decide`` turns the state into that seat's knowledge at once (``knowledge_from``: its
view, the public pile and what the round's public actions said of the hands) and hands
only that to the personality; nothing of the state goes further.
"""

from __future__ import annotations

import random

from services.bots.knowledge import knowledge_from
from services.bots.reading import Reading
from services.bots.strategy import LEVELS
from services.bots.strategy import decide as personality
from services.rules.actions import Action
from services.rules.cards import Seat
from services.rules.engine import legal_actions
from services.rules.state import State


def may_act(state: State, seat: Seat) -> bool:
    """Whether ``seat`` has anything it may do now (its turn, or a chance out of turn)."""
    return next(legal_actions(state, seat), None) is not None


def decide(state: State, seat: Seat, level: str, rng: random.Random, budget_ms: float,
           reading: Reading | None = None) -> Action | None:
    """What the bot of ``level`` at ``seat`` does now, decided from its seat's knowledge only (with
    the ``reading`` of the round's public actions when its caller folded one)."""
    return personality(knowledge_from(state, seat, reading=reading), level if level in LEVELS else "medium", rng,
                       budget_ms)
