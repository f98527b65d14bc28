"""The rules engine's version, stored with every batch of events it decided (docs/record.md).

A record is verified by asking this engine to decide it again, so a stored batch can only
be checked by an engine that decides exactly as the one that stored it. Change
``ENGINE_VERSION`` in the same commit as any change to what ``decide``, ``deal`` or a
ruleset produces for some state and action (a rule, a score, a shuffle, a default); keep
an old version in ``REPRODUCED`` only when this engine still decides every record of that
version identically (a new ruleset, say, changes nothing for the old ones).
"""

from __future__ import annotations

ENGINE_VERSION = "1"
REPRODUCED = frozenset({ENGINE_VERSION})  # the versions whose records this engine re-decides exactly
