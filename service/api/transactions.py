"""One request, one transaction: the `command` decorator that authorizes a POST, runs it, and
commits it together with its idempotent response (or records why it was refused)."""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

import psycopg
from flask import Response, current_app, g, request

from ..metrics.flask_hooks import discard_deferred
from ..refusals import CommandRefused
from ..store.repositories.audit import chain_for
from ..store.repositories.idempotency import IDEMPOTENCY_KEYS_PRIMARY_KEY, StoredResponse
from ..store.repositories.keys import KeyGuard
from ..store.uow import UnitOfWork
from ..web.request_scope import request_uow
from .auth import Access, KeyCheck
from .docs import IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_PATTERN, IF_MATCH
from .errors import fail

__all__ = ["command", "expected_version", "key_guard", "request_uow"]

_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
_VERSION = re.compile(r'^(?:W/)?"?(\d{1,9})"?$')


def expected_version() -> int | None:
    """The round version named by If-Match, if the terminal sent one."""
    raw = request.headers.get(IF_MATCH)
    if raw is None:
        return None
    match = _VERSION.match(raw.strip())
    if not match:
        fail(422, "invalid_request", "If-Match must name a round version, e.g. \"7\"",
             errors={IF_MATCH: ["must be the round's version number"]})
    return int(match.group(1))


def key_guard() -> KeyGuard:
    """The request's key, for the handler's first statement to carry (command(key_in_handler=True))."""
    guard: KeyGuard = g.key_guard
    return guard


def _request_hash() -> str:
    """What makes two requests the same: method, path and body (JSON compared by content)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:   # nested too deeply to decode: hashed as bytes, refused by the parser
        data = None
    content = (json.dumps(data, sort_keys=True, separators=(",", ":")).encode() if data is not None
               else request.get_data(cache=True))
    return hashlib.sha256(f"{request.method} {request.path}\n".encode() + content).hexdigest()


def _check_idempotency_key(idem_key: str | None) -> None:
    if idem_key is not None and not _IDEMPOTENCY_KEY.match(idem_key):
        fail(422, "invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters",
             errors={IDEMPOTENCY_KEY: ["1 to 255 printable ASCII characters"]})


def command(access: Access, *, key_in_handler: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: a state-changing view, for keys `access` allows, run in the request's transaction
    and committed. With an Idempotency-Key, a retry gets the first successful response back and
    changes nothing. A refused command rolls back; an audit record it carries is kept apart.

    It runs in pipeline mode (UnitOfWork.pipeline) from its key check to its COMMIT, so it costs a
    round trip per read rather than per statement, and its BEGIN goes with the key check. The check
    is read before the view runs, unless `key_in_handler`: then the view hands the key's guard
    (key_guard()) to its handler, whose first statement locks only for a key the check allows and
    is read with the check in one round trip. No answer leaves before the key is confirmed.

    The Idempotency-Key is taken by inserting it, with the response, just before the commit. Two
    requests with the same key take the same locks, so the second waits for the first; either way
    its insert meets the first's key (waiting for it to commit) and everything it did is rolled
    back unseen for the stored response."""

    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            uow = request_uow()
            idem_key = request.headers.get(IDEMPOTENCY_KEY)
            key: KeyCheck | None = None
            request_hash: str | None = None   # once the headers are checked: "" without an Idempotency-Key
            try:
                with uow.pipeline():
                    key = KeyCheck.send(uow, access, kwargs)
                    if key_in_handler:
                        g.key_guard = key.guard
                    else:
                        key.confirm()
                        key.commit_touch()   # goes with the next statement's round trip
                    try:
                        _check_idempotency_key(idem_key)
                        request_hash = _request_hash() if idem_key is not None else ""
                        response = current_app.make_response(view(*args, **kwargs))
                    finally:
                        key.confirm()   # a refused key's answer comes before anything else
                    if idem_key is not None and request_hash:
                        uow.idempotency.store(g.principal.key_id, idem_key, request_hash, response.status_code,
                                              response.get_data(), response.content_type)
                    uow.commit()
            except psycopg.errors.UniqueViolation as exc:
                if (key is None or not key.allowed or not request_hash or idem_key is None
                        or exc.diag.constraint_name != IDEMPOTENCY_KEYS_PRIMARY_KEY):
                    raise
                _roll_back(uow, key)
                first = uow.idempotency.stored(g.principal.key_id, idem_key)
                uow.commit()
                return _replay(first, request_hash)
            except Exception as exc:
                if key is None or not key.allowed or request_hash is None:
                    raise   # refused before acting: the request's teardown rolls back
                replayed = _after_failure(uow, key, exc, idem_key, request_hash)
                if replayed is None:
                    raise
                return replayed
            return response

        return wrapper

    return decorator


def _after_failure(uow: UnitOfWork, key: KeyCheck, exc: Exception, idem_key: str | None,
                   request_hash: str) -> Any:
    """What a command that failed after its checks leaves: the first response to its
    Idempotency-Key if a first request took it (a retry answers as that one did, and leaves no
    refusal of its own in the audit log), else None, once the refusal's audit record (and the mark
    of the key's use) is kept in a transaction of its own."""
    audit = exc.audit if isinstance(exc, CommandRefused) else None
    if idem_key is None and audit is None and not key.touch_pending:
        return None   # nothing to look up or keep: the request's teardown rolls back
    _roll_back(uow, key)
    stored = uow.idempotency.find(g.principal.key_id, idem_key) if idem_key is not None else None
    if stored is not None:
        uow.commit()
        return _replay(stored, request_hash)
    if audit is not None:
        uow.audit.append(chain_for(audit.table_id), [audit])
    uow.commit()
    return None


def _roll_back(uow: UnitOfWork, key: KeyCheck) -> None:
    """Roll the request back, keeping the mark of its key's use (which stands whatever the
    request's fate) when the key check made it in the request's transaction."""
    uow.rollback()
    if key.touch_pending:
        uow.keys.touch(g.principal.key_id)


def _replay(stored: StoredResponse, request_hash: str | None) -> Any:
    """The response first given to this Idempotency-Key, if this is the same request; nothing of
    this one is kept (its transaction was rolled back)."""
    discard_deferred()
    if stored.request_hash != request_hash:
        fail(422, "idempotency_key_reused", "this Idempotency-Key was used for a different request; use a new key",
             errors={IDEMPOTENCY_KEY: ["already used with another method, path or body"]})
    replayed = {"Idempotent-Replayed": "true"}
    if stored.body is None:   # a key taken before responses were kept as sent
        return stored.response, stored.status_code, replayed
    return Response(stored.body, stored.status_code, replayed, content_type=stored.content_type)
