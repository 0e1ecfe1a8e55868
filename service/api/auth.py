"""Bearer-key authorization: `require(roles..., table_from=...)` checks the key on every request
(no cache, so a revocation bites at once) and records each refusal in the audit log."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from flask import g, request

from ..audit.log import AuditRecord, append, chain_for
from ..store.pending import Pending
from ..store.repositories.keys import KeyGuard, KeyRow, hash_secret
from ..store.uow import UnitOfWork
from .errors import fail
from .transactions import checking_key_first, is_command, request_uow

READERS = ("admin", "operator", "supervisor", "compliance", "terminal")


@dataclass(frozen=True, slots=True)
class TableOf:
    """Where a request names its table: the view argument, and the query (its one parameter: that
    argument) that finds the table when the argument is not the table's id itself."""
    arg: str
    query: str | None = None


table_in_path = TableOf("table_id")


@dataclass(frozen=True, slots=True)
class Principal:
    key_id: uuid.UUID
    role: str
    table_id: str | None           # a terminal's table

    @property
    def actor(self) -> str:
        return str(self.key_id)


def principal() -> Principal:
    return g.principal


def require(*roles: str, table_from: TableOf | None = None,
            sent_with: Callable[[UnitOfWork, dict, KeyGuard], None] | None = None):
    """Decorator: the request needs a live key with one of `roles`. A terminal key also needs the
    request's table (found as `table_from` says; none found means no such resource: 404) to be its
    own. Runs before the body is read, so an anonymous caller learns nothing from it. The key and
    the table are found by one statement; the table is looked at only for a terminal key.

    A command (transactions.command) runs the check first thing in its pipeline, so the
    transaction's BEGIN and the key check go to the server in one round trip, together with what
    `sent_with` sends (given the view's arguments and the key as a KeyGuard): the statements the
    command reads first, which lock nothing unless the key passes. Any other view has the check
    run before it."""

    def check(uow: UnitOfWork, view_args: dict) -> None:
        secret = _secret(uow)
        table_of = None
        if table_from is not None and table_from.query is not None:
            table_of = (table_from.query, view_args[table_from.arg])
        found = uow.keys.authenticate_pending(secret, table_of)
        if sent_with is not None:
            sent_with(uow, view_args, KeyGuard(hash_secret(secret), roles))
        key, table_id = _live_key(uow, found)
        if key.role not in roles:
            article = "an" if key.role[0] in "aeiou" else "a"
            _deny(uow, 403, "forbidden", f"{article} {key.role} key may not do this", key)
        if key.role == "terminal":
            if table_from is not None and table_from.query is None:
                table_id = view_args[table_from.arg]
            if table_from is not None and table_id is None:
                fail(404, "not_found", "no such resource")
            if table_id != key.table_id:
                _deny(uow, 403, "wrong_table", "this terminal key belongs to another table", key)
        g.principal = Principal(key.key_id, key.role, key.table_id)

    def decorator(view):
        if is_command(view):
            return checking_key_first(view, check)
        if sent_with is not None:
            raise TypeError("sent_with needs a command: only a command's pipeline carries statements with the key check")

        @wraps(view)
        def wrapper(*args, **kwargs):
            check(request_uow(), kwargs)
            return view(*args, **kwargs)

        return wrapper

    return decorator


def _secret(uow: UnitOfWork) -> str:
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        _deny(uow, 401, "unauthorized", "send Authorization: Bearer <key>", None)
    return secret


def _live_key(uow: UnitOfWork, found: Pending[tuple[KeyRow, bool, str | None]]) -> tuple[KeyRow, str | None]:
    """The live key, and the table its statement found for the request (if it looked for one)."""
    key, touched, table_id = found.one() or (None, False, None)
    if touched:
        # last_used_at stands whatever the request's fate; nothing else is in the transaction yet
        # but what `sent_with` sent, whose locks this commit releases (the unit of work forgets
        # them, so the command takes them again), and this happens at most once a minute per key.
        uow.commit()
    if key is None:
        _deny(uow, 401, "unauthorized", "this key is not valid", None)
    if key.revoked_at is not None:
        _deny(uow, 401, "key_revoked", "this key has been revoked", key)
    return key, table_id


def _deny(uow: UnitOfWork, status: int, code: str, message: str, key: KeyRow | None) -> None:
    """Record the refusal (never the body or the secret), then refuse."""
    uow.rollback()
    append(uow.conn, chain_for(None), [AuditRecord("access_denied", {
        "status": status, "reason": code, "key_id": str(key.key_id) if key else None,
        "role": key.role if key else None, "method": request.method,
        "path": request.path.replace("\x00", "\\x00")[:512]},
        actor=str(key.key_id) if key else None)])
    uow.commit()
    fail(status, code, message)
