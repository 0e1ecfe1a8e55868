"""Spec helpers: the error responses and request headers an operation documents."""
from __future__ import annotations

import http

from flask_smorest import Blueprint

IDEMPOTENCY_KEY = "Idempotency-Key"
IDEMPOTENCY_KEY_PATTERN = r"^[\x20-\x7e]{1,255}$"   # printable ASCII: it is stored and compared as text
IF_MATCH = "If-Match"
IF_MATCH_PATTERN = r'^(W/)?"?[0-9]{1,9}"?$'   # a round's revision, as an entity tag or bare

_HEADERS = {
    IDEMPOTENCY_KEY: {"in": "header", "name": IDEMPOTENCY_KEY, "required": False,
                      "description": "a retry with the same key and body gets the first response and changes "
                                     "nothing; the same key with another body is refused (422)",
                      "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                                 "pattern": IDEMPOTENCY_KEY_PATTERN}},
    IF_MATCH: {"in": "header", "name": IF_MATCH, "required": False,
               "description": "the round's revision the decision was taken on; a round that has moved "
                              "since refuses it (409 revision_conflict)",
               "schema": {"type": "string", "maxLength": 13, "pattern": IF_MATCH_PATTERN}},
}


def documented(blp: Blueprint, *errors: int, headers: tuple[str, ...] = ()):
    """Decorator listing in the spec the error statuses an operation gives (401 and 403 always:
    every operation needs a key) and the optional headers it reads."""

    def decorator(func):
        for status in sorted({401, 403, *errors}):
            func = blp.alt_response(status, response=http.HTTPStatus(status).name)(func)
        if headers:
            func = Blueprint.doc(parameters=[_HEADERS[name] for name in headers])(func)
        return func

    return decorator
