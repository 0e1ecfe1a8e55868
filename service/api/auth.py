"""Bearer-key authorization: every request's key is checked (no cache, so a revocation bites at
once) before anything is answered. A refusal of a known key is recorded in the audit log; one
before a valid key is known is counted and summed per source and minute."""
from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, NoReturn

from flask import g, request
from psycopg import sql
from werkzeug.exceptions import HTTPException

from ..metrics import observe_access_refused
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.keys import KeyRow
from ..store.uow import UnitOfWork
from ..web.request_scope import request_uow
from .errors import fail

REFUSAL_SUMMARY = "access_refused_summary"

log = logging.getLogger("pontoon.access")


@dataclass(frozen=True, slots=True)
class TableOf:
    """Where a request names its table: the view argument, and the query (its one parameter,
    %(subject)s: that argument) that finds the table when the argument is not the table's id itself."""
    arg: str
    query: sql.Composable | None = None


table_in_path = TableOf("table_id")


@dataclass(frozen=True, slots=True)
class Access:
    """Who may make a request: a live key with one of `roles`; a terminal's key also needs the
    request's table (found as `table_from` says; none found means no such resource: 404) to be
    its own."""
    roles: tuple[str, ...]
    table_from: TableOf | None = None


def access(*roles: str, table_from: TableOf | None = None) -> Access:
    return Access(roles, table_from)


@dataclass(frozen=True, slots=True)
class Principal:
    key_id: uuid.UUID
    role: str
    table_id: str | None           # a terminal's table
    owner_id: uuid.UUID | None     # the person the key belongs to (none: a terminal's)

    @property
    def actor(self) -> str:
        return str(self.key_id)


def principal() -> Principal:
    found: Principal = g.principal
    return found


def authenticate(uow: UnitOfWork, rule: Access, view_args: dict[str, Any]) -> Principal:
    """The request's principal (also g.principal), or its refusal, recorded and raised: one
    statement finds the key (and, for a request naming a round or a shoe, the table it is at) and
    marks its use, which stands whatever the request's fate. The table is held to a terminal's
    key only."""
    secret = _secret(uow)
    table_from = rule.table_from
    if table_from is not None and table_from.query is not None:
        found = uow.keys.authenticate(secret, table_from.query, view_args[table_from.arg])
    else:
        found = uow.keys.authenticate(secret)
    if found is None:
        _deny(uow, 401, "unauthorized", "this key is not valid", None)
    key = found.key
    if key.revoked_at is not None:
        _deny(uow, 401, "key_revoked", "this key has been revoked", key)
    owner = found.owner
    if owner is not None and not owner.active:
        # A key is its person's: it stops with their account.
        _deny(uow, 401, "key_owner_deactivated", f"this key belongs to {owner.username}, whose account is "
              "deactivated", key)
    if owner is not None and owner.role != key.role:
        _deny(uow, 401, "key_owner_role_changed", f"this {key.role} key belongs to {owner.username}, who is "
              f"{owner.role} now: an admin issues them a key of their new role", key)
    g.principal = Principal(key.key_id, key.role, key.table_id, key.owner_id)
    if key.role not in rule.roles:
        article = "an" if key.role[0] in "aeiou" else "a"
        allowed = list(dict.fromkeys(rule.roles))
        who = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else allowed[0]
        try:
            _deny(uow, 403, "forbidden", f"{article} {key.role} key may not do this: only {who} keys may", key)
        except HTTPException as refusal:
            # The caller is told who may, by name as well as in words: the roles a key needs.
            body = getattr(refusal, "data", None)
            if isinstance(body, dict):
                body["allowed"] = allowed
            raise
    if key.role == "terminal":
        table_id = found.request_table_id
        if table_from is not None and table_from.query is None:
            table_id = view_args[table_from.arg]
        if table_from is not None and table_id is None:
            fail(404, "not_found", "no such resource")
        if table_id != key.table_id:   # a request naming no table is none of a terminal's business
            _deny(uow, 403, "wrong_table", "this terminal key belongs to another table", key)
    return g.principal


def require(*roles: str, table_from: TableOf | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator for a view that changes nothing: the key is checked before the view runs. (A
    state-changing view is a transactions.command, which checks its own key.)"""
    rule = Access(roles, table_from)

    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            authenticate(request_uow(), rule, kwargs)
            return view(*args, **kwargs)

        return wrapper

    return decorator


def _secret(uow: UnitOfWork) -> str:
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        _deny(uow, 401, "unauthorized", "send Authorization: Bearer <key>", None)
    return secret


def _deny(uow: UnitOfWork, status: int, code: str, message: str, key: KeyRow | None) -> NoReturn:
    """Refuse. A known key's refusal is recorded in the audit log (never the body or the secret),
    and its use marked by its check stands. A request with no valid key is only counted (metrics,
    a log line, its source's row for the minute): anyone who can reach the service could send
    those, and the audit log keeps one summary record per source and minute of them."""
    path = request.path.replace("\x00", "\\x00")[:512]
    with uow.transaction():
        if key is None:
            _count_refusal(uow, status, code, path)
        else:
            uow.audit.append(chain_for(None), [AuditRecord("access_denied", {
                "status": status, "reason": code, "key_id": str(key.key_id), "role": key.role,
                "method": request.method, "path": path}, actor=str(key.key_id))])
    fail(status, code, message)


def _count_refusal(uow: UnitOfWork, status: int, code: str, path: str) -> None:
    """Count a refusal before a valid key was known, and chain the summaries of the minutes now
    over (the first refusal after a minute ends writes them, whoever sends it)."""
    source = request.remote_addr or "unknown"
    observe_access_refused(status, code)
    log.warning("request refused: %s", code, extra={"status": status, "reason": code, "method": request.method,
                                                    "path": path, "source": source})
    uow.audit.count_refusal(source, code)
    summaries = [AuditRecord(REFUSAL_SUMMARY, {
        "source": claimed.source, "minute": claimed.minute.isoformat(), "refused": claimed.refused,
        "reasons": claimed.reasons})
        for claimed in uow.audit.claim_refusal_minutes()]
    uow.audit.append(chain_for(None), summaries)
