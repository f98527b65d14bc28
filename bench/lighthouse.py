"""``make lighthouse``: how fast the web client opens, as Lighthouse 12 measures it on a phone.

The whole platform is started as ``maumau up`` starts it (embedded NATS and SQLite in a temporary
directory, the gateway on a free port); a table of four bots is made and started through the HTTP
API, as a player's "Criar mesa" does. Lighthouse (npm ``lighthouse``, pinned in package.json) then
opens, each time in a fresh Chromium profile (Debian's ``/usr/bin/chromium``), with the mobile preset
and its simulated throttling (a mid-range phone on a slow 4G):

* the lobby, ``/``;
* the started table from its invitation link, ``/m/<table>?c=<invitation>``.

For each it prints the Performance, Accessibility and Best Practices scores, LCP, CLS, the bytes
transferred and the requests made. Speed is printed, never asserted: it depends on the machine
(docs/performance.md keeps the figures and the floors the issue set).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

from services.runtime.supervisor import running_platform

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "build" / "lighthouse"  # each page's whole report, to read the audits behind a figure
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update "
                "--disable-sync --no-first-run --disable-quic")
CATEGORIES = "performance,accessibility,best-practices"
FLOORS = {"performance": 98, "accessibility": 98, "best-practices": 98}
LCP_FLOOR_S, CLS_FLOOR, LOBBY_BYTES_FLOOR = 1.5, 0.1, 150 * 1024
PLATFORM_UNSET = ("NATS_URL", "DATABASE_URL", "MAUMAU_GATEWAY_PORT")  # a platform of its own, on free ports


async def started_table(url: str) -> str:
    """A started table of four bots, its creator watching: its invitation link, as the creator shares it."""
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{url}/api/session", json={"name": "Farol"}) as r:
            auth = {"Authorization": f"Bearer {(await r.json())['token']}"}
        async with http.post(f"{url}/api/tables", json={"ruleset": "classic32", "seats": 4, "watch": True},
                             headers=auth) as r:
            made = await r.json()
        for step in ("bots", "start"):
            async with http.post(f"{url}/api/tables/{made['table_id']}/{step}", json={}, headers=auth) as r:
                r.raise_for_status()
    return str(made["link"])


async def lighthouse(url: str, out: Path) -> dict[str, Any]:
    """Lighthouse's report (its JSON ``lhr``) of one page."""
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    proc = await asyncio.create_subprocess_exec(
        str(LIGHTHOUSE), url, f"--chrome-flags={CHROME_FLAGS}", f"--only-categories={CATEGORIES}",
        "--output=json", f"--output-path={out}", "--quiet", env=env)
    if await proc.wait() != 0:
        raise SystemExit(f"lighthouse failed on {url}")
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def figures(lhr: dict[str, Any]) -> dict[str, Any]:
    audits = lhr["audits"]
    return {
        **{name: round(100 * (lhr["categories"][name]["score"] or 0)) for name in FLOORS},
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "bytes": int(audits["total-byte-weight"]["numericValue"]),
        "requests": len(audits["network-requests"]["details"]["items"]),
    }


def line(name: str, f: dict[str, Any], byte_floor: int | None) -> str:
    """One page's figures; a figure short of the issue's floor is marked with a ``!``."""
    def mark(ok: bool) -> str:
        return "" if ok else " !"
    scores = " / ".join(f"{f[c]}{mark(f[c] >= FLOORS[c])}" for c in FLOORS)
    size = f"{f['bytes'] / 1024:.0f} KB{mark(byte_floor is None or f['bytes'] <= byte_floor)}"
    lcp = f"LCP {f['lcp_s']:.2f} s{mark(f['lcp_s'] <= LCP_FLOOR_S)}"
    cls = f"CLS {f['cls']:.3f}{mark(f['cls'] <= CLS_FLOOR)}"
    return f"{name:6} Perf. / Access. / Best Pr. {scores}   {lcp}   {cls}   {size} in {f['requests']} requests"


async def main() -> None:
    for k in PLATFORM_UNSET:
        os.environ.pop(k, None)
    with tempfile.TemporaryDirectory(prefix="maumau-lighthouse-") as tmp:
        async with contextlib.AsyncExitStack() as stack:
            addresses, _ = await stack.enter_async_context(running_platform(Path(tmp) / "platform", quiet=True))
            url = addresses["gateway_url"]
            pages = {"lobby": f"{url}/", "table": url + await started_table(url)}
            REPORTS.mkdir(parents=True, exist_ok=True)
            results = {name: figures(await lighthouse(page, REPORTS / f"{name}.json")) for name, page in pages.items()}
    print(f"Lighthouse 12, mobile preset, simulated throttling (floors: scores >= 98, LCP <= {LCP_FLOOR_S} s, "
          f"CLS <= {CLS_FLOOR}, the lobby <= {LOBBY_BYTES_FLOOR // 1024} KB; '!' marks a figure short of its floor; "
          f"the whole reports in {REPORTS.relative_to(ROOT)}/)")
    for name, f in results.items():
        print(line(name, f, LOBBY_BYTES_FLOOR if name == "lobby" else None))


if __name__ == "__main__":
    asyncio.run(main())
