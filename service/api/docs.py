"""Spec helpers: an operation's name, the error responses and request headers it documents."""
from __future__ import annotations

import http

from flask_smorest import Blueprint

IDEMPOTENCY_KEY = "Idempotency-Key"
IDEMPOTENCY_KEY_PATTERN = r"^[\x20-\x7e]{1,255}$"   # printable ASCII: it is stored and compared as text
IF_MATCH = "If-Match"
IF_MATCH_PATTERN = r'^(W/)?"?[0-9]{1,9}"?$'   # a round's revision, as an entity tag or bare
IDEMPOTENT_REPLAYED = "Idempotent-Replayed"
RETRY_AFTER = "Retry-After"
CONTENT_DISPOSITION = "Content-Disposition"

_HEADERS = {
    IDEMPOTENCY_KEY: {"in": "header", "name": IDEMPOTENCY_KEY, "required": False,
                      "description": "a retry with the same key and body gets the first successful response back "
                                     "(with Idempotent-Replayed: true) and changes nothing; the same key with "
                                     "another method, path or body is refused (422 idempotency_key_reused). "
                                     "A refused request keeps nothing: its retry is judged again",
                      "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                                 "pattern": IDEMPOTENCY_KEY_PATTERN}},
    IF_MATCH: {"in": "header", "name": IF_MATCH, "required": False,
               "description": "the round's revision the request was decided on (as `7` or `\"7\"`); a round that "
                              "has moved since refuses it (409 revision_conflict)",
               "schema": {"type": "string", "maxLength": 13, "pattern": IF_MATCH_PATTERN}},
}


def documented(blp: Blueprint, operation_id: str, *errors: int, headers: tuple[str, ...] = ()):
    """Decorator naming an operation (`operation_id`, what a generated client calls it) and
    listing in the spec the error statuses it gives (401 and 403 always: every operation needs a
    key) and the optional headers it reads. (What every operation shares, 503 and the body's
    refusals, the spec's plugin adds: contract.ContractPlugin.)"""

    def decorator(func):
        for status in sorted({401, 403, *errors}):
            func = blp.alt_response(status, response=http.HTTPStatus(status).name)(func)
        func = Blueprint.doc(operationId=operation_id)(func)
        if headers:
            func = Blueprint.doc(parameters=[_HEADERS[name] for name in headers])(func)
        return func

    return decorator
