"""GET /api/signing-key: the public half of the key that signs exports, for ``maumau verify --public-key``."""

from __future__ import annotations

from pathlib import Path

from services.runtime.signing import check, ensure_key, load_key, load_public
from tests.gateway.harness import gateways


async def test_the_public_key_checks_what_the_platform_signs(nats_url: str, tmp_path: Path) -> None:
    key = tmp_path / "signing-key.pem"
    ensure_key(key)
    async with gateways(nats_url, tmp_path, signing_key=str(key)) as g, \
            g.http.get(g.urls[0] + "/api/signing-key") as r:
        status, pem = r.status, await r.read()
    assert status == 200 and b"PRIVATE" not in pem
    assert check(load_public(pem), b"statement", load_key(key).sign(b"statement"))


async def test_a_platform_without_a_key_says_so(nats_url: str, tmp_path: Path) -> None:
    async with gateways(nats_url, tmp_path, signing_key=str(tmp_path / "missing.pem")) as g, \
            g.http.get(g.urls[0] + "/api/signing-key") as r:
        status, body = r.status, await r.json()
    assert status == 404 and body["error"]["code"] == "no_signing_key"
