"""The web client's files as the gateway serves them (gateway/client_files.py, docs/client.md): the
built shell asked again each time, its hashed files kept a year and sent compressed, the rulesets
catalog with its validator."""

from __future__ import annotations

import re

import aiohttp
import pytest

from gateway.client_files import HASHED

pytestmark = pytest.mark.asyncio(loop_scope="session")

ASSET = re.compile(r'(?:src|href)="(/static/dist/[^"]+)"')


async def get(url: str, **headers: str) -> tuple[aiohttp.ClientResponse, bytes]:
    async with aiohttp.ClientSession(auto_decompress=False) as http, http.get(url, headers=headers) as r:
        return r, await r.read()


async def shell_assets(gateway_url: str, path: str = "/") -> list[str]:
    async with aiohttp.ClientSession() as http, http.get(gateway_url + path) as r:
        return ASSET.findall(await r.text())


@pytest.mark.parametrize("path", ["/", "/m/abc123", "/ranking"])
async def test_the_shell_is_asked_again_each_time_and_names_hashed_files(gateway_url: str, path: str) -> None:
    r, _ = await get(gateway_url + path)
    assert r.status == 200
    assert r.headers["Cache-Control"] == "no-cache"
    assets = await shell_assets(gateway_url, path)
    names = [a.rsplit("/", 1)[1] for a in assets]
    assert any(n.startswith("app-") and n.endswith(".js") for n in names), names
    assert any(n.startswith("styles-") and n.endswith(".css") for n in names), names
    assert all(HASHED.fullmatch(n) for n in names), names


async def test_hashed_files_are_kept_a_year(gateway_url: str) -> None:
    for asset in await shell_assets(gateway_url):
        r, _ = await get(gateway_url + asset)
        assert r.status == 200, asset
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable", asset


@pytest.mark.parametrize("encoding", ["br", "gzip"])
async def test_hashed_files_are_sent_compressed(gateway_url: str, encoding: str) -> None:
    for asset in await shell_assets(gateway_url):
        plain_r, plain = await get(gateway_url + asset, **{"Accept-Encoding": "identity"})
        r, body = await get(gateway_url + asset, **{"Accept-Encoding": encoding})
        assert "Content-Encoding" not in plain_r.headers, asset
        if len(plain) < 200:  # a chunk of a line or two: no copy of it is smaller, it goes as it is
            assert "Content-Encoding" not in r.headers and body == plain, asset
            continue
        assert r.headers["Content-Encoding"] == encoding, asset
        assert len(body) < len(plain), asset


async def test_a_name_that_is_not_a_hashed_file_is_not_found(gateway_url: str) -> None:
    r, _ = await get(gateway_url + "/static/dist/index.html")
    assert r.status == 404


async def test_the_rulesets_catalog_is_cached_and_compressed(gateway_url: str) -> None:
    r, _ = await get(gateway_url + "/api/rulesets", **{"Accept-Encoding": "gzip"})
    assert r.status == 200
    assert r.headers["Content-Encoding"] == "gzip"
    assert r.headers["Cache-Control"].startswith("public, max-age=")
    again, _ = await get(gateway_url + "/api/rulesets", **{"If-None-Match": r.headers["ETag"]})
    assert again.status == 304
