"""Accounts through the gateway (real NATS, the real accounts service): registering, sessions in cookies,
signing in and out, converting a guest, cross-origin requests, rate limits, and no secret in logs or streams."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import statistics
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from gateway.sessions import BUCKET, COOKIE
from services.accounts.store import STREAM
from services.runtime.settings import RateLimits
from tests.accounts.harness import accounts_service
from tests.gateway.harness import Gateways, gateways, one_window

PASSWORD = "segredo muito forte"
Answer = tuple[int, dict[str, Any], aiohttp.ClientResponse]


@contextlib.asynccontextmanager
async def platform(nats_url: str, tmp_path: Path, replicas: int = 1, **settings: Any) -> AsyncIterator[Gateways]:
    async with accounts_service(nats_url), gateways(nats_url, tmp_path, replicas, **settings) as g:
        yield g


async def call(g: Gateways, method: str, path: str, body: dict[str, Any] | None = None, session: str = "",
               replica: int = 0, **headers: str) -> Answer:
    """One request; ``session``: the cookie sent (the test keeps cookies itself: aiohttp's jar skips IP hosts)."""
    if session:
        headers["Cookie"] = f"{COOKIE}={session}"
    async with g.http.request(method, g.urls[replica] + path, json=body, headers=headers) as r:
        return r.status, await r.json(), r


def cookie(answer: Answer) -> str:
    return answer[2].cookies[COOKIE].value


async def register(g: Gateways, name: str, **headers: str) -> str:
    answer = await call(g, "POST", "/api/accounts", {"name": name, "password": PASSWORD}, "", 0, **headers)
    assert answer[0] == 201, answer[1]
    return cookie(answer)


async def test_registering_signs_in_with_a_cookie_the_page_cannot_read(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        status, body, r = await call(g, "POST", "/api/accounts", {"name": "Zoë", "password": PASSWORD})
        set_cookie = r.headers["Set-Cookie"]
        me = await call(g, "GET", "/api/me", session=cookie((status, body, r)))
        guest = await g.client("Gil")
        guest_me = await guest.get("/api/me")
    assert status == 201 and body["name"] == "Zoë" and body["account"] is True
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie and "Secure" not in set_cookie
    assert "Path=/" in set_cookie and "Max-Age=2592000" in set_cookie
    assert me[0] == 200 and me[1] == body
    assert guest_me == (200, {"identity": guest_me[1]["identity"], "name": "Gil", "avatar": "", "account": False})


async def test_the_cookie_is_secure_behind_an_https_public_url(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, public_urls=("https://maumau.example",)) as g:
        answer = await call(g, "POST", "/api/accounts", {"name": "Ana", "password": PASSWORD})
    assert answer[0] == 201 and "Secure" in answer[2].headers["Set-Cookie"]


async def test_a_password_easy_to_guess_is_refused_with_a_code_the_page_words(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        status, body, _ = await call(g, "POST", "/api/accounts", {"name": "Zoë", "password": "12345678"})
    assert status == 400 and body["error"]["code"] == "weak_password"


@pytest.mark.parametrize("spelling", ["ZOE", "zoe", "Zoé"])
async def test_a_name_taken_in_another_spelling_is_refused(nats_url: str, tmp_path: Path, spelling: str) -> None:
    async with platform(nats_url, tmp_path) as g:
        await register(g, "Zoë")
        status, body, _ = await call(g, "POST", "/api/accounts", {"name": spelling, "password": PASSWORD})
    assert status == 409 and body["error"]["code"] == "name_taken"


async def test_a_rename_frees_the_old_name_and_reaches_the_session(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        ana = await register(g, "Ana")
        renamed = await call(g, "PATCH", "/api/me", {"name": "Ana Lima", "avatar": "fox"}, session=ana)
        again = await register(g, "ANA")  # the old name is free
        taken = await call(g, "PATCH", "/api/me", {"name": "ana lima"}, session=again)
        created = await call(g, "POST", "/api/tables", {"ruleset": "classic32", "seats": 2}, session=ana)
        table = await call(g, "GET", f"/api/tables/{created[1]['table_id']}")
    assert renamed[0] == 200 and (renamed[1]["name"], renamed[1]["avatar"]) == ("Ana Lima", "fox")
    assert taken[0] == 409 and taken[1]["error"]["code"] == "name_taken"
    assert table[1]["players"] == [{"name": "Ana Lima", "bot": False}]


async def test_login_gives_a_new_session_and_logout_ends_it(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        first = await register(g, "Bia")
        login = await call(g, "POST", "/api/login", {"name": "bía", "password": PASSWORD}, session=first)
        second = cookie(login)
        first_after = await call(g, "GET", "/api/me", session=first)
        out = await call(g, "POST", "/api/logout", session=second)
        second_after = await call(g, "GET", "/api/me", session=second)
    assert login[0] == 200 and login[1]["name"] == "Bia" and second != first
    assert first_after[0] == 401  # the session it replaced ended
    assert out[0] == 200 and 'mm_session=""' in out[2].headers["Set-Cookie"]
    assert second_after[0] == 401 and second_after[1]["error"]["code"] == "no_session"


async def test_logout_everywhere_ends_every_session_of_the_account(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        phone = await register(g, "Caio")
        laptop = cookie(await call(g, "POST", "/api/login", {"name": "Caio", "password": PASSWORD}))
        other = await register(g, "Duda")
        out = await call(g, "POST", "/api/logout?everywhere=1", session=laptop)
        answers = [(await call(g, "GET", "/api/me", session=s))[0] for s in (phone, laptop, other)]
    assert out[0] == 200 and answers == [401, 401, 200]


async def test_a_new_password_needs_the_old_one_and_ends_the_other_sessions(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        phone = await register(g, "Eva")
        laptop = cookie(await call(g, "POST", "/api/login", {"name": "Eva", "password": PASSWORD}))
        wrong = await call(g, "PATCH", "/api/me", {"password": "novo segredo", "old_password": "nope"}, session=phone)
        changed = await call(g, "PATCH", "/api/me", {"password": "novo segredo", "old_password": PASSWORD},
                             session=phone)
        answers = [(await call(g, "GET", "/api/me", session=s))[0] for s in (phone, laptop, cookie(changed))]
        login = await call(g, "POST", "/api/login", {"name": "Eva", "password": "novo segredo"})
    assert wrong[0] == 401 and changed[0] == 200 and answers == [401, 401, 200] and login[0] == 200


async def test_an_unknown_name_and_a_wrong_password_get_the_same_answer_in_the_same_time(
        nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        await register(g, "Fabi")
        answers: dict[str, list[tuple[int, dict[str, Any], float]]] = {"unknown": [], "wrong": []}
        for _ in range(3):
            for kind, name in (("unknown", "Ninguém"), ("wrong", "Fabi")):
                started = time.perf_counter()
                status, body, _ = await call(g, "POST", "/api/login", {"name": name, "password": "not the one"})
                answers[kind].append((status, body, time.perf_counter() - started))
    unknown, wrong = answers["unknown"], answers["wrong"]
    assert {(s, json.dumps(b)) for s, b, _ in unknown} == {(s, json.dumps(b)) for s, b, _ in wrong}
    assert unknown[0][0] == 401 and unknown[0][1]["error"]["code"] == "bad_credentials"
    # both verify one Argon2id hash: the medians are alike (loose: the machine is shared)
    assert statistics.median(t for *_, t in unknown) > 0.5 * statistics.median(t for *_, t in wrong)


async def test_failed_logins_are_limited_per_name_and_address_across_replicas(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, replicas=2, rate_limits=RateLimits(logins_per_name_and_address=3)) as g:
        await register(g, "Gabi")
        await one_window()
        tries = [await call(g, "POST", "/api/login", {"name": "gabi", "password": "guess"}, replica=i % 2)
                 for i in range(4)]
        other = await call(g, "POST", "/api/login", {"name": "Outro", "password": "guess"}, replica=1)
    assert [t[0] for t in tries] == [401, 401, 401, 429] and other[0] == 401
    assert 1 <= int(tries[3][2].headers["Retry-After"]) <= 60


def from_address(address: str) -> dict[str, str]:
    """The headers of a request the gateway's trusted proxy got from ``address``."""
    return {"X-Forwarded-For": address}


async def test_guessing_from_one_address_does_not_lock_the_owner_out_from_another(
        nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, trusted_proxies=1) as g:
        await register(g, "Lia")
        await one_window()
        guesses = [await call(g, "POST", "/api/login", {"name": "Lia", "password": f"palpite {i}"},
                              **from_address("203.0.113.66")) for i in range(12)]
        owner = await call(g, "POST", "/api/login", {"name": "Lia", "password": PASSWORD},
                           **from_address("198.51.100.7"))
    assert [t[0] for t in guesses] == [401] * 10 + [429] * 2
    assert owner[0] == 200 and owner[1]["name"] == "Lia"


async def test_a_right_password_is_not_counted_as_a_failed_try(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, rate_limits=RateLimits(logins_per_name_and_address=2)) as g:
        await register(g, "Mila")
        await one_window()
        tries = [await call(g, "POST", "/api/login", {"name": "Mila", "password": password})
                 for password in (PASSWORD, PASSWORD, PASSWORD, "palpite", "palpite", "palpite")]
    assert [t[0] for t in tries] == [200, 200, 200, 401, 401, 429]


async def test_logins_are_limited_per_address(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path, rate_limits=RateLimits(logins_per_address=2)) as g:
        await one_window()
        tries = [await call(g, "POST", "/api/login", {"name": f"nome{i}", "password": "guess"}) for i in range(3)]
    assert [t[0] for t in tries] == [401, 401, 429]


async def test_a_cookie_request_from_another_origin_is_refused(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        ana = await register(g, "Hana")
        table = {"ruleset": "classic32", "seats": 2}
        forged = await call(g, "POST", "/api/tables", table, session=ana, Origin="https://evil.example")
        login = await call(g, "POST", "/api/login", {"name": "Hana", "password": PASSWORD},
                           Origin="https://evil.example")
        read = await call(g, "GET", "/api/me", session=ana, Origin="https://evil.example")
        own = await call(g, "POST", "/api/tables", table, session=ana, Origin=g.urls[0])
    assert forged[0] == login[0] == 403 and forged[1]["error"]["code"] == "bad_origin"
    assert read[0] == 200 and own[0] == 201


async def test_a_guest_converted_keeps_its_seat_and_plays_by_cookie(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        guest = await g.client("Iris")
        _, created = await guest.post("/api/tables", {"ruleset": "classic32", "seats": 2})
        session = await register(g, "Iris", Authorization=f"Bearer {guest.token}")
        me = await call(g, "GET", "/api/me", session=session)
        again = await call(g, "POST", "/api/accounts", {"name": "Iris 2", "password": PASSWORD},
                           Authorization=f"Bearer {guest.token}")
        ws = await g.http.ws_connect(g.urls[0].replace("http", "ws", 1) + "/ws",
                                     headers={"Cookie": f"{COOKIE}={session}"})
        await ws.send_json({"type": "subscribe", "table": created["table_id"]})
        state = await _frame(ws, "state")
        await ws.close()
        _, guest_me = await guest.get("/api/me")
    assert me[1]["identity"] == guest_me["identity"] and me[1]["account"] is True
    assert again[0] == 409 and again[1]["error"]["code"] == "guest_taken"
    assert state["table_info"]["my_seat"] == 0 and state["table_info"]["players"][0]["name"] == "Iris"


async def test_a_socket_with_an_ended_session_is_refused(nats_url: str, tmp_path: Path) -> None:
    async with platform(nats_url, tmp_path) as g:
        session = await register(g, "Kaio")
        url, headers = g.urls[0].replace("http", "ws", 1) + "/ws", {"Cookie": f"{COOKIE}={session}"}
        ws = await g.http.ws_connect(url, headers=headers)
        await ws.send_json({"type": "hello", "v": 1})
        welcome = await _frame(ws, "welcome")
        await ws.close()
        await call(g, "POST", "/api/logout", session=session)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await g.http.ws_connect(url, headers=headers)
    assert welcome["name"] == "Kaio" and welcome["identity"].startswith("a-")
    assert refused.value.status == 401


async def _frame(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
        if frame["type"] == kind:
            return dict(frame)


async def test_no_password_or_session_id_in_a_log_record_or_a_stored_message(
        nats_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with platform(nats_url, tmp_path) as g:
        first = await register(g, "Joana")
        await call(g, "POST", "/api/login", {"name": "Joana", "password": "a wrong one"})
        second = cookie(await call(g, "POST", "/api/login", {"name": "Joana", "password": PASSWORD}))
        await call(g, "PATCH", "/api/me", {"password": "outro segredo", "old_password": PASSWORD}, session=second)
        await call(g, "POST", "/api/logout", session=first)
        stored = await _stored(g, STREAM) + await _stored(g, f"KV_{BUCKET}")
    secrets = [PASSWORD, "a wrong one", "outro segredo", first, second]
    assert caplog.records and stored
    assert not [s for s in secrets if s in caplog.text or any(s in r.getMessage() for r in caplog.records)]
    assert not [s for s in secrets if any(s.encode() in m for m in stored)]


async def _stored(g: Gateways, stream: str) -> list[bytes]:
    """Every message of a stream, subjects and headers included."""
    js = g.platform.client.jetstream()
    info = await js.stream_info(stream)
    found = []
    for seq in range(info.state.first_seq, info.state.last_seq + 1):
        with contextlib.suppress(Exception):  # deleted or purged
            m = await js.get_msg(stream, seq)
            found.append((m.subject or "").encode() + repr(m.headers).encode() + (m.data or b""))
    return found
