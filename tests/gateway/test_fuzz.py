"""Random and malformed frames at a real gateway: no crash, no state change, an answer every time."""

from __future__ import annotations

import asyncio
import json
import random
import string
from pathlib import Path
from typing import Any

from tests.gateway.harness import gateways

TYPES = ["subscribe", "unsubscribe", "command", "ping", "hello", "", "SUBSCRIBE", None, 7, "chat", "ack"]


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.randint(-(2**40), 2**40)
    if kind == 1:
        return "".join(rng.choice(string.printable + "é♥\u202e\x00") for _ in range(rng.randrange(0, 40)))
    if kind == 2:
        return rng.choice([True, False, None, 0.5, -1, ""])
    if kind == 3:
        return rng.choice(["7H", "JD", "W+4", "R7", "10S", "ZZ", "play", "draw", "mau", "maumau"])
    if kind == 4:
        return rng.random() * 1e308
    if kind == 5:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["do", "card", "choose", "seat", "join", "chat", "text", "x", "since", "table"]):
            _value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _frame(rng: random.Random, table: str) -> str:
    roll = rng.random()
    if roll < 0.1:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 60)))
    frame: dict[str, Any] = {"type": rng.choice(TYPES)}
    if rng.random() < 0.8:
        frame["table"] = table if rng.random() < 0.7 else _value(rng)
    if rng.random() < 0.6:
        frame["id"] = f"f{rng.randrange(10**6)}" if rng.random() < 0.8 else _value(rng)
    if rng.random() < 0.7:
        frame["command"] = _value(rng) if rng.random() < 0.3 else {
            "do": rng.choice(["play", "draw", "pass", "burn", "double", "challenge", "dance", 3]),
            "card": _value(rng), "choose": _value(rng), "announce": _value(rng)}
    if rng.random() < 0.3:
        frame["since"] = _value(rng)
    return json.dumps(frame)


async def test_random_frames_are_answered_and_change_nothing(nats_url: str, tmp_path: Path) -> None:
    rng = random.Random(20261130)
    async with gateways(nats_url, tmp_path) as g:
        alice, bob, mallory = await g.client("Ana"), await g.client("Bia"), await g.client("Mal")
        _, created = await alice.post("/api/tables", {"ruleset": "candeias", "seats": 2})
        tid = created["table_id"]
        await bob.post(f"/api/tables/{tid}/join", {"invitation": created["invitation"]})
        await alice.post(f"/api/tables/{tid}/start")
        before = await g.platform.last_seq(tid)
        await mallory.connect()
        pings = 1
        for _ in range(200):
            frame = _frame(rng, tid)
            pings += frame.startswith('{"type": "ping"')
            await mallory.send(frame)
            await asyncio.sleep(0.03)  # under the socket's rate limit: every frame is judged on its own
        await asyncio.sleep(1.1)
        await mallory.send({"type": "ping"})
        await mallory.wait(lambda f: sum(x.get("type") == "pong" for x in mallory.frames) == pings)
        after = await g.platform.last_seq(tid)
        assert mallory.ws is not None and not mallory.ws.closed
        await mallory.close()
    kinds = {f["type"] for f in mallory.frames}
    assert not any(f.get("code") == "too_fast" for f in mallory.frames)
    assert after == before, "a stranger's frames changed the table"
    assert kinds <= {"error", "ack", "state", "events", "chat", "pong", "welcome"}
    assert all(f.get("ok") is False for f in mallory.frames if f["type"] == "ack")
    assert all(f["code"] and f["message"] for f in mallory.frames if f["type"] == "error")
