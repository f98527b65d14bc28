"""The accounts service over a real JetStream: registering, unique names, renames, passwords, nothing secret stored."""

from __future__ import annotations

import logging

import pytest

from maumau.v1 import accounts_pb2
from services.accounts.names import name_key
from services.accounts.store import STREAM
from tests.accounts.harness import accounts_service, code

PASSWORD = "correct horse battery"


async def test_registering_stores_the_account_and_its_hash_only(nats_url: str) -> None:
    async with accounts_service(nats_url) as s:
        aid = await s.register("Zoë", PASSWORD)
        a = await s.store.load(aid)
        stored = await s.nc.jetstream().get_last_msg(STREAM, f"accounts.{aid}")
    assert (a.exists, a.name, a.identity) == (True, "Zoë", f"a-{aid}")
    assert a.password_hash.startswith("$argon2id$") and PASSWORD.encode() not in (stored.data or b"")


@pytest.mark.parametrize("spelling", ["zoë", "ZOE", "Zoe", " zoe ", "ｚｏｅ", "Zoe\u0301"])
async def test_a_name_is_taken_in_any_case_and_accent_spelling(nats_url: str, spelling: str) -> None:
    async with accounts_service(nats_url) as s:
        await s.register("Zoë")
        reply = await s.ask("other1", register=accounts_pb2.Register(name=spelling, password=PASSWORD))
        other = await s.store.load("other1")
    assert code(reply) == "name_taken" and not other.exists


async def test_a_rename_takes_the_new_name_and_releases_the_old(nats_url: str) -> None:
    async with accounts_service(nats_url) as s:
        ana = await s.register("Ana")
        renamed = await s.ask(ana, rename=accounts_pb2.Rename(name="Ana Lima"))
        bia = await s.register("ana")  # free again
        taken = await s.ask(bia, rename=accounts_pb2.Rename(name="ANA LIMA"))
        recased = await s.ask(ana, rename=accounts_pb2.Rename(name="ana lima"))  # its own name, recased
        holder = await s.store.holder(name_key("Ana Lima"))
    assert renamed.account.name == "Ana Lima" and code(taken) == "name_taken"
    assert recased.account.name == "ana lima" and holder == ana


async def test_a_guest_converted_plays_as_the_guest_and_once_only(nats_url: str) -> None:
    async with accounts_service(nats_url) as s:
        aid = await s.register("Caio", guest="g-0123")
        again = await s.ask("other2", register=accounts_pb2.Register(name="Caio2", password=PASSWORD, guest="g-0123"))
        free = await s.store.holder(name_key("Caio2"))
        a = await s.store.load(aid)
    assert a.identity == "g-0123" and code(again) == "guest_taken" and free == ""


async def test_passwords_authenticate_and_change_with_the_old_one(nats_url: str) -> None:
    async with accounts_service(nats_url) as s:
        aid = await s.register("Duda", PASSWORD)
        right = await s.ask(aid, authenticate=accounts_pb2.Authenticate(password=PASSWORD))
        wrong = await s.ask(aid, authenticate=accounts_pb2.Authenticate(password="not it at all"))
        nobody = await s.ask("nobody1", authenticate=accounts_pb2.Authenticate(password=PASSWORD))
        refused = await s.ask(aid, change_password=accounts_pb2.ChangePassword(old_password="nope nope",
                                                                               new_password="new secret 1"))
        short = await s.ask(aid, change_password=accounts_pb2.ChangePassword(old_password=PASSWORD,
                                                                             new_password="short"))
        changed = await s.ask(aid, change_password=accounts_pb2.ChangePassword(old_password=PASSWORD,
                                                                               new_password="new secret 1"))
        old = await s.ask(aid, authenticate=accounts_pb2.Authenticate(password=PASSWORD))
        new = await s.ask(aid, authenticate=accounts_pb2.Authenticate(password="new secret 1"))
    assert right.account.account_id == aid and code(new) == code(changed) == "account"
    assert code(wrong) == code(nobody) == code(refused) == code(old) == "bad_credentials"
    assert code(short) == "bad_password"


WEAK = [("password", "weak_password"), ("12345678", "weak_password"), (" " * 8, "weak_password"),
        ("qwertyuiop", "weak_password"), ("segredo\x00muito forte", "password_control_characters"),
        ("segredo\tmuito forte", "password_control_characters"), ("Ana Maria", "password_has_name"),
        ("anamaria, tudo certo?", "password_has_name")]


@pytest.mark.parametrize(("password", "reason"), WEAK)
async def test_an_account_with_a_weak_password_is_refused_with_the_reason(
        nats_url: str, password: str, reason: str) -> None:
    async with accounts_service(nats_url) as s:
        reply = await s.ask("weak1", register=accounts_pb2.Register(name="Ana Maria", password=password))
    assert code(reply) == reason


@pytest.mark.parametrize(("password", "reason"), WEAK)
async def test_a_weak_new_password_is_refused_with_the_reason(nats_url: str, password: str, reason: str) -> None:
    async with accounts_service(nats_url) as s:
        aid = await s.register("Ana Maria", PASSWORD)
        reply = await s.ask(aid, change_password=accounts_pb2.ChangePassword(old_password=PASSWORD,
                                                                             new_password=password))
        still = await s.ask(aid, authenticate=accounts_pb2.Authenticate(password=PASSWORD))
    assert code(reply) == reason and code(still) == "account"


async def test_bad_names_and_avatars_are_refused(nats_url: str) -> None:
    async with accounts_service(nats_url) as s:
        aid = await s.register("Eva")
        short = await s.ask("x1", register=accounts_pb2.Register(name=" a ", password=PASSWORD))
        avatar = await s.ask(aid, choose_avatar=accounts_pb2.ChooseAvatar(avatar="<script>"))
        chosen = await s.ask(aid, choose_avatar=accounts_pb2.ChooseAvatar(avatar="cat-3"))
        ghost = await s.ask("x2", rename=accounts_pb2.Rename(name="Fantasma"))
    assert code(short) == "bad_name" and code(avatar) == "bad_avatar" and chosen.account.avatar == "cat-3"
    assert code(ghost) == "no_account"


async def test_no_password_reaches_a_log_record(nats_url: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        async with accounts_service(nats_url) as s:
            aid = await s.register("Gil", PASSWORD)
            await s.ask(aid, authenticate=accounts_pb2.Authenticate(password="wrong password"))
            await s.ask(aid, change_password=accounts_pb2.ChangePassword(old_password=PASSWORD,
                                                                         new_password="another secret"))
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert caplog.records and all(p not in text for p in (PASSWORD, "wrong password", "another secret"))
