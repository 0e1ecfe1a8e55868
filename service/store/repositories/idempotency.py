"""Idempotency keys: the first response to a (client key, Idempotency-Key) pair, kept to replay it."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import class_row

from ..pending import Pending

# Lock class for pg_advisory_xact_lock(int, int): the two-key space never meets the one-key
# locks (migrations use one 64-bit key).
_LOCK_CLASS = 0x1DE4


@dataclass(frozen=True, slots=True)
class StoredResponse:
    request_hash: str
    status_code: int
    response: Any


class IdempotencyRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def claim(self, key_id: uuid.UUID, idem_key: str) -> Pending[StoredResponse]:
        """Serialise requests carrying the same key until this transaction ends; the response
        stored by an earlier one, if any, sent now and read later (in pipeline mode, with the
        next read)."""
        # Two statements: the server runs the SELECT once the lock is granted, with a snapshot of
        # its own, so it sees whatever an earlier holder committed.
        self.conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LOCK_CLASS, f"{key_id}:{idem_key}"))
        return Pending(self.conn.cursor(row_factory=class_row(StoredResponse)).execute(
            "SELECT request_hash, status_code, response FROM idempotency_keys WHERE key_id = %s AND idem_key = %s",
            (key_id, idem_key)))

    def store(self, key_id: uuid.UUID, idem_key: str, request_hash: str, status_code: int, body: str | None) -> None:
        """`body` is the response's JSON text (None: not JSON), stored as it is rather than parsed
        and dumped again."""
        self.conn.execute("INSERT INTO idempotency_keys (key_id, idem_key, request_hash, status_code, response) "
                          "VALUES (%s, %s, %s, %s, coalesce(%s::jsonb, 'null'::jsonb))",
                          (key_id, idem_key, request_hash, status_code, body))
