"""A small API client over either Flask's test client or HTTP, for every folder that calls the API,
and the terminal's loop that drives a round from a transcript."""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    data: bytes = b""           # the raw body (CSV exports, streams)

    @property
    def served_by(self) -> str | None:
        return self.headers.get("X-Served-By")


Send = Callable[[str, str, Any, dict], Reply]


def flask_sender(client) -> Send:
    def send(method: str, path: str, body: Any, headers: dict) -> Reply:
        response = client.open(path, method=method, json=body, headers=headers)
        return Reply(response.status_code, response.get_json(silent=True), dict(response.headers), response.data)
    return send


def http_sender(base_url: str, timeout: float = 10.0) -> Send:
    import requests

    def send(method: str, path: str, body: Any, headers: dict) -> Reply:
        response = requests.request(method, base_url + path, json=body, headers=headers, timeout=timeout)
        try:
            payload = response.json()
        except ValueError:
            payload = None
        return Reply(response.status_code, payload, dict(response.headers), response.content)
    return send


def owner_password(secret: str) -> str:
    """The password of the person a test's key belongs to (tests/support/app_fixtures.chained_key
    made them with it): derived from the key's secret, so whoever holds the key can confirm."""
    return "pw-" + hashlib.sha256(secret.encode()).hexdigest()[:24]


class Api:
    """Calls as one key; every POST carries a fresh Idempotency-Key unless one is given."""

    def __init__(self, send: Send, secret: str | None) -> None:
        self.send = send
        self.secret = secret

    def headers(self, extra: dict | None = None) -> dict:
        out = {"Authorization": f"Bearer {self.secret}"} if self.secret else {}
        out.update(extra or {})
        return out

    def get(self, path: str, headers: dict | None = None) -> Reply:
        return self.send("GET", path, None, self.headers(headers))

    def post(self, path: str, body: Any, headers: dict | None = None, idempotency_key: str | None = None) -> Reply:
        extra = {"Idempotency-Key": idempotency_key or str(uuid.uuid4()), **(headers or {})}
        return self.send("POST", path, body, self.headers(extra))

    def confirmed(self, body: dict) -> dict:
        """`body` with the key's person's password, as an approval asks for it again."""
        return {**body, "password": owner_password(self.secret or "")}


def ok(reply: Reply, *statuses: int) -> Any:
    assert reply.status in (statuses or (200, 201)), (reply.status, reply.body)
    return reply.body


@dataclass
class Played:
    round_id: str
    state: dict
    replies: list[Reply]
    refusal: Reply | None = None        # the 409 that stopped the round, if one did


def drive_round(terminal: Api, round_id: str, cards: list[str], actions: list[dict],
                between: Callable[[int, Reply], None] | None = None) -> Played:
    """The loop any terminal can follow: read the round; post the next card if it awaits one, the
    next decision if it awaits one; stop when it awaits nothing (or a decision is refused).
    `between(step, reply)` runs after each accepted post."""
    cards, actions = list(cards), list(actions)
    replies: list[Reply] = []
    step = 0
    while True:
        read = terminal.get(f"/v1/rounds/{round_id}")
        replies.append(read)
        state = ok(read, 200)
        if state["awaiting"] == "card":
            reply = terminal.post(f"/v1/rounds/{round_id}/cards", {"card": cards.pop(0)})
        elif state["awaiting"] == "decision":
            reply = terminal.post(f"/v1/rounds/{round_id}/actions", actions.pop(0))
            if reply.status == 409:
                return Played(round_id, state, replies + [reply], refusal=reply)
        else:
            return Played(round_id, state, replies)
        replies.append(reply)
        ok(reply, 200)
        step += 1
        if between is not None:
            between(step, reply)
