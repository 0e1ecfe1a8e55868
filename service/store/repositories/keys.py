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
    owner_id: uuid.UUID | None = None       # the staff account it belongs to (none: a terminal's)
    revoke_reason: str | None = None


_COLUMNS = "key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at, owner_id, revoke_reason"


@dataclass(frozen=True, slots=True)
class KeyOwner:
    """The person a key belongs to, as a request finds them: a key works only while its person is
    active in the key's role."""
    username: str
    role: str
    active: bool


@dataclass(frozen=True, slots=True)
class FoundKey:
    """The key holding a request's secret, with its owner and the table the request is about
    (when asked for)."""
    key: KeyRow
    request_table_id: str | None
    owner: KeyOwner | None = None


def _found_key(*, request_table_id: str | None, owner_username: str | None, owner_role: str | None,
               owner_active: bool | None, **columns: Any) -> FoundKey:
    owner = (KeyOwner(owner_username, owner_role or "", bool(owner_active))
             if owner_username is not None else None)
    return FoundKey(KeyRow(**columns), request_table_id, owner)


# The key holding a secret (revoked ones too, so a refusal can name them), its last use marked when
# that mark is a minute old (the access list shows it to the minute, so most requests write nothing
# here; the mark is guarded on revoked_at, so it never interleaves with a revocation), and the table
# the request is about, found by {table_of} (a query of one column and one row, its parameter
# %(subject)s: the id the request names).
_AUTHENTICATE = sql.SQL("""
WITH k AS (
    SELECT key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at, owner_id, revoke_reason
    FROM api_keys WHERE key_hash = %(key_hash)s
), touched AS (
    UPDATE api_keys SET last_used_at = now()
    WHERE key_id = (SELECT key_id FROM k) AND revoked_at IS NULL
      AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')
    RETURNING last_used_at
)
SELECT k.key_id, k.role, k.table_id, k.name, k.created_by, k.created_at, k.revoked_at,
       coalesce((SELECT last_used_at FROM touched), k.last_used_at) AS last_used_at, k.owner_id, k.revoke_reason,
       u.username AS owner_username, u.role AS owner_role, u.active AS owner_active,
       ({table_of}) AS request_table_id
FROM k LEFT JOIN staff_users u ON u.user_id = k.owner_id""")
_NO_TABLE = sql.SQL("SELECT NULL::text")


class KeysRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    @staticmethod
    def new_secret() -> str:
        return SECRET_PREFIX + secrets.token_urlsafe(32)

    def create(self, *, role: str, table_id: str | None, name: str | None, created_by: str | None,
               owner_id: uuid.UUID | None = None, secret: str | None = None) -> tuple[KeyRow, str]:
        """The new key's row and its secret (a new one, unless given): the only time the secret
        exists outside its holder."""
        secret = secret or self.new_secret()
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            row = cur.execute(
                "INSERT INTO api_keys (key_id, key_hash, role, table_id, name, created_by, owner_id) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {_COLUMNS}",
                (uuid.uuid4(), hash_secret(secret), role, table_id, name, created_by, owner_id)).fetchone()
        return returned(row), secret

    def get(self, key_id: uuid.UUID) -> KeyRow | None:
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE key_id = %s", (key_id,)).fetchone()

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

    def revoke(self, key_id: uuid.UUID, reason: str | None = None) -> KeyRow | None:
        """The revoked key, or None when no live key has this id."""
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute(
                "UPDATE api_keys SET revoked_at = now(), revoke_reason = %s WHERE key_id = %s AND revoked_at IS NULL "
                f"RETURNING {_COLUMNS}", (reason, key_id)).fetchone()

    def lock_live(self, role: str) -> list[uuid.UUID]:
        """The ids of the live keys with this role, locked (in id order, as every caller takes
        them) until the transaction ends: two revocations racing for the last ones are serialised."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT key_id FROM api_keys WHERE role = %s AND revoked_at IS NULL "
                               "ORDER BY key_id FOR UPDATE", (role,)).fetchall()
        return [row["key_id"] for row in rows]

    def all(self) -> list[KeyRow]:
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at").fetchall()

    def any_live(self, role: str) -> bool:
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT EXISTS (SELECT FROM api_keys WHERE role = %s AND revoked_at IS NULL) AS live",
                                (role,)).fetchone()
        return bool(returned(found)["live"])
