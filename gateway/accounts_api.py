"""Accounts and their sessions over HTTP: register (converting a guest), sign in and out, who am I (docs/protocol.md).

A session is an opaque random id in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` when
the public URL is https), what it stands for kept in a key-value bucket every replica shares
(``gateway.sessions``). The session middleware reads the cookie of the API's and the
WebSocket's requests; a state-changing request it authenticates, or one that signs in, from an
origin other than the gateway's own is refused: the cookie travels by itself, a Bearer token
does not. Signing in answers the same, in the same time, for an unknown name and a wrong
password, and is throttled per address and per name tried without locking the owner out
(``gateway.signins``). Passwords and session ids reach
no log line, span or event: they are only ever in the requests to the accounts service and in
the ``Set-Cookie`` header.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import web
from nats.errors import Error as NatsError

from gateway.http_api import NATS_KEY, bearer, caller, identity_or_401, json_body, json_error
from gateway.ratelimit import Handler
from gateway.sessions import COOKIE, GUEST_COOKIE, SESSION, Session, Sessions, session_of
from gateway.signins import SIGNIN_LIMITS_KEY, SignInLimits, attempt
from maumau.v1 import accounts_pb2
from services.accounts.client import send
from services.accounts.names import name_key
from services.accounts.store import AccountStore
from services.runtime.refusals import Code
from services.runtime.settings import SESSION_SECONDS, Settings

SESSIONS_KEY = web.AppKey("sessions", Sessions)
ACCOUNTS_KEY = web.AppKey("accounts", AccountStore)
SECURE_KEY = web.AppKey("secure_cookie", bool)
ORIGIN_OK_KEY: web.AppKey[Callable[[web.Request], bool]] = web.AppKey("origin_ok")
SAFE = ("GET", "HEAD", "OPTIONS")
GUEST_COOKIE_SECONDS = 365 * 24 * 3600  # as long as the device keeps its token
UNREACHABLE = (NatsError, OSError, TimeoutError)
STATUS = {"bad_credentials": 401, "no_account": 401, "name_taken": 409, "guest_taken": 409,
          "already_registered": 409, "unavailable": 503}  # any other refusal: 400


def _same_origin(request: web.Request) -> None:
    if not request.app[ORIGIN_OK_KEY](request):
        raise json_error(403, Code.BAD_ORIGIN, "this request must come from the gateway's own pages")


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise json_error(400, Code.BAD_REQUEST, f"{key} is text")
    return value


def _nobody(name: str) -> str:
    """The account id a sign-in to an unknown name is checked against: no account has it (ids are hex digits).

    The accounts service then verifies the password against a dummy hash and says no, in the
    time a wrong password takes; each unknown name has its own id, so they wait on no common lock.
    """
    return "x" + name_key(name).removeprefix("name.")[:24]


async def _ask(request: web.Request, account_id: str, **body: Any) -> accounts_pb2.Account:
    actor = session_of(request)
    cmd = accounts_pb2.AccountCommand(command_id=uuid.uuid4().hex, table_id=account_id,
                                      actor=actor.identity if actor else "anonymous", **body)
    try:
        reply = await send(request.app[NATS_KEY], cmd)
    except UNREACHABLE:
        raise json_error(503, Code.UNAVAILABLE, "the accounts service did not answer; try again") from None
    if reply.WhichOneof("result") == "refusal":
        raise json_error(STATUS.get(reply.refusal.code, 400), reply.refusal.code, reply.refusal.message)
    return reply.account


def _me(account: accounts_pb2.Account) -> dict[str, Any]:
    return {"identity": account.identity, "name": account.name, "avatar": account.avatar, "account": True,
            "staff": account.staff}  # settles disputes at /staff (docs/disputes.md)


async def _signed_in(request: web.Request, account: accounts_pb2.Account, status: int = 200) -> web.Response:
    """The answer that starts a new session (a new id every time: a planted one is never promoted)."""
    sessions = request.app[SESSIONS_KEY]
    old = request.cookies.get(COOKIE)
    try:
        if old:
            await sessions.end(old)
        session_id = await sessions.start(Session(account.account_id, account.identity, account.name))
    except UNREACHABLE:
        raise json_error(503, Code.UNAVAILABLE, "sessions cannot be kept right now; try again") from None
    response = web.json_response(_me(account), status=status)
    response.set_cookie(COOKIE, session_id, max_age=int(SESSION_SECONDS), path="/", httponly=True, samesite="Lax",
                        secure=request.app[SECURE_KEY])
    return response


async def guest_cookie(request: web.Request) -> web.Response:
    """A guest's device token (Bearer) in an ``HttpOnly`` cookie: the WebSocket's credential, never its URL.

    Browsers set no header on a WebSocket; the cookie goes with it by itself, and only to this
    gateway's origin (the socket checks its Origin too).
    """
    token = bearer(request)
    identity_or_401(token)
    response = web.json_response({"ok": True})
    response.set_cookie(GUEST_COOKIE, token, max_age=GUEST_COOKIE_SECONDS, path="/", httponly=True, samesite="Lax",
                        secure=request.app[SECURE_KEY])
    return response


async def register(request: web.Request) -> web.Response:
    """A new account; with a guest's device token (Bearer), that guest's: the account plays as its identity."""
    _same_origin(request)
    body = await json_body(request)
    token = bearer(request)
    guest = identity_or_401(token) if token else ""
    account = await _ask(request, uuid.uuid4().hex[:24], register=accounts_pb2.Register(
        name=_text(body, "name"), password=_text(body, "password"), guest=guest))
    return await _signed_in(request, account, status=201)


async def login(request: web.Request) -> web.Response:
    _same_origin(request)
    body = await json_body(request)
    name, password = _text(body, "name"), _text(body, "password")
    async with attempt(request, name):
        try:
            account_id = await request.app[ACCOUNTS_KEY].holder(name_key(name)) or _nobody(name)
        except UNREACHABLE:
            raise json_error(503, Code.UNAVAILABLE, "the accounts cannot be read right now; try again") from None
        account = await _ask(request, account_id, authenticate=accounts_pb2.Authenticate(password=password))
    return await _signed_in(request, account)


async def logout(request: web.Request) -> web.Response:
    """End this session, or with ``?everywhere=1`` (or ``{"everywhere": true}``) every session of the account."""
    session, session_id = session_of(request), request.cookies.get(COOKIE, "")
    everywhere = request.query.get("everywhere") == "1"
    if request.can_read_body:
        everywhere = everywhere or (await json_body(request)).get("everywhere") is True
    sessions = request.app[SESSIONS_KEY]
    try:
        if session is not None and everywhere:
            await sessions.end_all(session.account_id)
        elif session_id:
            await sessions.end(session_id)
    except UNREACHABLE:
        raise json_error(503, Code.UNAVAILABLE, "sessions cannot be ended right now; try again") from None
    response = web.json_response({"ok": True})
    response.del_cookie(COOKIE, path="/")
    return response


async def me(request: web.Request) -> web.Response:
    session = session_of(request)
    if session is None:
        identity, name = caller(request)
        return web.json_response({"identity": identity, "name": name, "avatar": "", "account": False})
    try:
        account = await request.app[ACCOUNTS_KEY].load(session.account_id)
    except UNREACHABLE:
        raise json_error(503, Code.UNAVAILABLE, "the account cannot be read right now; try again") from None
    return web.json_response(_me(account.view()))


async def patch_me(request: web.Request) -> web.Response:
    """Change the account's name, avatar or password (with the old one); a new password ends every other session."""
    session = session_of(request)
    if session is None:
        raise json_error(401, Code.NO_ACCOUNT, "sign in to an account first (POST /api/login)")
    body = await json_body(request)
    account: accounts_pb2.Account | None = None
    if "name" in body:
        account = await _ask(request, session.account_id, rename=accounts_pb2.Rename(name=_text(body, "name")))
        await request.app[SESSIONS_KEY].rename(session.account_id, account.name)
    if "avatar" in body:
        account = await _ask(request, session.account_id,
                             choose_avatar=accounts_pb2.ChooseAvatar(avatar=_text(body, "avatar")))
    if "password" in body:
        account = await _ask(request, session.account_id, change_password=accounts_pb2.ChangePassword(
            old_password=_text(body, "old_password"), new_password=_text(body, "password")))
        await request.app[SESSIONS_KEY].end_all(session.account_id)
        return await _signed_in(request, account)
    if account is None:
        raise json_error(400, Code.BAD_REQUEST, "send a name, an avatar or a password (with old_password)")
    return web.json_response(_me(account))


def routes() -> list[web.RouteDef]:
    return [
        # the names of the POSTs are their rate limits' (gateway/ratelimit.py)
        web.post("/api/accounts", register, name="new_account"),
        web.post("/api/login", login, name="login"),
        web.post("/api/logout", logout),
        web.post("/api/session/cookie", guest_cookie),
        web.get("/api/me", me),
        web.patch("/api/me", patch_me),
    ]


def setup(app: web.Application, cfg: Settings, origin_ok: Callable[[web.Request], bool]) -> None:
    """The session middleware and the accounts' routes (before the rate limits: they count a session's identity)."""
    app[SECURE_KEY] = any(url.lower().startswith("https:") for url in cfg.public_urls)
    app[SIGNIN_LIMITS_KEY] = SignInLimits.of(cfg)
    app[ORIGIN_OK_KEY] = origin_ok

    async def sessions_ctx(app: web.Application) -> AsyncIterator[None]:
        js = app[NATS_KEY].jetstream()
        app[SESSIONS_KEY] = await Sessions.open_bucket(js, cfg.stream_replicas)
        app[ACCOUNTS_KEY] = store = AccountStore(js, replicas=cfg.stream_replicas)
        await store.ensure_stream()
        yield

    @web.middleware
    async def sessions(request: web.Request, handler: Handler) -> web.StreamResponse:
        session_id = request.cookies.get(COOKIE)
        if session_id and (request.path.startswith("/api/") or request.path == "/ws"):
            try:
                session = await request.app[SESSIONS_KEY].get(session_id)
            except UNREACHABLE:
                raise json_error(503, Code.UNAVAILABLE, "sessions cannot be read right now; try again") from None
            if session is not None:
                if request.method not in SAFE:
                    _same_origin(request)
                request[SESSION] = session
        return await handler(request)

    app.cleanup_ctx.append(sessions_ctx)
    app.middlewares.append(sessions)
    app.add_routes(routes())
