"""Account names: what a person sees, and the key that makes two spellings one name.

>>> normalise("  Zoë ") == normalise("ZOE") == normalise("ｚｏｅ") == normalise("zo\u200be") == "zoe"
True
>>> display_name("  Ana   Maria ")
'Ana Maria'
>>> name_key("Zoë") == name_key("zoe") != name_key("zoey")
True
"""

from __future__ import annotations

import hashlib
import unicodedata

from services.runtime.refusals import Code, Refused

MIN_CHARS, MAX_CHARS = 2, 24  # a display name's length, as the table shows names


def _shown(name: str) -> str:
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())


def display_name(name: str) -> str:
    """The name as shown: printable, its spaces collapsed; refused when too short or too long."""
    shown = _shown(name)
    if not MIN_CHARS <= len(shown) <= MAX_CHARS:
        raise Refused(Code.BAD_NAME, f"a name has {MIN_CHARS} to {MAX_CHARS} characters")
    return shown


def normalise(name: str) -> str:
    """One spelling for names people would take for the same: NFKC, case folded, accents stripped.

    NFKC first (full-width and compatibility letters become plain ones), then casefold
    (``ß`` becomes ``ss``), then the combining marks that NFD splits off are dropped.
    """
    folded = unicodedata.normalize("NFKC", _shown(name)).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded) if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare)


def name_key(name: str) -> str:
    """The key claiming a name: a hash, since key-value keys are NATS subjects (ASCII only)."""
    return "name." + hashlib.sha256(normalise(name).encode()).hexdigest()[:32]
