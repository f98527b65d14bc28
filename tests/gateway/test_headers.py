"""Every response of the gateway carries its security headers; the page's policy allows no inline code."""

from __future__ import annotations

from pathlib import Path

from tests.gateway.harness import gateways


async def test_the_page_allows_only_its_own_scripts_styles_and_sockets(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g, g.http.get(g.urls[0] + "/") as r:
        csp = dict(d.strip().split(" ", 1) for d in r.headers["Content-Security-Policy"].split(";"))
    ws = g.urls[0].replace("http", "ws", 1)
    assert csp["default-src"] == "'none'" and csp["script-src"] == "'self'" and csp["style-src"] == "'self'"
    assert csp["frame-ancestors"] == csp["object-src"] == csp["base-uri"] == "'none'"
    assert ws in csp["connect-src"].split() and "unsafe" not in str(csp)


async def test_files_api_answers_and_errors_all_carry_the_headers(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path) as g:
        seen = []
        for path in ("/", "/m/abc", "/static/app.js", "/healthz", "/api/tables/none", "/api/my-tables", "/nothing"):
            async with g.http.get(g.urls[0] + path) as r:
                seen.append((path, r.status, r.headers.get("X-Content-Type-Options"), r.headers.get("X-Frame-Options"),
                             r.headers.get("Referrer-Policy"), "Content-Security-Policy" in r.headers))
    assert {s[2:] for s in seen} == {("nosniff", "DENY", "no-referrer", True)}, seen
