"""Where a turn stands: the phase of the seat on turn, and the kind of draw pending.

>>> Phase.DRAWN.word, Phase.from_word("bounce") is BOUNCE
('drawn', True)
>>> NORMAL == 0, Pending.NONE == 0
(True, True)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Phase(IntEnum):
    """The phase of the seat on turn; a view spells it as ``word``."""

    NORMAL = 0  # start of a turn
    DRAWN = 1  # drew this turn; may play what the ruleset allows after a draw, or pass
    BURNED = 2  # candeias: burned; may play one continuation card, pass, or draw when it has none
    CHOOSE = 3  # classic52: the dealer chooses the suit for a Jack starter
    BOUNCE = 4  # eight_bounce: skipped by an 8; may play another 8 or pass

    @property
    def word(self) -> str:
        return self.name.lower()

    @classmethod
    def from_word(cls, word: str) -> Phase:
        return cls[word.upper()]


class Pending(IntEnum):
    """What made the draw pending on the seat on turn (``NONE`` when nothing is pending)."""

    NONE = 0
    SEVEN = 1  # a 7 chain
    PLUS2 = 2  # a +2 chain
    WILD4 = 3  # a wild draw four, which may be challenged
    NINE = 4  # nine_draws: a 9


# The members again as module globals, compared by identity (``phase is NORMAL``): the turn
# machinery tests them on every action, and loading a global and testing identity costs a
# fraction of an enum attribute and of ``==`` on an IntEnum (in CPython 3.11 ``Pending.NONE``
# costs as much as two dozen bytecodes: an attribute of a class is not specialized). A state
# holds members only.
# ``Final``: compiled by mypyc (make setup), each a constant of the module, not a lookup by name.
NORMAL: Final = Phase.NORMAL
DRAWN: Final = Phase.DRAWN
BURNED: Final = Phase.BURNED
CHOOSE: Final = Phase.CHOOSE
BOUNCE: Final = Phase.BOUNCE
NONE: Final = Pending.NONE
SEVEN: Final = Pending.SEVEN
PLUS2: Final = Pending.PLUS2
WILD4: Final = Pending.WILD4
NINE: Final = Pending.NINE
