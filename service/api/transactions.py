"""One request, one transaction: the request's unit of work, and the `command` decorator that
commits a POST together with its idempotent response (or records why it was refused)."""
from __future__ import annotations

import hashlib
import json
import re
from functools import wraps

import psycopg
from flask import Flask, Response, current_app, g, request

from ..audit.log import append, chain_for
from ..metrics.collectors import connection_returned, connection_taken
from ..metrics.flask_hooks import discard_deferred
from ..rounds.errors import CommandRefused
from ..store.repositories.idempotency import IDEMPOTENCY_KEYS_PRIMARY_KEY, StoredResponse
from ..store.uow import UnitOfWork
from .docs import IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_PATTERN, IF_MATCH
from .errors import fail

_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
_VERSION = re.compile(r'^(?:W/)?"?(\d{1,9})"?$')


def request_uow() -> UnitOfWork:
    """The request's unit of work, opened on first use and closed (rolled back if uncommitted)
    when the request ends."""
    if "uow" not in g:
        g.uow = UnitOfWork(current_app.extensions["pontoon.pool"]).__enter__()
        connection_taken()
    return g.uow


def close_request_uow(_exc: BaseException | None = None) -> None:
    uow = g.pop("uow", None)
    if uow is not None:
        try:
            uow.__exit__(None, None, None)
        finally:
            connection_returned()


def install(app: Flask) -> None:
    app.teardown_appcontext(close_request_uow)


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


def _request_hash() -> str:
    """What makes two requests the same: method, path and body (JSON compared by content)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:   # nested too deeply to decode: hashed as bytes, refused by the parser
        data = None
    content = (json.dumps(data, sort_keys=True, separators=(",", ":")).encode() if data is not None
               else request.get_data(cache=True))
    return hashlib.sha256(f"{request.method} {request.path}\n".encode() + content).hexdigest()


def command(view):
    """Run a state-changing view in the request's transaction and commit it. With an
    Idempotency-Key, a retry gets the first successful response back and changes nothing.
    A refused command rolls back; an audit record it carries is kept in a transaction of its own.

    The command runs in pipeline mode (`uow.pipeline()`), from its key check (auth.require's, run
    first) to its commit: a statement whose result is not read waits in the client and goes with
    the next one that is, or with the commit, so a command costs a round trip, and a write to the
    server, per read rather than per statement, and its transaction's BEGIN goes with the key
    check. A statement that fails fails the request all the same, at the latest when it commits.

    The Idempotency-Key is taken by inserting it, with the response, just before the commit. Two
    requests with the same key take the same locks, so the second waits for the first and then
    either finds the state the first left (and is refused, or acts again) or, taking no lock, does
    its work beside it; either way its insert meets the first's key (waiting for it to commit) and
    everything it did is rolled back unseen for the stored response."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        uow = request_uow()
        idem_key = request.headers.get(IDEMPOTENCY_KEY)
        acting = False   # past the key and header checks: what fails now may be a retry's to answer
        try:
            with uow.pipeline():
                if wrapper.key_check is not None:
                    wrapper.key_check(uow, kwargs)
                if idem_key is not None and not _IDEMPOTENCY_KEY.match(idem_key):
                    fail(422, "invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters",
                         errors={IDEMPOTENCY_KEY: ["1 to 255 printable ASCII characters"]})
                request_hash = _request_hash() if idem_key is not None else None
                acting = True
                response = current_app.make_response(view(*args, **kwargs))
                if idem_key is not None:
                    uow.idempotency.store(g.principal.key_id, idem_key, request_hash, response.status_code,
                                          response.get_data(), response.content_type)
                uow.commit_with_pipeline()
        except psycopg.errors.UniqueViolation as exc:
            if not acting or idem_key is None or exc.diag.constraint_name != IDEMPOTENCY_KEYS_PRIMARY_KEY:
                raise
            uow.rollback()
            return _replay(uow.idempotency.stored(g.principal.key_id, idem_key), request_hash)
        except Exception as exc:
            audit = exc.audit if isinstance(exc, CommandRefused) else None
            if not acting or (idem_key is None and audit is None):
                raise   # nothing to look up or keep: the request's teardown rolls back
            uow.rollback()
            stored = uow.idempotency.find(g.principal.key_id, idem_key) if idem_key is not None else None
            if stored is not None:
                # A retry that found what its first request left: it answers as that one did, and
                # leaves no refusal of its own in the audit log.
                return _replay(stored, request_hash)
            if audit is not None:
                append(uow.conn, chain_for(audit.table_id), [audit])
                uow.commit()
            raise
        return response

    wrapper.key_check = None   # set by auth.require: Callable[[UnitOfWork, dict], None]
    wrapper.command_wrapper = wrapper
    return wrapper


def is_command(view) -> bool:
    """Whether `view` is command()'s wrapper itself (a decorator around it copies its attributes,
    but is not it: its key check would never run)."""
    return getattr(view, "command_wrapper", None) is view


def checking_key_first(view, key_check):
    """The command `view`, running `key_check` (given the unit of work and the view's arguments)
    first in its pipeline."""
    if view.key_check is not None:
        raise TypeError(f"{view.__qualname__} has a key check already")
    view.key_check = key_check
    return view


def _replay(stored: StoredResponse, request_hash: str):
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
