"""The benchmark's own app: the product API plus the floor endpoint, which the product does not serve.

The floor, `POST /v1/ops/floor`, is one authenticated INSERT and its commit: the least a durable
request costs in the same gunicorn, pool and key check as the terminal's endpoints, which
`make bench` measures beside them. Its table, `bench_floor`, is the benchmark's, made when this app
starts; no product migration knows it. `ops/bench.sh` runs the stack with this app:
`PONTOON_WSGI_APP='bench.floor_app:create_app()' bash ops/stack.sh`.
"""
from __future__ import annotations

import marshmallow as ma
import psycopg
from flask import Flask
from flask.views import MethodView
from psycopg.rows import dict_row

from service.api.auth import principal, require
from service.api.blueprint import Blueprint
from service.api.docs import documented
from service.api.transactions import request_uow
from service.app import create_app as create_product_app
from service.config import Settings

FLOOR_PATH = "/v1/ops/floor"

# Workers start together and each makes sure of the table: one at a time, under a lock of the
# benchmark's own (not the migrations'), so two never race to create it.
_TABLE_LOCK = 0x666C6F72  # "flor"
_TABLE = """
CREATE TABLE IF NOT EXISTS bench_floor (
    id          bigserial PRIMARY KEY,
    key_id      uuid NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
)"""
# The pool's sessions act as the application role (service/store/session.py).
_GRANTS = ("GRANT SELECT, INSERT ON bench_floor TO pontoon_app",
           "GRANT USAGE, SELECT ON SEQUENCE bench_floor_id_seq TO pontoon_app")

blp = Blueprint("floor", __name__, url_prefix="/v1/ops", description="The benchmark floor (benchmark app only)")


class FloorRowSchema(ma.Schema):
    id = ma.fields.Integer(required=True, metadata={"description": "the row just committed"})


@blp.route("/floor")
class Floor(MethodView):
    @require("admin", "operator")
    @blp.response(201, FloorRowSchema)
    @documented(blp)
    def post(self):
        """One row into `bench_floor`, committed: the key check, the INSERT and the COMMIT, and
        nothing a game needs."""
        uow = request_uow()
        with uow.transaction(), uow.conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute("INSERT INTO bench_floor (key_id) VALUES (%s) RETURNING id",
                              (principal().key_id,)).fetchone()
        return {"id": row["id"]}


def ensure_floor_table(database_url: str) -> None:
    """Create the floor's table (and grant it to the application role) unless it is there."""
    with psycopg.connect(database_url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_TABLE_LOCK,))
        conn.execute(_TABLE)
        for grant in _GRANTS:
            conn.execute(grant)


def create_app(settings: Settings | None = None) -> Flask:
    """The product's app with the floor registered beside its resources, its table made first."""
    settings = settings or Settings.from_env()
    ensure_floor_table(settings.owner_database_url)
    return create_product_app(settings, extra_blueprints=(blp,))
