"""What a chat line may contain: plain text without control characters.

The service never interprets a line (no HTML, no markup: ``<b>oi</b>`` is stored as those
nine characters and the client renders text, never HTML). It only removes what could make
a line misbehave on screen: C0 and C1 control characters (line breaks and tabs become a
space), zero-width characters and the bidirectional embedding, override and isolate
characters (which could make a line read backwards, or pass one name off as another). A
zero-width joiner is kept between two emoji, where it joins them into one (👨‍👩‍👧).

>>> clean("  oi,\\ttudo\\r\\nbem?\\x00 ")
'oi, tudo bem?'
>>> clean("\\u202egnp.exe\\u200b")
'gnp.exe'
>>> clean("<b>oi</b> & <script>")
'<b>oi</b> & <script>'
>>> clean("e\\u0301 \\u00e9") == "\\u00e9 \\u00e9"  # NFC: one character per accented letter
True
>>> clean("\\U0001F468\\u200d\\U0001F469") == "\\U0001F468\\u200d\\U0001F469"
True
>>> clean("a\\u200db")
'ab'
"""

from __future__ import annotations

import unicodedata

ZWJ = "\u200d"
_SPACES = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")  # breaks and separators: one space each
_FORMAT = frozenset(
    "\u061c\u180e\ufeff\ufff9\ufffa\ufffb"  # Arabic letter mark, Mongolian vowel separator, BOM, annotations
    + "".join(chr(c) for c in range(0x200B, 0x2010))  # zero-width space, non-joiner, joiner; LRM, RLM
    + "".join(chr(c) for c in range(0x202A, 0x202F))  # bidi embeddings and overrides
    + "".join(chr(c) for c in range(0x2060, 0x2070))  # word joiner, invisible operators, bidi isolates
)


def _control(ch: str) -> bool:
    c = ord(ch)
    return c < 0x20 or 0x7F <= c <= 0x9F


def _emoji(ch: str) -> bool:
    """An emoji or what may end one (variation selector 16, a skin tone)."""
    return unicodedata.category(ch) == "So" or ch == "\ufe0f" or 0x1F3FB <= ord(ch) <= 0x1F3FF


def clean(text: str) -> str:
    """``text`` without control, zero-width and bidi characters, NFC-normalised, trimmed."""
    out: list[str] = []
    text = text.replace("\r\n", "\n")
    for i, ch in enumerate(text):
        if ch in _SPACES:
            out.append(" ")
        elif ch == ZWJ:
            if out and _emoji(out[-1]) and i + 1 < len(text) and _emoji(text[i + 1]):
                out.append(ch)
        elif ch not in _FORMAT and not _control(ch):
            out.append(ch)
    return unicodedata.normalize("NFC", "".join(out)).strip()
