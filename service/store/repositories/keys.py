"""API keys: create (only the SHA-256 of the secret is kept), authenticate, revoke, list."""
from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import sql
from psycopg.rows import class_row, dict_row, kwargs_row

from ..transaction import Statements, returned

SECRET_PREFIX = "pnt_"


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class KeyRow:
    key_id: uuid.UUID
    role: str
    table_id: str | None
    name: str | None
    created_by: str | None
    created_at: datetime
    revoked_at: datetime | None
    last_used_at: datetime | None


@dataclass(frozen=True, slots=True)
class FoundKey:
    """The key holding a request's secret, with the table the request is about (when asked for)."""
    key: KeyRow
    request_table_id: str | None


def _found_key(*, request_table_id: str | None, **columns: Any) -> FoundKey:
    return FoundKey(KeyRow(**columns), request_table_id)


# The key holding a secret (revoked ones too, so a refusal can name them), its last use marked when
# that mark is a minute old (the access list shows it to the minute, so most requests write nothing
# here; the mark is guarded on revoked_at, so it never interleaves with a revocation), and the table
# the request is about, found by {table_of} (a query of one column and one row, its parameter
# %(subject)s: the id the request names).
_AUTHENTICATE = sql.SQL("""
WITH k AS (
    SELECT key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at
    FROM api_keys WHERE key_hash = %(key_hash)s
), touched AS (
    UPDATE api_keys SET last_used_at = now()
    WHERE key_id = (SELECT key_id FROM k) AND revoked_at IS NULL
      AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')
    RETURNING last_used_at
)
SELECT k.key_id, k.role, k.table_id, k.name, k.created_by, k.created_at, k.revoked_at,
       coalesce((SELECT last_used_at FROM touched), k.last_used_at) AS last_used_at,
       ({table_of}) AS request_table_id
FROM k""")
_NO_TABLE = sql.SQL("SELECT NULL::text")


class KeysRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def create(self, *, role: str, table_id: str | None, name: str | None,
               created_by: str | None) -> tuple[KeyRow, str]:
        """The new key's row and its secret: the only time the secret exists outside its holder."""
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            row = cur.execute(
                "INSERT INTO api_keys (key_id, key_hash, role, table_id, name, created_by) "
                "VALUES (%s, %s, %s, %s, %s, %s) "
                "RETURNING key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at",
                (uuid.uuid4(), hash_secret(secret), role, table_id, name, created_by)).fetchone()
        return returned(row), secret

    def authenticate(self, secret: str, table_of: sql.Composable | None = None, subject: Any = None
                     ) -> FoundKey | None:
        """The key holding this secret, None when there is none (_AUTHENTICATE). With `table_of`
        (a query giving one table id from its parameter %(subject)s), the table the request is
        about, so that a terminal's key can be held to its own table."""
        with self.db.cursor(row_factory=kwargs_row(_found_key)) as cur:
            return cur.execute(_AUTHENTICATE.format(table_of=table_of or _NO_TABLE),
                               {"key_hash": hash_secret(secret), "subject": subject}).fetchone()

    def exists(self, key_id: uuid.UUID) -> bool:
        """Whether a key with this id was ever created (revoked or not)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            return cur.execute("SELECT key_id FROM api_keys WHERE key_id = %s", (key_id,)).fetchone() is not None

    def revoke(self, key_id: uuid.UUID) -> KeyRow | None:
        """The revoked key, or None when no live key has this id."""
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute(
                "UPDATE api_keys SET revoked_at = now() WHERE key_id = %s AND revoked_at IS NULL "
                "RETURNING key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at",
                (key_id,)).fetchone()

    def lock_live(self, role: str) -> list[uuid.UUID]:
        """The ids of the live keys with this role, locked (in id order, as every caller takes
        them) until the transaction ends: two revocations racing for the last ones are serialised."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT key_id FROM api_keys WHERE role = %s AND revoked_at IS NULL "
                               "ORDER BY key_id FOR UPDATE", (role,)).fetchall()
        return [row["key_id"] for row in rows]

    def all(self) -> list[KeyRow]:
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute("SELECT key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at "
                               "FROM api_keys ORDER BY created_at").fetchall()

    def any_live(self, role: str) -> bool:
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT EXISTS (SELECT FROM api_keys WHERE role = %s AND revoked_at IS NULL) AS live",
                                (role,)).fetchone()
        return bool(returned(found)["live"])
