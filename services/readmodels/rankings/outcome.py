"""What a competitive match gives and takes (seed 002), pure: XP and chips per seat, and the daily top-up.

A match counts when its start fixed a stake (``Table.match_stake``: every seat an account's,
no two seats at one address). The winner gains 10 XP per player (partners split it), each
loser loses 10, and the one who left loses 10 more if the others vote so. Every seat puts the
stake in the pot; the winners share it (the first of them keeps what does not divide); a match
that ends with no winner gives every stake back.

>>> outcome(4, [0, 2], stake=50)
[(20, 50), (-10, -50), (20, 50), (-10, -50)]
>>> outcome(3, [1], stake=10)
[(-10, -10), (30, 20), (-10, -10)]
>>> outcome(3, [], stake=10)
[(0, 0), (0, 0), (0, 0)]
"""

from __future__ import annotations

OPENING_CHIPS = 1_000  # every account's first balance, and what the daily top-up brings a poorer one back to
XP_PER_PLAYER, XP_LOST, XP_PENALTY = 10, 10, 10


def outcome(players: int, winners: list[int], stake: int) -> list[tuple[int, int]]:
    """(XP, net chips) of each seat of a finished match played for ``stake``."""
    if not stake or not winners:
        return [(0, 0)] * players
    share, rest = divmod(stake * players, len(winners))
    xp = XP_PER_PLAYER * players // len(winners)
    return [(xp, share - stake + (rest if seat == winners[0] else 0)) if seat in winners else (-XP_LOST, -stake)
            for seat in range(players)]


def balance_on(balance: int, changed_on: str, day: str) -> int:
    """The chips of an account on ``day`` (a day key), its chips last moved on ``changed_on``: below the
    opening balance, the next day tops it up (one top-up a day, as the stakes of a day stay lost that day).

    >>> balance_on(300, "2026-11-30", "2026-12-01"), balance_on(300, "2026-12-01", "2026-12-01")
    (1000, 300)
    """
    return OPENING_CHIPS if balance < OPENING_CHIPS and changed_on < day else balance
