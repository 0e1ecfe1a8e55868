"""Idempotency keys: the first response to a (client key, Idempotency-Key) pair, kept to replay it."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from psycopg.rows import class_row

from ..transaction import Statements


@dataclass(frozen=True, slots=True)
class StoredResponse:
    request_hash: str
    status_code: int
    body: bytes | None             # the response's bytes, as first sent
    content_type: str | None
    response: Any                  # a key taken before bodies were kept: its response's JSON


# The constraint a second insert of the same (client key, Idempotency-Key) breaks.
IDEMPOTENCY_KEYS_PRIMARY_KEY = "idempotency_keys_pkey"


class IdempotencyRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def store(self, key_id: uuid.UUID, idem_key: str, request_hash: str, status_code: int, body: bytes,
              content_type: str | None) -> None:
        """Take the key with the response to it, in the caller's transaction: its bytes as sent, so
        a retry gets back the very same answer. A key taken already fails the statement
        (IDEMPOTENCY_KEYS_PRIMARY_KEY), after waiting for the transaction that took it to end;
        nobody ever sees a key without its response."""
        self.db.execute("INSERT INTO idempotency_keys (key_id, idem_key, request_hash, status_code, body, "
                          "content_type) VALUES (%s, %s, %s, %s, %s, %s)",
                          (key_id, idem_key, request_hash, status_code, body, content_type))

    def find(self, key_id: uuid.UUID, idem_key: str) -> StoredResponse | None:
        """The response committed for a key, if it was taken."""
        with self.db.cursor(row_factory=class_row(StoredResponse)) as cur:
            return cur.execute("SELECT request_hash, status_code, body, content_type, response "
                               "FROM idempotency_keys WHERE key_id = %s AND idem_key = %s",
                               (key_id, idem_key)).fetchone()

    def stored(self, key_id: uuid.UUID, idem_key: str) -> StoredResponse:
        """The response committed for a key that store() found taken (its row is never deleted)."""
        found = self.find(key_id, idem_key)
        if found is None:
            raise LookupError(f"Idempotency-Key {idem_key!r} was found taken but has no stored response")
        return found
