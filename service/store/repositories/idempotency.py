"""Idempotency keys: the first response to a (client key, Idempotency-Key) pair, kept to replay it."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import class_row

from ..pending import Pending


@dataclass(frozen=True, slots=True)
class StoredResponse:
    request_hash: str
    status_code: int
    response: Any


class IdempotencyRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def claim(self, key_id: uuid.UUID, idem_key: str, request_hash: str) -> Pending[bool]:
        """Take the key for this transaction: whether it was free, sent now and read later (in
        pipeline mode, with the next read). The key's row is written at once, without its
        response: a request carrying the same key waits on it until this transaction ends, then
        finds the key taken (committed) or free again (rolled back). Nobody else ever sees the row
        without its response."""
        return Pending(self.conn.execute(
            "INSERT INTO idempotency_keys (key_id, idem_key, request_hash, status_code, response) "
            "VALUES (%s, %s, %s, 0, 'null'::jsonb) ON CONFLICT (key_id, idem_key) DO NOTHING RETURNING true",
            (key_id, idem_key, request_hash)), lambda row: row[0])

    def stored(self, key_id: uuid.UUID, idem_key: str) -> StoredResponse:
        """The response committed for a key that claim() found taken (its row is never deleted)."""
        with self.conn.cursor(row_factory=class_row(StoredResponse)) as cur:
            found = cur.execute("SELECT request_hash, status_code, response FROM idempotency_keys "
                                "WHERE key_id = %s AND idem_key = %s", (key_id, idem_key)).fetchone()
        if found is None:
            raise LookupError(f"Idempotency-Key {idem_key!r} was found taken but has no stored response")
        return found

    def store(self, key_id: uuid.UUID, idem_key: str, status_code: int, body: str | None) -> None:
        """The response to a claimed key. `body` is the response's JSON text (None: not JSON),
        stored as it is rather than parsed and dumped again."""
        self.conn.execute("UPDATE idempotency_keys SET status_code = %s, response = coalesce(%s::jsonb, 'null'::jsonb) "
                          "WHERE key_id = %s AND idem_key = %s", (status_code, body, key_id, idem_key))
