"""The Aprenda pages and the tutorial's scenes, served from the learning data (docs/client.md, "Aprenda").

Each ruleset's learning data is one file, ``gateway/static/aprenda/data/<ruleset>.json``: its page's words
in both languages and its tutorial (``tutorial.steps``, and in ``tutorial.house`` what the house rules'
scenes say differently at this ruleset). The gateway makes the pages once, as it starts (``warm``), from
the data and the rules catalog (``pages.py``), and sends them at the addresses they always had:
``/static/aprenda/<ruleset>.html``, ``/static/aprenda/en/<ruleset>.html`` and the index pages. The
tutorials are ``GET /api/tutorials``: every ruleset's steps, in the catalog's order.

A ruleset of the catalog without a data file (or with a broken one: logged) has no page — its address
leads to the index, which does not list it — and no tutorial: the client then offers none.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from pathlib import Path
from typing import Any, NamedTuple

from aiohttp import web

from gateway.cached import Cached
from gateway.client_files import STATIC
from gateway.learn.pages import LANGS, href, index_page, problems, ruleset_page, tutorial
from services.rules.catalog import catalog

log = logging.getLogger("maumau.gateway")
DATA = STATIC / "aprenda" / "data"
REVALIDATE = "no-cache"  # like the other pages: a browser asks each time, answered 304 while unchanged


def learning_data(directory: Path = DATA) -> dict[str, dict[str, Any]]:
    """Every well-formed data file, by ruleset name (its file's name); a broken one is logged and left out."""
    found = {}
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            wrong = problems(data)
        except (OSError, ValueError) as e:
            wrong = [str(e)]
        if wrong:
            log.error("learning data %s left out: %s", path.name, "; ".join(wrong))
        else:
            found[path.stem] = data
    return found


class Site(NamedTuple):
    pages: dict[str, Cached]  # by path
    tutorials: Cached
    unlisted: frozenset[str]  # rulesets of the catalog without a page


def make(rulesets: list[dict[str, Any]], data: dict[str, dict[str, Any]]) -> tuple[dict[str, str], dict[str, Any]]:
    """The pages (path → HTML) and the tutorials' JSON of ``rulesets`` (the catalog's) with their ``data``."""
    listed = [(rs, data[rs["name"]]) for rs in rulesets if rs["name"] in data]
    pages = {}
    for lang in LANGS:
        pages[href("index", lang)] = index_page(listed, lang, len(rulesets))
        for rs, d in listed:
            others = [o for o, _ in listed if o is not rs]
            pages[href(rs["name"], lang)] = ruleset_page(rs, d, lang, others, len(rulesets))
    tutorials = {"tutorials": [{"ruleset": rs["name"], **tutorial(rs, d, len(rulesets))}
                               for rs, d in listed if d.get("tutorial")]}
    return pages, tutorials


@functools.cache
def site() -> Site:
    """The pages and the tutorials, made once per process."""
    rulesets = catalog()["rulesets"]
    data = learning_data()
    pages, tutorials = make(rulesets, data)
    return Site({path: Cached.of(page.encode()) for path, page in pages.items()},
                Cached.of(json.dumps(tutorials, ensure_ascii=False, separators=(",", ":")).encode()),
                frozenset(rs["name"] for rs in rulesets) - set(data))


async def warm(app: web.Application) -> None:
    await asyncio.to_thread(site)


async def page(request: web.Request) -> web.StreamResponse:
    """An Aprenda page; a ruleset's without learning data leads to the index."""
    made = site()
    found = made.pages.get(request.path)
    if found is not None:
        return found.send(request, "text/html", REVALIDATE)
    if request.match_info["name"] in made.unlisted:
        raise web.HTTPFound(href("index", "en" if "/aprenda/en/" in request.path else "pt-BR"))
    raise web.HTTPNotFound()


async def tutorials(request: web.Request) -> web.Response:
    """The tutorials' steps of every ruleset that has some (``gateway/static/tutorial.js``)."""
    return site().tutorials.send(request, "application/json", "public, max-age=300")


async def short(request: web.Request) -> web.StreamResponse:
    """``/aprenda`` and ``/learn``: short addresses of the index pages."""
    raise web.HTTPFound(href("index", "en" if request.path == "/learn" else "pt-BR"))


def setup(app: web.Application) -> None:
    """The routes; before ``client_files.setup``'s ``/static`` (the first route that matches answers)."""
    app.on_startup.append(warm)
    app.router.add_get("/static/aprenda/{name}.html", page)
    app.router.add_get("/static/aprenda/en/{name}.html", page)
    app.router.add_get("/api/tutorials", tutorials)
    app.router.add_get("/aprenda", short)
    app.router.add_get("/learn", short)
