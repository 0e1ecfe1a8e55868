"""The dealer terminals' REST API on a Flask app: its OpenAPI spec, URL converters and resources."""
from __future__ import annotations

from flask import Flask

from .contract import ContractPlugin, register_shared
from .errors import PontoonApi
from .resources import (
    access,
    accounting,
    audit_export,
    audit_verifications,
    bank,
    keys,
    paytables,
    recall,
    reports,
    rounds,
    shoes,
    table_games_statement,
    table_rules,
    tables,
    voids,
)
from .routing import (
    PaytableNameConverter,
    SerialConverter,
    TableIdConverter,
    paytable_name_param_schema,
    serial_param_schema,
    table_id_param_schema,
)
from .schemas.variants import read_catalog

API_TITLE = "Pontoon back office: dealer terminal API"
# 2: the round's concurrency counter is `revision`; 3: one shape of `errors`; 4: the table report's
# `handle`, `game_win` and `game_win_percent`, once `drop`, `win` and `hold_percent` (docs/decisions.md).
API_VERSION = "4"

_SPEC_OPTIONS = {
    "info": {"description": "Tables, shoes and rounds of Pontoon, banked by the house (Casino Canberra's game) or "
                            "by a player (traditional British Pontoon), and the back office around them: "
                            "paytables, audit, recall, reports, keys. Every request needs "
                            "`Authorization: Bearer <key>`; every POST but a key's creation (whose answer, the "
                            "secret, is never stored) takes an `Idempotency-Key`: a retry with it changes "
                            "nothing and gets the first answer back. Money is integer cents. Every answer "
                            "carries `X-Request-Id` (the request's own, when it sent a well-formed one), which "
                            "the service's logs name. A terminal vendor's guide: docs/api.md. `info.version` goes up "
                            "whenever a client must change; what changed in each version, and how a client of "
                            "the one before moves on: docs/changes.md (version 4 renamed the table report's "
                            "`drop`, `win` and `hold_percent` to `handle`, `game_win` and `game_win_percent`)."},
    "servers": [{"url": "{scheme}://{host}:{port}",
                 "description": "the service as `make run` serves it; a casino gives its terminals the address "
                                "it serves it at",
                 "variables": {"scheme": {"enum": ["http", "https"], "default": "http"},
                               "host": {"default": "127.0.0.1"},
                               "port": {"default": "8000"}}}],
    "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                                      "description": "an API key: `pontoon keys create`, "
                                                                     "or POST /v1/keys with an admin's"}}},
    "security": [{"bearerAuth": []}],
}


def install(app: Flask) -> PontoonApi:
    """Register the API's resources on the app; the API is kept as `app.extensions["pontoon.api"]`,
    whose JSON error body the console's handlers share."""
    app.config.update(API_TITLE=API_TITLE, API_VERSION=API_VERSION, OPENAPI_VERSION="3.0.3",
                      OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json", API_SPEC_OPTIONS=_SPEC_OPTIONS)
    # The spec's cross-field shapes name the rules files and paytables present now.
    api = PontoonApi(app, spec_kwargs={"marshmallow_plugin": ContractPlugin(read_catalog())})
    register_shared(api.spec, "Error")
    app.extensions["pontoon.api"] = api
    app.url_map.converters["table_id"] = TableIdConverter
    api.register_converter(TableIdConverter, table_id_param_schema)
    app.url_map.converters["paytable_name"] = PaytableNameConverter
    api.register_converter(PaytableNameConverter, paytable_name_param_schema)
    app.url_map.converters["serial"] = SerialConverter
    api.register_converter(SerialConverter, serial_param_schema)
    for resource in (tables, shoes, rounds, bank, paytables, table_rules, audit_export, audit_verifications, recall,
                     reports, voids, access, keys, accounting, table_games_statement):
        api.register_blueprint(resource.blp)
    return api
