"""A key per touch: each form the screen draws carries a fresh key, and the touch it sends is
carried out once whatever happens to the request (a double tap, a resend after a dropped
connection, the same form submitted from a second tab)."""
from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from ..command_runner import run_command
from ..store.uow import UnitOfWork

_KEY = re.compile(r"^[0-9a-f]{32}$")
# What a touch's key is kept with: the store keeps a response per key; the screen answers a repeat
# with the table as it then stands, so the key's own record says only that it was carried out.
_DONE = b'{"carried_out": true}'


@dataclass(frozen=True, slots=True)
class ActionKey:
    value: str

    @classmethod
    def of(cls, text: str) -> ActionKey | None:
        """The key a form sent, if it is one the screen draws (32 hex digits); None otherwise."""
        return cls(text) if _KEY.match(text) else None


def new_action_key() -> str:
    """A fresh key for a form about to be drawn."""
    return uuid.uuid4().hex


def carry_out_once(uow: UnitOfWork, screen_id: uuid.UUID, key: ActionKey, work: Callable[[], object]) -> bool:
    """`work()` committed with the touch's key, in one transaction: True. A key already taken (by a
    repeat of this touch, which waits for the first to commit) changes nothing: False. A refusal
    (CommandRefused) goes on up, its audit record kept, as every adapter's is."""
    request_hash = hashlib.sha256(key.value.encode()).hexdigest()

    def once() -> bool:
        work()
        uow.idempotency.store(screen_id, key.value, request_hash, 200, _DONE, "application/json")
        return True

    def done_before() -> bool | None:
        return None if uow.idempotency.find(screen_id, key.value) is None else False

    return run_command(uow, once, answered_before=done_before)
