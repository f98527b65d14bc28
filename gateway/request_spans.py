"""The gateway's HTTP requests as server spans: opentelemetry-instrumentation-aiohttp-server's middleware.

The library's span names the route (``POST /api/tables/{table_id}/join``), continues a caller's
``traceparent`` and holds the commands the request sends to the table service. It never sees what
is secret: the library reads a copy of the request without its query string (an invitation link's
``?c=`` is one) and without ``Authorization`` and ``Cookie`` (device tokens, sessions: the library
records any header that ``OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST`` names, and an
operator may name ``.*``); the handlers get the request itself.

A WebSocket's upgrade request is a span too, ending when the socket closes; the commands its frames
carry begin traces of their own (one move, one trace) rather than joining that span. The probes and
the web client's files make no span: the kubelet asks every few seconds, a page load fetches dozens of
files, and a span costs a request some 80 µs even when it is not recorded.
"""

from __future__ import annotations

import functools
import warnings

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler, Middleware
from multidict import CIMultiDict
from opentelemetry import context
from opentelemetry.instrumentation.aiohttp_server import AioHttpServerInstrumentor, create_aiohttp_middleware

UNTRACED = frozenset({"/healthz", "/readyz"})
STATIC = "/static/"
SECRET_HEADERS = (hdrs.AUTHORIZATION, hdrs.COOKIE)


@functools.cache
def _library_middleware() -> Middleware:
    """The library's middleware, set up once per process."""
    instrumentor = AioHttpServerInstrumentor()
    # instrument() sets up the middleware's tracer, meters and excluded URLs
    # (OTEL_PYTHON_AIOHTTP_SERVER_EXCLUDED_URLS); it also swaps aiohttp's Application class for a
    # subclass adding the middleware to every application (aiohttp warns of it), which uninstrument()
    # undoes: the health ports are not traced
    with warnings.catch_warnings(action="ignore", category=DeprecationWarning):
        instrumentor.instrument(raise_exception_on_conflict=True)
    instrumentor.uninstrument()
    middleware: Middleware = create_aiohttp_middleware()
    return middleware


def _seen_by_the_library(request: web.Request) -> web.Request:
    headers = CIMultiDict(request.headers)
    for name in SECRET_HEADERS:
        headers.popall(name, None)
    return request.clone(rel_url=request.rel_url.with_query(None), headers=headers)


async def _in_a_trace_of_its_own(handler: Handler, request: web.Request) -> web.StreamResponse:
    token = context.attach(context.Context())
    try:
        return await handler(request)
    finally:
        context.detach(token)


def middleware() -> Middleware:
    """The request span middleware; the application's first, so that its span covers the others."""
    library = _library_middleware()

    @web.middleware
    async def request_span(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path in UNTRACED or request.path.startswith(STATIC):
            return await handler(request)
        if request.headers.get(hdrs.UPGRADE, "").lower() == "websocket":
            return await library(_seen_by_the_library(request), lambda _: _in_a_trace_of_its_own(handler, request))
        return await library(_seen_by_the_library(request), lambda _: handler(request))

    return request_span
