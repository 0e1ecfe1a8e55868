"""JSON-lines logging: one object per line with time, level, logger, message, pid, and the request
id and round id where there is one; one line per HTTP request. Never a body, never a secret."""
from __future__ import annotations

import logging
import re
import secrets
import sys
import time
from datetime import UTC, datetime

import orjson
from flask import Flask, Response, g, has_request_context, request

REQUEST_ID_HEADER = "X-Request-Id"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")   # a caller's id is echoed only if it is this tame
_MARKER = "_pontoon_json"
REQUEST_LOGGER = "pontoon.request"
# Attributes a log call may add with `extra=`; anything else a caller attaches is not written.
_EXTRA_FIELDS = ("request_id", "round_id", "table_id", "method", "route", "path", "status", "duration_ms",
                 "served_by", "event", "source", "reason")


class JsonFormatter(logging.Formatter):
    """A record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage(),
                "pid": record.process}
        for name in _EXTRA_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


class RequestContextFilter(logging.Filter):
    """Stamps a record logged during a request with the request's id and round id."""

    def filter(self, record: logging.LogRecord) -> bool:
        if has_request_context():
            if getattr(record, "request_id", None) is None:
                record.request_id = g.get("request_id")
            if getattr(record, "round_id", None) is None:
                record.round_id = _round_id()
        return True


def level_named(name: object) -> int:
    """The logging level a name such as "info" or "WARNING" gives (INFO when none or unknown)."""
    level = getattr(logging, str(name or "INFO").upper(), logging.INFO)
    return level if isinstance(level, int) else logging.INFO


def configure_logging(level: int = logging.INFO, stream=None) -> None:
    """Root logging as JSON lines on stderr, once per process (a second call changes nothing)."""
    root = logging.getLogger()
    if any(getattr(handler, _MARKER, False) for handler in root.handlers):
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestContextFilter())
    setattr(handler, _MARKER, True)
    root.addHandler(handler)
    logging.captureWarnings(True)   # a library's warning is a log line like any other, in JSON
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)


def install(app: Flask, level: str) -> None:
    """JSON logs for this process at `level` (a name such as "info"); a request id on every request
    (the caller's X-Request-Id if it sent a sane one, a new one otherwise), echoed in the response;
    one line per request."""
    configure_logging(level_named(level))
    app.before_request(_start)
    app.after_request(_stamp)
    app.teardown_request(_log_request)


def _start() -> None:
    given = request.headers.get(REQUEST_ID_HEADER, "")
    # Unique across workers and hosts without any shared state: 128 bits from the OS.
    g.request_id = given if _REQUEST_ID.match(given) else secrets.token_hex(16)
    g.request_started = time.perf_counter()


def _stamp(response: Response) -> Response:
    response.headers[REQUEST_ID_HEADER] = g.get("request_id") or ""
    g.response_status = response.status_code
    if g.get("round_id") is None and response.status_code == 201 and request.method == "POST" \
            and request.url_rule is not None and request.url_rule.rule.endswith("/rounds"):
        # A round just opened: its id is only in the answer.
        body = response.get_json(silent=True)
        if isinstance(body, dict):
            g.round_id = body.get("round_id")
    return response


def _round_id() -> str | None:
    round_id = g.get("round_id") or (request.view_args or {}).get("round_id")
    return str(round_id) if round_id is not None else None


def _log_request(exc: BaseException | None) -> None:
    # Taken, not read: a streamed answer (an audit export) tears its request down twice, once as
    # the view returns and again when the last chunk is sent, and a request is one line.
    started = g.pop("request_started", None)
    if started is None:
        return
    logger = logging.getLogger(REQUEST_LOGGER)
    if not logger.isEnabledFor(logging.INFO):
        return
    status = g.get("response_status", 500)
    method, path = request.method, request.path
    # makeRecord + handle: the same record logger.info would make, without its stack walk for the caller.
    record = logger.makeRecord(REQUEST_LOGGER, logging.INFO, __file__, 0, "%s %s %s", (method, path, status), None,
                               extra={"event": "request", "method": method,
                                      "route": request.url_rule.rule if request.url_rule is not None else None,
                                      "path": path, "status": status,
                                      "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                                      "round_id": _round_id(), "table_id": (request.view_args or {}).get("table_id"),
                                      "request_id": g.get("request_id")})
    logger.handle(record)
