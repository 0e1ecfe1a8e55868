"""API keys: create (only the SHA-256 of the secret is kept), authenticate, revoke, list."""
from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.rows import class_row

from ..pending import Pending
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


_COLUMNS = "key_id, role, table_id, name, created_by, created_at, revoked_at, last_used_at"


@dataclass(frozen=True, slots=True)
class KeyGuard:
    """A request's key as a statement sent with its key check can test it (key_allows()): so that
    the statement locks nothing for a key the check will refuse."""
    key_hash: str
    roles: tuple[str, ...]

    def params(self) -> dict[str, Any]:
        return {"key_hash": self.key_hash, "roles": list(self.roles)}


def allowed_key(table_column: str) -> str:
    """SQL giving the id of the request's key (KeyGuard's parameters, by name) when it is live, has
    one of the roles and, if it is a terminal's, belongs to the table in `table_column` (what the
    key check itself requires); no row otherwise."""
    return ("SELECT k.key_id FROM api_keys k WHERE k.key_hash = %(key_hash)s AND k.revoked_at IS NULL "
            f"AND k.role = ANY (%(roles)s) AND (k.role <> 'terminal' OR k.table_id = {table_column})")


class KeysRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def create(self, *, role: str, table_id: str | None, name: str | None,
               created_by: str | None) -> tuple[KeyRow, str]:
        """The new key's row and its secret: the only time the secret exists outside its holder."""
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            row = cur.execute(
                f"INSERT INTO api_keys (key_id, key_hash, role, table_id, name, created_by) "
                f"VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_COLUMNS}",
                (uuid.uuid4(), hash_secret(secret), role, table_id, name, created_by)).fetchone()
        return returned(row), secret

    def authenticate_pending(self, secret: str, table_of: tuple[str, Any] | None = None
                             ) -> Pending[tuple[KeyRow, bool, str | None]]:
        """The key holding this secret (revoked ones too, so a refusal can name them), whether its
        last use was marked now and, with `table_of` (a query giving one table id, and its one
        parameter), the table the request is about; sent now and read later (None: no such key).
        A live key's last_used_at moves only when it is a minute old (the access list shows it to
        the minute), so most requests write nothing here. One statement: the touch is guarded on
        revoked_at, so it never interleaves with a revocation."""
        table_query, table_param = table_of or ("SELECT NULL::text", None)
        cur = self.db.execute(
            f"WITH k AS (SELECT {_COLUMNS} FROM api_keys WHERE key_hash = %s), "
            f"touched AS (UPDATE api_keys SET last_used_at = now() "
            f"WHERE key_id = (SELECT key_id FROM k) AND revoked_at IS NULL "
            f"AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds') "
            f"RETURNING last_used_at) "
            f"SELECT {_COLUMNS.replace('last_used_at', 'coalesce((SELECT last_used_at FROM touched), last_used_at)')}, "
            f"EXISTS (SELECT 1 FROM touched), ({table_query}) FROM k",
            (hash_secret(secret),) if table_of is None else (hash_secret(secret), table_param))
        return Pending(cur, lambda row: (KeyRow(*row[:-2]), row[-2], row[-1]))

    def touch(self, key_id: uuid.UUID) -> None:
        """Mark a live key used now: what authenticate_pending() marked, again, after the request
        that marked it was rolled back (its last use stands whatever the request's fate)."""
        self.db.execute("UPDATE api_keys SET last_used_at = now() WHERE key_id = %s AND revoked_at IS NULL",
                        (key_id,))

    def exists(self, key_id: uuid.UUID) -> bool:
        """Whether a key with this id was ever created (revoked or not)."""
        return self.db.execute("SELECT 1 FROM api_keys WHERE key_id = %s", (key_id,)).fetchone() is not None

    def revoke(self, key_id: uuid.UUID) -> KeyRow | None:
        """The revoked key, or None when no live key has this id."""
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute(
                f"UPDATE api_keys SET revoked_at = now() WHERE key_id = %s AND revoked_at IS NULL "
                f"RETURNING {_COLUMNS}", (key_id,)).fetchone()

    def lock_live(self, role: str) -> list[uuid.UUID]:
        """The ids of the live keys with this role, locked (in id order, as every caller takes
        them) until the transaction ends: two revocations racing for the last ones are serialised."""
        rows = self.db.execute("SELECT key_id FROM api_keys WHERE role = %s AND revoked_at IS NULL "
                               "ORDER BY key_id FOR UPDATE", (role,)).fetchall()
        return [key_id for (key_id,) in rows]

    def all(self) -> list[KeyRow]:
        with self.db.cursor(row_factory=class_row(KeyRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at").fetchall()

    def any_live(self, role: str) -> bool:
        return returned(self.db.execute("SELECT EXISTS (SELECT 1 FROM api_keys WHERE role = %s AND revoked_at IS NULL)",
                                 (role,)).fetchone())[0]
