"""Bot tables through a running platform's HTTP API, for tests of the whole platform."""

from __future__ import annotations

import aiohttp


async def bot_table(http: aiohttp.ClientSession, url: str, auth: dict[str, str], ruleset: str = "classic32",
                    seats: int = 3) -> str:
    """A table of bots only, its creator watching, started: it plays to its end by itself."""
    async with http.post(f"{url}/api/tables", json={"ruleset": ruleset, "seats": seats, "watch": True},
                         headers=auth) as r:
        assert r.status == 201, await r.text()
        table_id = str((await r.json())["table_id"])
    for path in ("bots", "start"):
        async with http.post(f"{url}/api/tables/{table_id}/{path}", json={}, headers=auth) as r:
            assert r.status == 200, await r.text()
    return table_id
