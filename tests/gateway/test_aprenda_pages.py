"""The Aprenda pages (made by gateway/learn/ from gateway/static/aprenda/data/): every page, in both languages,
is served with the security headers, follows the page policy (no inline script or style), and every internal
link resolves; a ruleset without learning data has no page and no tutorial, and breaks nothing."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urldefrag, urljoin, urlsplit

from gateway.learn import site
from services.rules.catalog import catalog
from tests.gateway.harness import gateways

HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}


class Page(HTMLParser):
    """What a test needs of a page: its language, links, ids, and anything the policy forbids."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.inline: list[str] = []
        self.h1 = 0
        self.quiz = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if tag == "h1":
            self.h1 += 1
        if tag == "details":
            self.quiz += 1
        if a.get("id"):
            self.ids.add(str(a["id"]))
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(str(a[key]))
        if tag in ("script", "style") or "style" in a or any(k.startswith("on") for k in a):
            self.inline.append(f"<{tag} {a}>")


def pages() -> list[str]:
    return sorted(site().pages)


def test_both_languages_have_the_hub_and_every_ruleset() -> None:
    names = {p.rsplit("/", 1)[1] for p in pages() if "/aprenda/en/" not in p}
    assert names == {p.rsplit("/", 1)[1] for p in pages() if "/aprenda/en/" in p}
    # every ruleset the engine plays today has its learning data
    assert names == {"index.html"} | {f"{rs['name']}.html" for rs in catalog()["rulesets"]}


async def test_every_page_is_served_with_its_headers_and_every_internal_link_resolves(nats_url: str,
                                                                                    tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        base = g.urls[0]
        async with g.http.get(base + "/api/rulesets") as r:
            rulesets = {rs["name"] for rs in (await r.json())["rulesets"]}
        parsed: dict[str, Page] = {}
        for path in pages():
            async with g.http.get(base + path) as r:
                assert r.status == 200, path
                assert r.content_type == "text/html", path
                assert "Content-Security-Policy" in r.headers, path
                assert {k: r.headers.get(k) for k in HEADERS} == HEADERS, path
                page = Page()
                page.feed(await r.text())
            parsed[path] = page
            assert page.lang == ("en" if "/aprenda/en/" in path else "pt-BR"), path
            assert page.h1 == 1 and page.inline == [], (path, page.inline)
            if not path.endswith("index.html"):
                assert page.quiz >= 2, path
        checked: set[str] = set()
        for path, page in parsed.items():
            for link in page.links:
                url, fragment = urldefrag(urljoin(path, link))
                parts = urlsplit(url)
                if parts.scheme in ("http", "https") or link.startswith("data:"):
                    continue  # none expected, but an outside link is not ours to check
                target = parsed.get(parts.path)
                if fragment:  # an anchor of an Aprenda page (its own included)
                    assert target is not None and fragment in target.ids, f"{path}: #{fragment} of {link}"
                if parts.path == "/":  # the home screen, with the ruleset "Jogar esta regra" asks for
                    query = parse_qs(parts.query)
                    assert set(query.get("regra", [])) <= rulesets, f"{path}: {link}"
                    assert set(query.get("lang", [])) <= {"pt-BR", "en"}, f"{path}: {link}"
                if url in checked or target is not None:
                    continue
                async with g.http.get(base + url) as r:
                    assert r.status == 200, f"{path}: {link} -> {r.status}"
                checked.add(url)
        for short, hub in (("/aprenda", "/static/aprenda/index.html"), ("/learn", "/static/aprenda/en/index.html")):
            async with g.http.get(base + short, allow_redirects=False) as r:
                assert (r.status, r.headers["Location"]) == (302, hub)
                assert r.headers.get("X-Frame-Options") == "DENY"
        # the tutorials' scenes, from the same learning data: every ruleset's, in the catalog's order
        async with g.http.get(base + "/api/tutorials") as r:
            assert (r.status, r.headers["Cache-Control"]) == (200, "public, max-age=300")
            tutorials = (await r.json())["tutorials"]
        assert [t["ruleset"] for t in tutorials] == [rs["name"] for rs in catalog()["rulesets"]]
        assert all(len(t["steps"]) == 9 for t in tutorials)
        # each ruleset's page offers that ruleset at the table, and its tutorial
        for path, page in parsed.items():
            rs = Path(path).stem
            if rs != "index":
                assert any(f"regra={rs}" in link and "ajuda" not in link for link in page.links), path
                assert any(f"regra={rs}" in link and "ajuda=1" in link for link in page.links), path
