"""The Flask hook: every request counted and timed by its URL rule, and the /metrics route."""
from __future__ import annotations

import hmac
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, g, has_request_context, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from .collectors import BacklogQuery, record_pool_usage
from .definitions import metrics
from .exposition import scrape

EXTENSION = "pontoon.metrics"
BACKLOG_EXTENSION = "pontoon.metrics.backlog"   # the store's query of what waits to be settled
ROUTE_KEY = "pontoon.route"               # WSGI environ: the URL rule the request matched
TOKEN_EXTENSION = "pontoon.metrics.token"      # when not empty, /metrics needs `Authorization: Bearer <token>`
POOL_REFRESH_SECONDS = 0.5                # pool gauges are refreshed at most this often per process
UNMATCHED = "unmatched"                   # no URL rule: a 404 before routing, kept to one label value


def install(app: Flask, backlog: BacklogQuery | None = None, token: str = "") -> None:
    """Count and time every request, and serve /metrics (outside the versioned API and its spec);
    with `backlog`, a scrape reads what waits to be settled through it; with `token`, a scrape
    must send it as its bearer token."""
    app.extensions[EXTENSION] = True
    app.extensions[BACKLOG_EXTENSION] = backlog
    app.extensions[TOKEN_EXTENSION] = token
    app.after_request(_note_route_and_flush)
    # WSGI middleware wraps the app's wsgi_app, as Flask documents; mypy sees a method assigned.
    app.wsgi_app = _Timed(app.wsgi_app, app)  # type: ignore[method-assign]
    app.add_url_rule("/metrics", "metrics", _metrics_view, methods=["GET"])


def defer_until_committed(observation: Callable[[], None]) -> bool:
    """Inside a request, hold `observation` until the response is known to be a success (the
    request's transaction commits before its response is made, so a success means committed);
    a failed request drops it. False outside a request: the caller observes at once."""
    if not has_request_context() or not current_app.extensions.get(EXTENSION):
        return False
    g.setdefault("pontoon_metrics_pending", []).append(observation)
    return True


def discard_deferred() -> None:
    """Drop what defer_until_committed() holds for this request: its work was rolled back."""
    if has_request_context():
        g.pop("pontoon_metrics_pending", None)


def _note_route_and_flush(response: Response) -> Response:
    request.environ[ROUTE_KEY] = _route()
    pending = g.pop("pontoon_metrics_pending", None)
    if pending and response.status_code < 400:
        for observation in pending:
            observation()
    return response


def _route() -> str:
    """The URL rule the request matched; for a method the path does not take (405), the rule the
    path matches with a method it does take, so the misused endpoint is named."""
    if request.url_rule is not None:
        return request.url_rule.rule
    refused = request.routing_exception
    if isinstance(refused, MethodNotAllowed) and refused.valid_methods:
        adapter = current_app.create_url_adapter(request)
        if adapter is None:
            return UNMATCHED
        try:
            rule, _ = adapter.match(method=next(iter(refused.valid_methods)), return_rule=True)
        except HTTPException:
            return UNMATCHED
        return rule.rule
    return UNMATCHED


# Methods a label may name; any other (a client may send whatever it likes) counts as "other", so
# no request can add a series of its own.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class _Timed:
    """WSGI middleware: times the whole request, teardown (the connection's return) included."""

    def __init__(self, wsgi_app, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app
        self._pool_refreshed = 0.0
        self._series: dict[tuple[str, str, str], tuple] = {}   # labelled children, looked up once each

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        status: list[str] = []

        def capture(status_line, headers, exc_info=None):
            status[:] = [status_line.split(" ", 1)[0]]
            return start_response(status_line, headers, exc_info)

        try:
            return self.wsgi_app(environ, capture)
        finally:
            elapsed = time.perf_counter() - started
            method = environ.get("REQUEST_METHOD", "GET")
            key = (method if method in _METHODS else "other", environ.get(ROUTE_KEY, UNMATCHED),
                   status[0] if status else "500")
            series = self._series.get(key)
            if series is None:
                recorded = metrics()
                series = self._series[key] = (recorded.http_requests.labels(*key),
                                              recorded.http_latency.labels(key[0], key[1]))
            series[0].inc()
            series[1].observe(elapsed)
            self._refresh_pool_gauges()

    def _refresh_pool_gauges(self) -> None:
        now = time.monotonic()
        pool = self.app.extensions.get("pontoon.pool")
        if pool is not None and now - self._pool_refreshed >= POOL_REFRESH_SECONDS:
            self._pool_refreshed = now
            record_pool_usage(pool)


def _metrics_view():
    token = current_app.extensions[TOKEN_EXTENSION]
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
            return {"code": "unauthorized", "status": 401, "message": "send Authorization: Bearer <metrics token>"}, 401
    body, content_type = scrape(current_app.extensions.get("pontoon.pool"), current_app.extensions[BACKLOG_EXTENSION])
    return Response(body, content_type=content_type)
