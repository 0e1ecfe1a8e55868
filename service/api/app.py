"""The app factory: one Flask app (and one connection pool) per process, built after the fork."""
from __future__ import annotations

import os
from collections.abc import Sequence

from flask import Flask, Response

from .. import console, metrics
from ..config import Settings
from ..observability import logs
from ..reports.gaming_day import check_day_start, parse_day_start
from ..store.pool import open_pool
from . import request_scope
from .blueprint import Blueprint
from .errors import PontoonApi, register_error_handlers
from .resources import (
    access,
    audit_export,
    audit_verifications,
    bank,
    health,
    keys,
    paytables,
    recall,
    reports,
    rounds,
    shoes,
    tables,
    voids,
)
from .routing import PaytableNameConverter, TableIdConverter, paytable_name_param_schema, table_id_param_schema
from .schemas.variants import VariantsPlugin, read_catalog
from .strict_json import StrictJSONProvider

API_TITLE = "Pontoon back office: dealer terminal API"
API_VERSION = "1"

_SPEC_OPTIONS = {
    "info": {"description": "Tables, shoes and rounds of house-banked Pontoon. Every request needs "
                            "`Authorization: Bearer <key>`; every POST but a key's creation (whose answer, the "
                            "secret, is never stored) takes an `Idempotency-Key`: "
                            "a retry with it changes nothing. "
                            "Money is integer cents."},
    "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
    "security": [{"bearerAuth": []}],
}


def create_app(settings: Settings | None = None, *, connect: bool = True,
               extra_blueprints: Sequence[Blueprint] = ()) -> Flask:
    """The WSGI app. `connect=False` builds it without a pool (to print the OpenAPI spec);
    `extra_blueprints` are served beside the product's resources (the benchmark's floor, bench/)."""
    settings = settings or Settings.from_env()
    # A gaming day that cannot start is a configuration error: refused at start, not per report.
    check_day_start(parse_day_start(settings.gaming_day_starts), settings.timezone)
    app = Flask("pontoon")
    app.json = StrictJSONProvider(app)
    # A body larger than this is refused (413) before it is read: no request the service takes
    # comes near it, and a worker is not held decoding a client's megabytes of JSON.
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.config.update(API_TITLE=API_TITLE, API_VERSION=API_VERSION, OPENAPI_VERSION="3.0.3",
                      OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json", API_SPEC_OPTIONS=_SPEC_OPTIONS)
    app.extensions["pontoon.settings"] = settings
    if connect:
        app.extensions["pontoon.pool"] = open_pool(settings.database_url)

    # The spec's cross-field shapes name the rules files and paytables present now.
    api = PontoonApi(app, spec_kwargs={"marshmallow_plugin": VariantsPlugin(read_catalog())})
    app.extensions["pontoon.api"] = api   # its JSON error body, for handlers shared with the console
    app.url_map.converters["table_id"] = TableIdConverter
    api.register_converter(TableIdConverter, table_id_param_schema)
    app.url_map.converters["paytable_name"] = PaytableNameConverter
    api.register_converter(PaytableNameConverter, paytable_name_param_schema)
    for resource in (tables, shoes, rounds, bank, paytables, audit_export, audit_verifications, recall, reports, voids,
                     access, keys):
        api.register_blueprint(resource.blp)
    for extra in extra_blueprints:
        api.register_blueprint(extra)
    app.register_blueprint(health.blueprint())
    register_error_handlers(app)
    request_scope.install(app)
    console.install(app)
    metrics.install(app)
    logs.install(app)
    app.after_request(_served_by)
    return app


def _served_by(response: Response) -> Response:
    """Which worker process answered: state lives in the database, so any of them may."""
    response.headers["X-Served-By"] = str(os.getpid())
    return response
