"""Security headers on every response of the gateway's application.

>>> print(content_security_policy(["https://maumau.example"]))  # doctest: +NORMALIZE_WHITESPACE
default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;
connect-src 'self' wss://maumau.example; manifest-src 'self'; worker-src 'self'; form-action 'self';
frame-ancestors 'none'; object-src 'none'; base-uri 'none'
"""

from __future__ import annotations

from collections.abc import Iterable

from aiohttp import web


def content_security_policy(origins: Iterable[str]) -> str:
    """The page may load only its own files and open WebSockets only to the gateway's origins.

    ``'self'`` covers ws(s) of the page's own origin only in CSP level 3 browsers: the
    origins are spelled out too. ``data:`` images: ones the client draws itself. The web app
    manifest and the service worker (gateway/client_files.py) are the gateway's own.
    """
    sockets = " ".join(sorted(o.replace("http", "ws", 1) for o in origins))
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self' {sockets}; manifest-src 'self'; worker-src 'self'; form-action 'self'; "
            "frame-ancestors 'none'; object-src 'none'; base-uri 'none'")


def install(app: web.Application, origins: Iterable[str]) -> None:
    headers = {
        "Content-Security-Policy": content_security_policy(origins),
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",  # frame-ancestors' older spelling
        "Referrer-Policy": "no-referrer",  # invitation links carry their token in the URL
    }

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(headers)

    app.on_response_prepare.append(add)
