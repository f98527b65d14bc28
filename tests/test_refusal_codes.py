"""One registry of refusal codes (``services.runtime.refusals.Code``), held against the client's words and the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.rules.errors import CODES as RULE_CODES
from services.runtime.refusals import INTERNAL, Code

ROOT = Path(__file__).resolve().parents[1]
CLIENT_ONLY = {"network", "session_ended", "too_many_requests_wait", "unknown"}  # the page's own, never a server's


def client_words(language: str) -> set[str]:
    text = (ROOT / "gateway" / "static" / "i18n" / f"errors.{language}.js").read_text()
    return set(re.findall(r"'err\.([a-z_]+)'", text))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_every_code_a_person_may_meet_has_words_in_each_language(language: str) -> None:
    assert sorted(c.value for c in Code if c not in INTERNAL and c.value not in client_words(language)) == []


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_client_has_words_only_for_codes_of_the_registry_or_its_own(language: str) -> None:
    assert sorted(client_words(language) - {c.value for c in Code} - CLIENT_ONLY) == []


def test_the_rules_answer_with_codes_of_the_registry() -> None:
    assert set(RULE_CODES) <= set(Code)


def test_no_code_is_raised_as_a_loose_string() -> None:
    loose = re.compile(r"\b(?:Refused|FrameError|AnnulRefused)\(\"|\bjson_error\(\d+, \"|\bRefusal\(\d+, \"")
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("services", "gateway", "tools")
             for path in (ROOT / folder).rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), 1) if loose.search(line)]
    assert found == []
