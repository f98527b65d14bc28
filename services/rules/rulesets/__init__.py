"""The five rulesets, by name: one class each, overriding a few hooks of ``Ruleset``.

Everything a ruleset changes lives in this package: the hooks and the options every table
takes (``base``), the French-suited tables (``french``), the colour deck (``colors``) and Oito Maluco (``crazy8``).
A new ruleset is one more class here. The turn machinery that is the same everywhere is in
``engine``.

>>> rs = make_ruleset("classic32", {})
>>> rs.name, rs.hand_size, rs.announce_mode, len(rs.deck(4))
('classic32', 5, 'automatic', 32)
>>> make_ruleset("classic52", {"ace": "skip_all"}).ace
'skip_all'
"""

from __future__ import annotations

from typing import Any

from services.rules.rulesets.base import (
    AUTOMATIC,
    CHALLENGE_MODE,
    HOUSE_OPTIONS,
    NEXT_PLAYER,
    PLATFORM_OPTIONS,
    OptionError,
    Ruleset,
)
from services.rules.rulesets.colors import Colors108
from services.rules.rulesets.crazy8 import Crazy8
from services.rules.rulesets.french import Candeias, Classic32, Classic52, French

__all__ = ["AUTOMATIC", "CHALLENGE_MODE", "HOUSE_OPTIONS", "NEXT_PLAYER", "PLATFORM_OPTIONS", "RULESETS", "Candeias",
           "Classic32", "Classic52", "Colors108", "Crazy8", "French", "OptionError", "Ruleset", "make_ruleset"]

RULESETS: dict[str, type[Ruleset]] = {r.name: r for r in (Classic32, Classic52, Candeias, Colors108, Crazy8)}


_MADE: dict[tuple[str, tuple[tuple[str, str, Any], ...]], Ruleset] = {}


def make_ruleset(name: str, options: dict[str, Any]) -> Ruleset:
    """The ruleset ``name`` with ``options`` (shared: rulesets are immutable once built)."""
    try:
        # the type is part of the key: 1 == True hashes alike, but only one of them is a valid flag
        key = (name, tuple(sorted((k, type(v).__name__, v) for k, v in options.items())))
        made = _MADE.get(key)
    except TypeError:  # an unhashable option value: let the ruleset refuse it
        key, made = None, None
    if made is not None:
        return made
    try:
        cls = RULESETS[name]
    except KeyError:
        raise OptionError(f"unknown ruleset {name!r}; one of {sorted(RULESETS)}") from None
    made = cls(options)
    if key is not None and len(_MADE) < 1024:
        _MADE[key] = made
    return made
