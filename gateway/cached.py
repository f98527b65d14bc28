"""A body worked out once per process (the rulesets' catalog, the Aprenda pages, the tutorials), sent with
its ``ETag`` (a ``304`` while the browser has it) and gzipped when the browser accepts it."""

from __future__ import annotations

import gzip
import hashlib
from typing import NamedTuple

from aiohttp import web


class Cached(NamedTuple):
    body: bytes
    zipped: bytes
    etag: str

    @classmethod
    def of(cls, body: bytes) -> Cached:
        return cls(body, gzip.compress(body, mtime=0), f'"{hashlib.sha256(body).hexdigest()[:32]}"')

    def send(self, request: web.Request, content_type: str, cache_control: str) -> web.Response:
        headers = {"ETag": self.etag, "Cache-Control": cache_control, "Vary": "Accept-Encoding"}
        if self.etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        body = self.body
        if "gzip" in request.headers.get("Accept-Encoding", "").lower():
            body, headers["Content-Encoding"] = self.zipped, "gzip"
        return web.Response(body=body, content_type=content_type, charset="utf-8", headers=headers)
