"""The project's own rules scripts (tests/rules_scripts, conformance format), played by the engine."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from services.rules.rulesets import RULESETS
from services.rules.script import run_script

SCRIPTS = sorted((Path(__file__).parent.parent / "rules_scripts").glob("*/*.json"))


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k != "expect"}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def _mismatches(expect: dict[str, Any], line: dict[str, Any]) -> list[str]:
    state = line["state"]
    out = []
    for key, want in expect.items():
        if key in ("accepted", "error"):
            got = line.get(key)
        elif key == "hand_sizes":
            got = [len(h) for h in state["hands"]]
        elif key == "hands":
            got = [Counter(h) for h in state["hands"]]
            want = [Counter(h) for h in want]
        elif key == "match_winners":
            got, want = sorted(state[key]), sorted(want)
        else:
            got = state[key]
        if got != want:
            out.append(f"{key}: want {want!r}, got {got!r}")
    return out


def test_there_are_scripts_for_every_ruleset() -> None:
    rulesets = Counter(p.parent.name for p in SCRIPTS)
    assert set(rulesets) == set(RULESETS)
    assert sum(rulesets.values()) >= 60


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_script(path: Path) -> None:
    script = json.loads(path.read_text())
    lines = {(ln["round"], ln["step"]): ln for ln in run_script(_strip(script))}
    previous = None
    for r, rnd in enumerate(script["rounds"]):
        deal_line = lines[(r, -1)]
        assert not _mismatches(rnd["deal"].get("expect", {}), deal_line), f"round {r} deal"
        previous = deal_line["state"]
        for i, step in enumerate(rnd["steps"]):
            line = lines[(r, i)]
            problems = _mismatches(step.get("expect", {}), line)
            if not line["accepted"]:
                assert line["state"] == previous, f"round {r} step {i}: a refused action changed the state"
            assert not problems, f"round {r} step {i} {step}: {problems}"
            previous = line["state"]
