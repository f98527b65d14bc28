"""What each special card does, in words short enough to print on the card: found by playing it.

Each kind of card of a ruleset's deck (a French rank, a colour card's value) is played by seat 0 of
a probe table of four seats, through the ruleset's own ``effect``; what changed says what the card
does: a draw pending (``+2``), the next seat skipped, the direction turned, the same player again,
the others or the previous player drawing, a suit or colour to choose. The catalog sends these
words with each ruleset (``GET /api/rulesets``), for its defaults and for each option that changes
them, so that the client never guesses a card's power from a ruleset's name.

>>> from services.rules.rulesets import RULESETS
>>> e = card_effects(RULESETS["classic32"]({}))
>>> e["7"]["pt-BR"], e["8"]["pt-BR"], e["J"]["pt-BR"], "9" in e
('+2', 'Pula a vez', 'Escolhe o naipe', False)
>>> e = card_effects(RULESETS["colors108"]({}))
>>> e["rev"]["en"], e["W+4"]["pt-BR"], "5" in e
('Reverse', '+4 · Escolhe a cor', False)
>>> card_effects(RULESETS["candeias"]({}))["8"]["pt-BR"]
'Anterior compra 2'
"""

from __future__ import annotations

from typing import Any

from services.rules.actions import takes_choice
from services.rules.cards import COLORS, Card
from services.rules.rulesets.base import Ruleset
from services.rules.state import State

Label = dict[str, str]
_SEATS = 4


def _l(pt: str, en: str) -> Label:
    return {"pt-BR": pt, "en": en}


def kind(rs: Ruleset, card: Card) -> str:
    """A card's name without its suit or colour: ``7`` for ``7H``, ``+2`` for ``R+2``, ``W+4`` as it is."""
    name = rs.family.name(card)
    if rs.family is COLORS:
        return name if name.startswith("W") else name[1:]
    return name[:-1]


def _probe(rs: Ruleset, card: Card) -> tuple[State, int, int]:
    """A four-seat table where seat 0 plays ``card`` on a card of its suit: (the state after, next seat, phase)."""
    s = State(rs, _SEATS)
    deck = rs.deck(rs.max_seats)
    s.hands = [list(deck[:3]) for _ in range(_SEATS)]
    s.stock = list(deck[3:])
    s.discard = [card]
    s.turn = 0
    s.follow = -1
    nxt, phase = rs.effect(s, 0, card, 0)
    return s, nxt, int(phase)


def _parts(rs: Ruleset, card: Card) -> list[Label]:
    s, nxt, phase = _probe(rs, card)
    parts: list[Label] = []
    if s.pending:
        parts.append(_l(f"+{s.pending}", f"+{s.pending}"))
    if s.direction != 1:
        parts.append(_l("Inverte", "Reverse"))
    elif nxt == 0:
        parts.append(_l("Joga de novo", "Play again"))
    elif nxt == 2 or phase != 0:  # the next seat skipped (or, with the 8 bounce, asked to pass the skip on)
        parts.append(_l("Pula a vez", "Skip"))
    drew = [len(h) - 3 for h in s.hands]
    if all(d == 1 for d in drew[1:]):
        parts.append(_l("Todos compram 1", "All draw 1"))
    elif drew[_SEATS - 1] > 0:
        parts.append(_l(f"Anterior compra {drew[-1]}", f"Previous draws {drew[-1]}"))
    if takes_choice(card, rs.family):
        colour = rs.family is COLORS
        parts.append(_l("Escolhe a cor", "Choose colour") if colour else _l("Escolhe o naipe", "Choose suit"))
    return parts


def card_effects(rs: Ruleset) -> dict[str, Label]:
    """What each kind of special card of ``rs`` does, in words ("+2", "Pula a vez"); plain cards left out."""
    out: dict[str, Label] = {}
    for card in sorted(set(rs.deck(rs.max_seats))):
        k = kind(rs, card)
        if k in out:
            continue
        parts = _parts(rs, card)
        if parts:
            out[k] = {lang: " · ".join(p[lang] for p in parts) for lang in ("pt-BR", "en")}
    return out


def option_effects(cls: type[Ruleset], options: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Label | None]]]:
    """For each option value that changes what a card does: ``{option: {value as JSON text: {kind: words or
    None (no longer special)}}}`` — the client lays a table's options over the defaults."""
    plain = card_effects(cls({}))
    out: dict[str, dict[str, dict[str, Label | None]]] = {}
    for o in options:
        values = [v["value"] for v in o.get("values", [])] or [o.get("on"), o.get("off")]
        for v in values:
            if v is None or v == o.get("default"):
                continue
            try:
                changed = card_effects(cls({o["name"]: v}))
            except ValueError:
                continue
            diff: dict[str, Label | None] = {k: e for k, e in changed.items() if plain.get(k) != e}
            diff.update({k: None for k in plain if k not in changed})
            if diff:
                out.setdefault(o["name"], {})[_key(v)] = diff
    return out


def _key(value: Any) -> str:
    """An option's value as the JSON text a client compares with (``true``, ``3``, ``"skip_all"``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return str(value)
