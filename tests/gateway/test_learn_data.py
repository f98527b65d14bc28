"""The Aprenda pages and the tutorials made from the learning data (gateway/learn/): both languages of a page
say the same sections, a new ruleset's data file is all its page needs, and a ruleset without one (or with a
broken one) is left out of the index, the pages and the tutorials without breaking anything."""

from __future__ import annotations

import copy
import json
import logging
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

import gateway.learn
from gateway.cached import Cached
from gateway.learn import Site, learning_data, make
from gateway.learn.pages import number
from services.rules.catalog import catalog


class Outline(HTMLParser):
    """A page's elements in order (tag and id), without its words: what both languages must share."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.testids: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(f"{tag}#{a.get('id') or ''}")
        if a.get("data-testid"):
            self.testids.append(str(a["data-testid"]))
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))


def outline(page: str) -> Outline:
    o = Outline()
    o.feed(page)
    return o


def rulesets() -> list[dict[str, Any]]:
    return copy.deepcopy(catalog()["rulesets"])


NEW = "newcomer"  # a ruleset the catalog does not have


def newcomer(data: dict[str, dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The catalog with one more ruleset (classic52's description renamed), and data for it."""
    rs = rulesets()
    extra = copy.deepcopy(next(r for r in rs if r["name"] == "classic52"))
    extra.update(name=NEW, label={"pt-BR": "Oito Maluco", "en": "Crazy Eights"})
    return [*rs, extra], copy.deepcopy(data["classic52"])


def count(n: int, lang: str) -> str:
    words = number(n, lang)
    return words[:1].upper() + words[1:]


def test_both_languages_of_every_page_have_the_same_sections_items_and_testids() -> None:
    pages, _ = make(rulesets(), learning_data())
    for path, page in pages.items():
        if "/aprenda/en/" in path:
            continue
        pt, en = outline(page), outline(pages[path.replace("/aprenda/", "/aprenda/en/")])
        assert pt.tags == en.tags, path
        assert pt.testids == en.testids, path
    sections = {tuple(t for t in outline(p).tags if t.startswith("section#")) for p in pages.values()
                if not p.count('data-testid="aprenda-index"')}
    assert sections == {("section#regras", "section#perguntas", "section#dicas", "section#glossario",
                         "section#historia", "section#quiz")}


def test_the_catalog_s_data_is_taken_from_it_never_left_as_a_placeholder() -> None:
    pages, tutorials = make(rulesets(), learning_data())
    for path, page in pages.items():
        assert "{" not in page and "}" not in page, path
    for t in tutorials["tutorials"]:
        assert not any("{" in w for s in t["steps"] for w in s["pt"] + s["en"]), t["ruleset"]
    classic32 = next(t for t in tutorials["tutorials"] if t["ruleset"] == "classic32")
    assert "valete 20, ás 11, rei, dama e 10 valem 10" in classic32["steps"][-1]["pt"][1]
    assert "valete: 20 pontos" in pages["/static/aprenda/classic32.html"]  # {points.JH}
    assert "de 2 a 10 jogadores" in pages["/static/aprenda/colors108.html"]  # {seats.min}, {seats.max}
    assert f"the site has {number(len(rulesets()), 'en')} rulesets" in pages["/static/aprenda/en/candeias.html"]
    broken = learning_data()
    broken["classic32"]["en"]["tips"].append("{points.XX}")
    with pytest.raises(ValueError, match=r"points\.XX"):
        make(rulesets(), broken)


def test_a_ruleset_without_learning_data_has_no_page_no_tutorial_and_is_not_listed() -> None:
    data = learning_data()
    with_it, _ = newcomer(data)
    pages, tutorials = make(with_it, data)
    assert not any(NEW in path for path in pages)
    assert all(NEW not in page for page in pages.values())
    assert [t["ruleset"] for t in tutorials["tutorials"]] == [rs["name"] for rs in rulesets()]
    # the site has one ruleset more than it has pages
    n = len(rulesets())
    assert f"{count(n, 'pt-BR')} regras de Mau-Mau" in pages["/static/aprenda/index.html"]
    assert f"o site tem {number(n + 1, 'pt-BR')} regras" in pages["/static/aprenda/classic32.html"]


def test_a_new_ruleset_needs_only_its_data_file() -> None:
    data = learning_data()
    with_it, data[NEW] = newcomer(data)
    del data[NEW]["tutorial"]  # a page may come before its tutorial: no link to one
    pages, tutorials = make(with_it, data)
    for lang in ("", "en/"):
        page = outline(pages[f"/static/aprenda/{lang}{NEW}.html"])
        assert f"aprenda-{NEW}" in page.testids and "tutorial-link" not in page.testids
        assert f"/static/aprenda/{lang}{NEW}.html" in outline(pages[f"/static/aprenda/{lang}index.html"]).links
        assert f"/static/aprenda/{lang}{NEW}.html" in outline(pages[f"/static/aprenda/{lang}classic32.html"]).links
    assert "<h1>Oito Maluco</h1>" in pages[f"/static/aprenda/{NEW}.html"]
    assert f"{count(len(with_it), 'pt-BR')} regras de Mau-Mau" in pages["/static/aprenda/index.html"]
    assert f"{count(len(with_it), 'en')} Mau-Mau rulesets" in pages["/static/aprenda/en/index.html"]
    assert NEW not in [t["ruleset"] for t in tutorials["tutorials"]]
    # a data file ahead of its ruleset (the catalog without it yet) waits: no page, no tutorial
    ahead, _ = make(rulesets(), data)
    assert not any(NEW in path for path in ahead) and ahead == make(rulesets(), learning_data())[0]


def test_every_tutorial_scene_shows_cards_of_its_own_ruleset() -> None:
    """A scene's cards are the ruleset's (the catalog's ``points`` names every card of its deck): the points
    scenes take their numbers from there."""
    points = {rs["name"]: rs["points"] for rs in rulesets()}
    for name, data in learning_data().items():
        for step in data["tutorial"]["steps"]:
            sc = step["scene"]
            cards = [sc.get("top"), *sc.get("hand", []), *sc.get("points", []), *sc.get("ok", []), *sc.get("no", []),
                     *[c for key in ("play", "draw") for c in ([sc[key]] if isinstance(sc.get(key), str) else
                                                               sc.get(key, []))]]
            assert {c for c in cards if c} <= set(points[name]), (name, step["pt"][0])


def test_a_broken_data_file_is_logged_and_left_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    good = learning_data()["candeias"]
    (tmp_path / "candeias.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "crazy8.json").write_text(json.dumps({"pt-BR": good["pt-BR"]}), encoding="utf-8")  # no English
    (tmp_path / "oops.json").write_text("{", encoding="utf-8")
    with caplog.at_level(logging.ERROR, "maumau.gateway"):
        assert list(learning_data(tmp_path)) == ["candeias"]
    assert "crazy8.json left out: en: missing" in caplog.text
    assert "oops.json left out" in caplog.text


async def test_the_address_of_a_ruleset_without_a_page_leads_to_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    made = Site({"/static/aprenda/index.html": Cached.of(b"<p>index</p>")}, Cached.of(b"{}"), frozenset({"crazy8"}))
    monkeypatch.setattr(gateway.learn, "site", lambda: made)

    async def get(path: str, name: str) -> web.StreamResponse:
        request = make_mocked_request("GET", path, match_info={"name": name})
        try:
            return await gateway.learn.page(request)
        except web.HTTPException as e:
            return e

    assert (await get("/static/aprenda/index.html", "index")).status == 200
    found = await get("/static/aprenda/en/crazy8.html", "crazy8")
    assert (found.status, found.headers["Location"]) == (302, "/static/aprenda/en/index.html")
    assert (await get("/static/aprenda/poker.html", "poker")).status == 404
