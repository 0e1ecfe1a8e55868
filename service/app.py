"""The WSGI app factory: one Flask app (and one connection pool) per process, built after the fork,
serving the dealer terminals' API, the staff console and the dealer's screen at a table."""
from __future__ import annotations

import secrets
import socket

import psycopg
from flask import Flask, Response

from . import console, dealer, metrics
from .accounting.policy import AccountingPolicy
from .api.errors import register_error_handlers
from .api.install import install as install_api
from .api.resources import health
from .api.strict_json import StrictJSONProvider
from .config import Settings
from .observability import logs
from .reports.gaming_day import check_day_start, parse_day_start
from .staff.keys import StaffKeys
from .staff.passwords import PasswordHashing
from .staff.policy import StaffPolicy
from .store.pool import open_pool
from .store.repositories.settlement import SettlementBacklog, SettlementRepository
from .store.uow import unit_of_work
from .web import browser, request_scope, transport


def create_app(settings: Settings | None = None, *, connect: bool = True,
               open_unit_of_work: request_scope.OpenUnitOfWork = unit_of_work,
               password_hashing: PasswordHashing | None = None) -> Flask:
    """The WSGI app. `connect=False` builds it without a pool (to list its routes);
    `open_unit_of_work` opens each request's unit of work on a connection of the pool;
    `password_hashing` hashes and checks staff passwords and dealers' PINs (argon2id at
    argon2-cffi's default cost unless given)."""
    settings = settings or Settings.from_env()
    # A gaming day that cannot start is a configuration error: refused at start, not per report.
    check_day_start(parse_day_start(settings.gaming_day_starts), settings.timezone)
    app = Flask("pontoon")
    app.json = StrictJSONProvider(app)
    # A body larger than this is refused (413) before it is read: no request the service takes
    # comes near it, and a worker is not held decoding a client's megabytes of JSON.
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.extensions["pontoon.settings"] = settings
    # The chips, the float, the shifts and the variance threshold: refused at start when unusable.
    app.extensions["pontoon.accounting"] = AccountingPolicy.from_settings(settings)
    if connect:
        app.extensions["pontoon.pool"] = open_pool(settings.database_url)

    # First: a foreign Host or an oversized body is refused before any adapter reads the request.
    transport.install(app, settings)
    install_api(app)
    app.register_blueprint(health.blueprint())
    register_error_handlers(app)
    request_scope.install(app, open_unit_of_work)
    # The people signed in through a browser (the staff's console, a dealer at a table's screen):
    # the keys their sessions are signed with and the policy their passwords, PINs and lockouts follow.
    keys = StaffKeys.from_settings(settings)
    app.extensions["pontoon.staff_policy"] = StaffPolicy.from_settings(settings, keys, password_hashing)
    browser.install(app, settings, keys)
    console.install(app)   # after the API's error handlers: its own 404 and 405 pages win in /console
    dealer.install(app)
    metrics.install(app, backlog=_settlement_backlog, token=settings.metrics_token)
    logs.install(app, settings.log_level)
    served_by = process_name()
    # Logged once as the process starts serving: the line carries the pid, so an operator can tell
    # which process a name is without the name ever disclosing it.
    app.logger.info("serving as %s", served_by, extra={"served_by": served_by, "event": "serving"})

    @app.after_request
    def name_the_process(response: Response) -> Response:
        response.headers["X-Served-By"] = served_by
        return response

    return app


def process_name() -> str:
    """Which process answers, the same on each of its answers (state lives in the database, so any
    of them may): its host and a token made as its app is made, never its process id."""
    return f"{socket.gethostname()}-{secrets.token_hex(4)}"


def _settlement_backlog(conn: psycopg.Connection) -> SettlementBacklog:
    return SettlementRepository(conn).backlog()

