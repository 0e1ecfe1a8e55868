"""One request, one transaction: the `command` decorator that authorizes a POST, then runs it with
run_command, committed together with its idempotent response (or with why it was refused kept)."""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, current_app, request

from ..command_runner import run_command
from ..metrics.flask_hooks import discard_deferred
from ..store.repositories.idempotency import StoredResponse
from ..web.request_scope import request_uow
from .auth import Access, authenticate
from .docs import IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_PATTERN
from .errors import fail

__all__ = ["command", "request_uow"]

_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


# Secrets a body may carry to confirm who sends it: left out of the request's stored hash, which
# would otherwise be a way to test guesses at a password offline.
CONFIRMATION_FIELDS = ("password", "totp", "current_password", "new_password")


def _request_hash() -> str:
    """What makes two requests the same: method, path and body (JSON compared by content, without
    its confirmation secrets)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:   # nested too deeply to decode: hashed as bytes, refused by the parser
        data = None
    if isinstance(data, dict) and any(name in data for name in CONFIRMATION_FIELDS):
        data = {name: value for name, value in data.items() if name not in CONFIRMATION_FIELDS}
    content = (json.dumps(data, sort_keys=True, separators=(",", ":")).encode() if data is not None
               else request.get_data(cache=True))
    return hashlib.sha256(f"{request.method} {request.path}\n".encode() + content).hexdigest()


def _check_idempotency_key(idem_key: str | None) -> None:
    if idem_key is not None and not _IDEMPOTENCY_KEY.match(idem_key):
        fail(422, "invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters",
             errors={IDEMPOTENCY_KEY: ["1 to 255 printable ASCII characters"]})


def command(access: Access, replayed_headers: Callable[[Any], dict[str, str]] | None = None,
            ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: a state-changing view, for keys `access` allows, run by run_command in one
    transaction and committed. The key is confirmed first: a refused key's answer comes before
    anything else is read or locked. With an Idempotency-Key, a retry gets the first successful
    response back and changes nothing; the headers of that response which say where to look
    next (a Location) are not kept, and `replayed_headers(body)` gives them again from its body.

    The Idempotency-Key is taken by inserting it, with the response, just before the commit. Two
    requests with the same key take the same locks, so the second waits for the first; either way
    its insert meets the first's key (waiting for it to commit) and everything it did is rolled
    back unseen for the stored response."""

    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            uow = request_uow()
            caller = authenticate(uow, access, kwargs)
            idem_key = request.headers.get(IDEMPOTENCY_KEY)
            _check_idempotency_key(idem_key)
            if idem_key is None:
                return run_command(uow, lambda: current_app.make_response(view(*args, **kwargs)))
            request_hash = _request_hash()

            def respond() -> Response:
                response = current_app.make_response(view(*args, **kwargs))
                uow.idempotency.store(caller.key_id, idem_key, request_hash, response.status_code,
                                      response.get_data(), response.content_type)
                return response

            def answered_before() -> Response | None:
                stored = uow.idempotency.find(caller.key_id, idem_key)
                if stored is None:
                    return None
                replayed = _replay(stored, request_hash)
                if replayed_headers is not None:
                    replayed.headers.update(replayed_headers(replayed.get_json()))
                return replayed

            return run_command(uow, respond, answered_before=answered_before)

        return wrapper

    return decorator


def _replay(stored: StoredResponse, request_hash: str) -> Response:
    """The response first given to this Idempotency-Key, if this is the same request; nothing of
    this one is kept (its transaction was rolled back)."""
    discard_deferred()
    if stored.request_hash != request_hash:
        fail(422, "idempotency_key_reused", "this Idempotency-Key was used for a different request; use a new key",
             errors={IDEMPOTENCY_KEY: ["already used with another method, path or body"]})
    replayed = {"Idempotent-Replayed": "true"}
    if stored.body is None:   # a key taken before responses were kept as sent
        return current_app.make_response((stored.response, stored.status_code, replayed))
    return Response(stored.body, stored.status_code, replayed, content_type=stored.content_type)
