"""The WSGI app factory: one Flask app (and one connection pool) per process, built after the fork,
serving the dealer terminals' API and the staff console."""
from __future__ import annotations

import secrets
from collections.abc import Sequence

import psycopg
from flask import Flask, Response

from . import console, metrics
from .api import request_scope
from .api.blueprint import Blueprint
from .api.errors import register_error_handlers
from .api.install import install as install_api
from .api.resources import health
from .api.strict_json import StrictJSONProvider
from .config import Settings
from .observability import logs
from .reports.gaming_day import check_day_start, parse_day_start
from .store.pool import open_pool
from .store.repositories.settlement import SettlementBacklog, SettlementRepository


def create_app(settings: Settings | None = None, *, connect: bool = True,
               extra_blueprints: Sequence[Blueprint] = ()) -> Flask:
    """The WSGI app. `connect=False` builds it without a pool (to list its routes);
    `extra_blueprints` are served beside the API's resources (the benchmark's floor, bench/)."""
    settings = settings or Settings.from_env()
    # A gaming day that cannot start is a configuration error: refused at start, not per report.
    check_day_start(parse_day_start(settings.gaming_day_starts), settings.timezone)
    app = Flask("pontoon")
    app.json = StrictJSONProvider(app)
    # A body larger than this is refused (413) before it is read: no request the service takes
    # comes near it, and a worker is not held decoding a client's megabytes of JSON.
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.extensions["pontoon.settings"] = settings
    if connect:
        app.extensions["pontoon.pool"] = open_pool(settings.database_url)

    install_api(app, extra_blueprints)
    app.register_blueprint(health.blueprint())
    register_error_handlers(app)
    request_scope.install(app)
    console.install(app)   # after the API's error handlers: its own 404 and 405 pages win in /console
    metrics.install(app, backlog=_settlement_backlog)
    logs.install(app)
    served_by = secrets.token_hex(4)   # this process's, made after the fork (no preload)
    app.after_request(lambda response: _served_by(response, served_by))
    return app


def _settlement_backlog(conn: psycopg.Connection) -> SettlementBacklog:
    return SettlementRepository(conn).backlog()


def _served_by(response: Response, served_by: str) -> Response:
    """Which worker process answered (state lives in the database, so any of them may), by a
    name of its own rather than its process id, which a caller has no use for."""
    response.headers["X-Served-By"] = served_by
    return response
