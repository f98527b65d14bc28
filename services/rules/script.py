"""``maumau rules-script``: play a conformance script through the engine and report every step.

The script format and the report are specified in the shared ``CONFORMANCE.md``. Steps go
through ``decide`` and ``evolve`` — the same path the rules service takes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from services.rules.actions import parse_action
from services.rules.cards import CardNameError
from services.rules.decider import decide, evolve
from services.rules.engine import new_match, start_round
from services.rules.errors import RuleError
from services.rules.rulesets import OptionError
from services.rules.views import full_state


class ScriptError(ValueError):
    """The script itself is malformed (not a refused action: those are results)."""


def _require(d: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = d.get(key)
    if not isinstance(value, kind):
        raise ScriptError(f"script needs {key!r}")
    return value


def run_script(script: Any) -> Iterator[dict[str, Any]]:
    """Yield the report lines of one script, in order."""
    if not isinstance(script, dict):
        raise ScriptError("a script is a JSON object")
    if script.get("reshuffle", "keep_order") != "keep_order":
        raise ScriptError("only the keep_order reshuffle is defined for scripts")
    rounds = _require(script, "rounds", list)
    try:
        state = new_match(_require(script, "ruleset", str), _require(script, "seats", int),
                          script.get("options") or {}, script.get("scores"), script.get("rounds_played", 0))
    except OptionError as e:
        raise ScriptError(str(e)) from None
    fam = state.rs.family
    for r, rnd in enumerate(rounds):
        if r > 0 and not state.round_over:
            raise ScriptError(f"round {r} is dealt before round {r - 1} is over")
        deal = _require(rnd, "deal", dict)
        try:
            start_round(state, _require(deal, "dealer", int), _require(deal, "first", int),
                        _require(deal, "hands", list), _require(deal, "starter", str),
                        _require(deal, "stock", list))
        except CardNameError as e:
            raise ScriptError(f"round {r} deal: {e}") from None
        if len(state.hands) != state.n:
            raise ScriptError(f"round {r} deal: {state.n} hands expected")
        yield {"step": -1, "round": r, "state": full_state(state)}
        for i, step in enumerate(_require(rnd, "steps", list)):
            error = None
            try:
                for event in decide(state, parse_action(step, fam)):
                    state = evolve(state, event)
            except RuleError as e:
                error = e.code
            yield {"step": i, "round": r, "accepted": error is None, "error": error, "state": full_state(state)}


def main(text: str) -> list[str]:
    """The report of one script's JSON text, as lines."""
    try:
        script = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScriptError(f"not JSON: {e}") from None
    return [json.dumps(line) for line in run_script(script)]
