"""Every refusal as JSON {"code", "status", "message", "errors"?, "legal_actions"?}: HTTP errors,
refused commands, validation errors that got past webargs, and an unreachable database."""
from __future__ import annotations

import http
import logging
from typing import Any, NoReturn

import marshmallow as ma
import psycopg
from flask import Flask
from flask_smorest import Api, abort
from psycopg_pool import PoolTimeout
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..refusals import CommandRefused
from .schemas.errors import ErrorSchema

log = logging.getLogger(__name__)

# Codes for errors raised without one (routing, webargs, Flask itself).
_DEFAULT_CODES = {400: "malformed_request", 404: "not_found", 405: "method_not_allowed",
                  415: "unsupported_media_type", 422: "invalid_request", 500: "internal_error"}


def fail(status: int, code: str, message: str, **extra: Any) -> NoReturn:
    """Abort the request with this error body (extra: errors, legal_actions, headers)."""
    abort(status, code=code, message=message, **extra)
    raise AssertionError("flask_smorest.abort returned")   # it raises; its signature does not say so


def body(status: int, code: str, message: str, errors=None, legal_actions=None, locations=None,
         allowed=None) -> dict:
    payload = {"code": code, "status": status, "message": message}
    if allowed is not None:
        payload["allowed"] = allowed
    if errors:
        payload["errors"] = reasons(errors)
    if locations:
        payload["locations"] = locations
    if legal_actions is not None:
        payload["legal_actions"] = legal_actions
    return payload


def reasons(errors: Any) -> Any:
    """`errors` in its one shape (the document's FieldErrors): each field with a list of reasons,
    or with the same for the fields it holds. A detail given as one value (round_open's round id)
    is a list of that one."""
    if isinstance(errors, dict):
        return {str(field): reasons(why) for field, why in errors.items()}
    if isinstance(errors, list | tuple):
        return [str(why) for why in errors]
    return [str(errors)]


def _field_errors(data: dict) -> dict | None:
    """webargs nests messages under their location; a JSON body's fields read better at the top."""
    errors = data.get("errors") or data.get("messages")
    if isinstance(errors, dict) and set(errors) == {"json"} and isinstance(errors["json"], dict):
        return errors["json"]
    return errors


class PontoonApi(Api):
    """flask-smorest's Api with the house error body."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        status = error.code or 500
        code = (data.get("code") or _DEFAULT_CODES.get(status)
                or http.HTTPStatus(status).phrase.lower().replace(" ", "_"))
        if status == 400 and "messages" in data and "message" not in data:
            message = "the body is not valid JSON"
        elif status == 422 and "message" not in data:
            message = "the request is not valid: see errors"
        else:
            message = str(data.get("message") or (error.description if status != 500 else "internal error"))
        headers = dict(data.get("headers") or {})
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            headers["Allow"] = ", ".join(error.valid_methods)   # what the path does take
        return (body(status, code, message, _field_errors(data), data.get("legal_actions"),
                     allowed=data.get("allowed")),
                status, headers)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(CommandRefused)
    def refused(exc: CommandRefused):
        return body(exc.status, exc.code, exc.message, exc.errors, exc.legal_actions, exc.locations), exc.status

    @app.errorhandler(ma.ValidationError)
    def invalid(exc: ma.ValidationError):
        messages = exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}
        return body(422, "invalid_request", "the request is not valid", messages), 422

    @app.errorhandler(PoolTimeout)
    @app.errorhandler(psycopg.OperationalError)
    def database_unavailable(exc: Exception):
        log.warning("database unavailable: %s", type(exc).__name__)
        return body(503, "database_unavailable", "the database could not serve the request; retry shortly"), 503, \
            {"Retry-After": "1"}
