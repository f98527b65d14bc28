"""A command refused: its code says why, its message says it to a person. Nothing was stored.

>>> str(Refused("not_seated", "only the players seated at this table may do that"))
'only the players seated at this table may do that'
"""

from __future__ import annotations


class Refused(Exception):
    """A command a service refuses; it appends nothing."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
