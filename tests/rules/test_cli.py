"""``maumau rules-script`` as a command: report lines on stdout, malformed scripts refused."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = {
    "id": "classic32/cli", "ruleset": "classic32", "options": {}, "seats": 2, "reshuffle": "keep_order",
    "rounds": [{"deal": {"dealer": 1, "first": 0, "hands": [["7H", "9S"], ["8H", "KD"]], "starter": "9H",
                         "stock": ["AC"]},
                "steps": [{"seat": 1, "do": "draw"}, {"seat": 0, "do": "play", "card": "9S", "announce": "mau"}]}],
}


def _run(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli.main", "rules-script", "-"], input=text,
                          capture_output=True, text=True, timeout=60)


def test_the_report_has_the_deal_and_every_step() -> None:
    proc = _run(json.dumps(SCRIPT))
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 0
    assert [(x["round"], x["step"]) for x in lines] == [(0, -1), (0, 0), (0, 1)]
    assert lines[1]["error"] == "not_your_turn" and lines[1]["state"] == lines[0]["state"]
    assert lines[2]["accepted"] and lines[2]["state"]["hands"] == [["7H"], ["8H", "KD"]]


def test_a_malformed_script_exits_non_zero_with_a_message() -> None:
    proc = _run(json.dumps({**SCRIPT, "ruleset": "poker"}))
    assert proc.returncode != 0 and "poker" in proc.stderr and proc.stdout == ""


def test_text_that_is_not_json_is_refused() -> None:
    proc = _run("{not json")
    assert proc.returncode != 0 and "not JSON" in proc.stderr
