"""What each ruleset offers a table's creator, read from the rules engine: ``GET /api/rulesets``.

The engine (``rulesets``) is the one source of rule data: seat ranges, which options a
ruleset takes and which values, their defaults, the cards' points, the default goal. This
module only reads it, partly by asking the ruleset classes what they do (a default is the
value whose explicit setting changes nothing; an option a ruleset refuses in every value
but one is not offered), and adds the words a player reads, in pt-BR and English, next to
the data they label. The description is pure data, the same for everyone.

>>> rs = {r["name"]: r for r in catalog()["rulesets"]}
>>> rs["classic32"]["seats"], rs["classic32"]["label"]["pt-BR"], rs["classic32"]["goal"]["4"]
({'min': 2, 'max': 8}, 'Clássico 32', 400)
>>> rs["classic32"]["turns"], rs["classic52"]["turns"]
('counter_clockwise', 'clockwise')
>>> jack = next(o for o in rs["classic32"]["options"] if o["name"] == "jack_on_jack")
>>> jack["kind"], jack["default"], jack["on"], jack["off"], jack["house"]
('flag', False, True, False, True)
>>> [o["name"] for o in rs["candeias"]["options"] if not o["house"]], rs["candeias"]["rounds"]
(['turn_seconds'], 5)
>>> "eight_bounce" in [o["name"] for o in rs["candeias"]["options"]]
False
>>> rs["classic32"]["points"]["JH"], rs["candeias"]["points"]["KD"], rs["colors108"]["points"]["W+4"]
(20, 13, 50)
>>> rs["classic32"]["effects"]["7"]["pt-BR"], rs["classic32"]["option_effects"]["nine_draws"]["3"]["9"]["pt-BR"]
('+2', '+3')
>>> changes = rs["classic52"]["option_effects"]
>>> changes["ace"]["skip_all"]["A"]["en"], changes["seven_draws"]["0"]
('Play again', {'7': None})
>>> rs["colors108"]["call"], rs["classic32"]["call"], rs["candeias"]["round_title"]["pt-BR"]
('last', None, 'Conferência da Rodada')
>>> rs["crazy8"]["label"]["pt-BR"], [o["name"] for o in rs["crazy8"]["options"]], rs["crazy8"]["call"]
('Oito Maluco', ['special_cards', 'turn_seconds'], None)
"""

from __future__ import annotations

import functools
from typing import Any

from services.rules import rulesets
from services.rules.effects import card_effects, option_effects
from services.rules.rulesets import RULESETS, OptionError, Ruleset
from services.rules.state import State

Label = dict[str, str]  # language -> words: {"pt-BR": ..., "en": ...}


def _l(pt: str, en: str) -> Label:
    return {"pt-BR": pt, "en": en}


RULESET_LABELS: dict[str, Label] = {
    "classic32": _l("Clássico 32", "Classic 32"),
    "classic52": _l("Clássico 52", "Classic 52"),
    "candeias": _l("Candeias", "Candeias"),
    "colors108": _l("Cores 108", "Colours 108"),
    "crazy8": _l("Oito Maluco", "Crazy Eights"),
}

# How a table of a ruleset is shown where its rules leave it open, so that no client names a ruleset:
# the one word its players call for every announcement (none: "Mau" at one card left, "Mau-Mau"
# going out) and the title of its round-end board (none: "Fim da rodada").
CALLS: dict[str, str] = {"candeias": "maumau", "colors108": "last"}
ROUND_TITLES: dict[str, Label] = {"candeias": _l("Conferência da Rodada", "Round review")}

# The options in the order the lobby shows them (the ruleset's own first, then the house rules).
OPTION_LABELS: dict[str, Label] = {
    "scoring": _l("Pontuação", "Scoring"),
    "quick": _l("Partida rápida: ganha quem bater primeiro, sem pontos",
                "Quick game: the first one out wins, no points"),
    "teams": _l("Jogo em duplas (4 jogadores, parceiros frente a frente)", "Teams (4 players, partners sit opposite)"),
    "target_points": _l("Meta de pontos", "Points goal"),
    "deck": _l("Baralho", "Deck"),
    "ace": _l("O ás", "The Ace"),
    "special_cards": _l("Cartas especiais: a dama pula, o ás inverte, o 2 faz o próximo comprar 2",
                        "Special cards: the Queen skips, the Ace reverses, a 2 makes the next player draw 2"),
    "seven_chain_limit": _l("Cadeia do 7", "7 chain"),
    "turn_seconds": _l("Tempo de jogada", "Turn time"),
    "seven_stacking": _l("O 7 acumula: dá para responder um 7 com outro 7",
                         "The 7 stacks: a 7 may be answered with a 7"),
    "eight_bounce": _l("O 8 devolvido: quem recebe um 8 pode passar o pulo adiante com outro 8",
                       "8 bounce: a player skipped by an 8 may pass the skip on with another 8"),
    "nine_draws": _l("O 9 faz o próximo comprar 3", "A 9 makes the next player draw 3"),
    "jack_on_jack": _l("Valete sobre valete vale", "Jack on Jack allowed"),
    "mau_mau_call": _l('Dizer "Mau-Mau" ao bater', 'Say "Mau-Mau" when going out'),
    "mau_penalty": _l("Castigo por esquecer o Mau", 'Penalty for a missed "Mau"'),
    "hand_size": _l("Cartas na mão", "Cards dealt"),
    "ace_with_company": _l("O ás só pode ser jogado junto com mais uma carta",
                           "The Ace may only be played together with a second card"),
    "seven_draws": _l("O 7 faz o próximo comprar 2 (desligado: o 7 é uma carta comum, para as crianças)",
                      "A 7 makes the next player draw 2 (off: the 7 is a plain card, for young children)"),
}

# The words of each value, in the order offered. A number option with labelled values is
# offered as a choice of them (None: the option left unset).
VALUE_LABELS: dict[str, dict[Any, Label]] = {
    "scoring": {"points": _l("Contar pontos (vence quem tiver menos)", "Keep score (lowest total wins)"),
                "none": _l("Sem pontos: cada rodada é uma partida", "No points: each round is a match"),
                "collect": _l("Quem bate leva os pontos das mãos dos outros (vence quem tiver mais)",
                              "Whoever goes out collects the points left in the other hands (highest total wins)"),
                "against": _l("Pontos contra: cada um anota os pontos da própria mão (vence quem tiver menos)",
                              "Points against: everyone adds the points of their own hand (lowest total wins)")},
    "deck": {52: _l("52 cartas", "52 cards"), 32: _l("32 cartas (do 7 ao ás)", "32 cards (7 to ace)")},
    "ace": {"none": _l("sem efeito", "no effect"),
            "draw_one": _l("todos os outros compram 1", "everyone else draws 1"),
            "skip_all": _l("todos os outros perdem a vez (joga de novo)", "everyone else loses a turn (play again)")},
    "seven_chain_limit": {None: _l("sem limite (4, 6, 8…)", "no limit (4, 6, 8…)"),
                          1: _l("só mais um pode responder (no máximo 4)", "only one more may answer (4 at most)")},
    "turn_seconds": {None: _l("sem limite", "no limit"), 15: _l("15 s", "15 s"), 30: _l("30 s", "30 s"),
                     60: _l("1 min", "1 min"), 120: _l("2 min", "2 min"), 300: _l("5 min", "5 min")},
    "mau_mau_call": {"none": _l("não precisa", "not needed"), "always": _l("sempre", "always"),
                     "jack_only": _l("só ao bater com valete", "only when going out with a Jack")},
    "mau_penalty": {2: _l("2 cartas", "2 cards"), 1: _l("1 carta", "1 card")},
    "hand_size": {n: _l(f"{n} cartas", f"{n} cards") for n in (5, 6, 7)},
}

# A line under an option: for every ruleset (key None) or for one.
HINTS: dict[str, dict[str | None, Label]] = {
    "turn_seconds": {None: _l("Quando o tempo acaba, o sistema joga por você.",
                              "When the time runs out, the system plays for you.")},
    "ace_with_company": {None: _l("A segunda carta tem de servir sobre o ás (mesmo naipe, outro ás ou um valete).",
                                  "The second card must fit on the Ace (same suit, another Ace or a Jack).")},
    "special_cards": {None: _l("O 2 acumula: quem recebe pode responder com outro 2, e o próximo compra 4.",
                               "The 2 stacks: a player who gets one may answer with another 2, and the next draws 4.")},
    "target_points": {
        "classic32": _l("Padrão: 100 por jogador (200 com dois, 300 com três, 400 com quatro); "
                        "com pontos contra, 100.",
                        "Default: 100 per player (200 with two, 300 with three, 400 with four); "
                        "with points against, 100."),
        "classic52": _l("A partida acaba quando alguém chega à meta; vence quem tiver menos pontos. Padrão: 100.",
                        "The match ends when someone reaches the goal; the lowest total wins. Default: 100."),
        "colors108": _l("Ganha quem chegar primeiro à meta. Padrão: 500.",
                        "The first to reach the goal wins. Default: 500."),
    },
}

# Every option some ruleset takes: name -> allowed values (None: any positive whole number).
# The engine keeps the shared ones in private tables; a ruleset takes those its constructor accepts.
_ALL_OPTIONS: dict[str, tuple[Any, ...] | None] = {
    **rulesets.PLATFORM_OPTIONS,
    **{k: v for cls in RULESETS.values() for k, v in cls.extra_options.items()},
    **rulesets.HOUSE_OPTIONS,
}
_GOAL_CEILING = 1 << 20  # no goal this high: the match ends some other way (candeias: after its rounds)


def _built(cls: type[Ruleset], options: dict[str, Any]) -> dict[str, Any] | None:
    """What a ruleset made with ``options`` is (its attributes but the options given), or None if refused.

    Read by name (``dir``), not from the instance's ``__dict__``: compiled by mypyc (``make setup``), a ruleset
    has none.
    """
    try:
        made = cls(options)
    except OptionError:
        return None
    values = {k: getattr(made, k) for k in dir(made) if not k.startswith("_") and k != "options"}
    return {k: v for k, v in values.items() if not callable(v)}


def _ends_at(rs: Ruleset, seats: int, total: int) -> bool:
    s = State(rs, seats, scores=[total] + [0] * (seats - 1))
    rs.end_match(s, 0)
    return s.match_over or bool(s.tiebreak)


def default_goal(cls: type[Ruleset], seats: int) -> int | None:
    """The total that ends a match at ``seats`` seats without options (None: no points goal).

    Found by asking the ruleset's ``end_match`` (classic32's goal grows with the seats).

    >>> default_goal(RULESETS["classic52"], 7), default_goal(RULESETS["candeias"], 3)
    (100, None)
    """
    rs = cls({})
    high = 1
    while not _ends_at(rs, seats, high):
        high *= 2
        if high > _GOAL_CEILING:
            return None
    low = high // 2  # the match goes on at ``low`` (or low is 0)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if _ends_at(rs, seats, mid) else (mid, high)
    return high


def _option(cls: type[Ruleset], name: str, values: tuple[Any, ...] | None,
            plain: dict[str, Any]) -> dict[str, Any] | None:
    """One option as offered by ``cls``, or None when it offers no choice there."""
    out: dict[str, Any] = {"name": name, "label": OPTION_LABELS.get(name, _l(name, name)),
                           "house": name in rulesets.HOUSE_OPTIONS}
    hints = HINTS.get(name, {})
    hint = hints.get(cls.name, hints.get(None))
    if hint:
        out["hint"] = hint
    labels = VALUE_LABELS.get(name, {})
    if values is None:
        if _built(cls, {name: 1}) is None:
            return None
        out.update(kind="number", default=None, min=1, max=None)
        offered = [v for v in labels if v is None or _built(cls, {name: v}) is not None]
    else:
        accepted = [v for v in values if _built(cls, {name: v}) is not None]
        if len(accepted) < 2:
            return None
        default = next((v for v in accepted if _built(cls, {name: v}) == plain), accepted[0])
        out["default"] = default
        if len(accepted) == 2 and not all(accepted):  # on/off: True/False, 3/0
            on, off = sorted(accepted, key=bool, reverse=True)
            out.update(kind="flag", on=on, off=off)
            return out
        out["kind"] = "choice"
        offered = sorted(accepted, key=lambda v: list(labels).index(v) if v in labels else len(labels))
    if offered:
        out["values"] = [{"value": v, "label": labels.get(v, _l(str(v), str(v)))} for v in offered]
    return out


def describe(cls: type[Ruleset]) -> dict[str, Any]:
    """One ruleset: its name and label, seats, options, goal and the points of its cards."""
    plain = _built(cls, {})
    assert plain is not None, f"{cls.name} refuses its own defaults"
    goal = {str(n): default_goal(cls, n) for n in range(cls.min_seats, cls.max_seats + 1)}
    has_goal = all(v is not None for v in goal.values())
    order = list(OPTION_LABELS)
    options = []
    for name in sorted(_ALL_OPTIONS, key=lambda k: order.index(k) if k in order else len(order)):
        if name == "target_points" and not has_goal:
            continue  # taken, but a match without a points goal never reads it
        option = _option(cls, name, cls.extra_options.get(name, _ALL_OPTIONS[name]), plain)
        if option is not None:
            options.append(option)
    rs = cls({})
    return {
        "name": cls.name,
        "label": RULESET_LABELS.get(cls.name, _l(cls.name, cls.name)),
        "seats": {"min": cls.min_seats, "max": cls.max_seats},
        # how a client draws direction +1: seats numbered to the right (counter-clockwise) or to the left
        "turns": "clockwise" if rs.clockwise else "counter_clockwise",
        "options": options,
        "goal": goal if has_goal else None,
        "lowest_wins": rs.lowest_wins,
        "rounds": getattr(rs, "rounds", None),
        # the deck without options is the largest (classic52's 32-card option deals a part of it)
        "points": {rs.family.name(c): rs.card_points(c) for c in sorted(set(rs.deck(cls.max_seats)))},
        # what each special card does, printed on it: by kind (``7``, ``J``, ``+2``, ``W+4``), then what options change
        "effects": card_effects(rs),
        "option_effects": option_effects(cls, options),
        "call": CALLS.get(cls.name),
        "round_title": ROUND_TITLES.get(cls.name),
    }


@functools.cache
def catalog() -> dict[str, Any]:
    """Every ruleset the engine plays, in its order."""
    return {"rulesets": [describe(cls) for cls in RULESETS.values()]}
