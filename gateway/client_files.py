"""The web client's files: the built shell, its hashed files, the service worker and the manifest.

``gateway/static/build.mjs`` (``make setup``) writes ``gateway/static/dist/``: each JS and CSS file
named by its content's hash — so a browser may keep it a year and never ask again — beside the
HTML shell and the service worker that name them, every text file also precompressed (``.br``,
``.gz``: aiohttp's ``FileResponse`` sends the copy the browser accepts). The pages themselves are
``no-cache``: a browser asks each time (a ``304`` when unchanged) and so learns a new build's names.
Without a build (a tree never set up) the source modules are served as they are, unbundled.
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path

from aiohttp import web

log = logging.getLogger("maumau.gateway")
STATIC = Path(__file__).parent / "static"
DIST = STATIC / "dist"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# esbuild's `[name]-[hash]`: the hash is 8 characters of upper-case base32
HASHED = re.compile(r"[A-Za-z0-9_.]+-[A-Z0-9]{8}\.[a-z0-9]+")


_APP = re.compile(r'src="/static/dist/(app-[A-Z0-9]{8}\.js)"')


def client_build() -> str:
    """The web client's build that a page opened now gets: the hashed name of the module its shell
    loads (it changes with every file that module reaches); "" without a build. A page compares it
    with its own on each welcome and reloads when the two differ (``freshness.js``), so that no
    page of an older release outlives a deploy.

    >>> client_build() == "" or client_build().startswith("app-")
    True
    """
    try:
        stat = (DIST / "index.html").stat()
    except FileNotFoundError:
        return ""
    return _read_build(stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=1)
def _read_build(mtime_ns: int, size: int) -> str:  # the shell read again only when a build rewrote it
    found = _APP.search((DIST / "index.html").read_text(encoding="utf-8"))
    return found[1] if found else ""


def _built(name: str) -> Path:
    """A page of the build (``index.html``, ``offline.html``), else its source."""
    built = DIST / name
    return built if built.is_file() else STATIC / name


async def page(request: web.Request) -> web.FileResponse:
    """The HTML shell of every screen (the client routes by the path)."""
    return web.FileResponse(_built("index.html"), headers={"Cache-Control": REVALIDATE})


async def offline(request: web.Request) -> web.FileResponse:
    """"Sem conexão": what the service worker shows when a page is asked with no network."""
    return web.FileResponse(_built("offline.html"), headers={"Cache-Control": REVALIDATE})


async def service_worker(request: web.Request) -> web.FileResponse:
    """At the site's root, so that it may answer for every page (a worker's scope is its folder)."""
    if not (DIST / "sw.js").is_file():
        raise web.HTTPNotFound()  # no build: nothing to keep
    return web.FileResponse(DIST / "sw.js", headers={"Cache-Control": REVALIDATE,
                                                      "Content-Type": "text/javascript; charset=utf-8"})


async def manifest(request: web.Request) -> web.FileResponse:
    """The web app manifest (name, icons, colours): what a phone needs to install the game."""
    return web.FileResponse(STATIC / "manifest.webmanifest",
                            headers={"Cache-Control": REVALIDATE, "Content-Type": "application/manifest+json"})


async def hashed(request: web.Request) -> web.FileResponse:
    """A file of the build named by its hash: the same name is the same bytes forever."""
    name = request.match_info["name"]
    if not HASHED.fullmatch(name) or not (DIST / name).is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(DIST / name, headers={"Cache-Control": IMMUTABLE})


async def _revalidate_the_rest(request: web.Request, response: web.StreamResponse) -> None:
    """The other files under /static/ (the Aprenda style sheet, the icons, the sources) keep their names as
    they change: a browser asks again each time, answered ``304`` while the file is the same."""
    if request.path.startswith("/static/") and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = REVALIDATE


def setup(app: web.Application, *screens: str) -> None:
    """The shell at each of the ``screens``' paths, and the files they need."""
    if not (DIST / "index.html").is_file():
        log.warning("no build of the web client in %s: serving its source modules (`make setup` builds it)", DIST)
    app.on_response_prepare.append(_revalidate_the_rest)
    app.router.add_get("/sw.js", service_worker)
    app.router.add_get("/offline", offline)
    app.router.add_get("/manifest.webmanifest", manifest)
    app.router.add_get("/static/dist/{name}", hashed)  # before /static/ below: the first match answers
    for path in screens:
        app.router.add_get(path, page)
    app.router.add_static("/static", STATIC)
