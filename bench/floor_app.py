"""The benchmark's own app: the product's app as its factory builds it, with the floor endpoint,
which the product does not serve, registered on its API afterwards.

The floor, `POST /v1/ops/floor`, is the least a durable request costs in the same gunicorn and
connection pool as the terminal's endpoints: one transaction that looks the bearer key up, INSERTs
one row and commits, and nothing a game needs. `make bench` measures the terminal beside it. Its
table, `bench_floor`, is the benchmark's, made when this app starts; no product migration knows it.
`ops/bench.sh` runs the stack with this app: `PONTOON_WSGI_APP='bench.floor_app:create_app()' bash ops/stack.sh`.
"""
from __future__ import annotations

import marshmallow as ma
import psycopg
from flask import Flask, current_app, request
from flask.views import MethodView
from flask_smorest import Api
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from service.api.blueprint import Blueprint
from service.api.errors import fail
from service.app import create_app as create_product_app
from service.config import Settings
from service.store.repositories.keys import hash_secret

FLOOR_PATH = "/v1/ops/floor"
# Keys the floor serves: a staff key that names no person (compliance keys may, admins',
# operators' and supervisors' must), looked up as the terminal's own endpoints look up the tables'.
FLOOR_ROLES = ["compliance"]

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
    @blp.response(201, FloorRowSchema)
    def post(self):
        """One row into `bench_floor` for a live staff key, committed: the key looked up, the
        INSERT and the COMMIT, and nothing a game needs."""
        scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            fail(401, "unauthorized", "this key is not valid")
        pool: ConnectionPool = current_app.extensions["pontoon.pool"]
        with pool.connection() as conn, conn.transaction(), conn.cursor(row_factory=dict_row) as cur:
            key = cur.execute("SELECT key_id FROM api_keys WHERE key_hash = %s AND revoked_at IS NULL "
                              "AND role = ANY (%s)", (hash_secret(secret.strip()), FLOOR_ROLES)).fetchone()
            if key is None:
                fail(401, "unauthorized", "this key is not valid")
            row = cur.execute("INSERT INTO bench_floor (key_id) VALUES (%s) RETURNING id",
                              (key["key_id"],)).fetchone()
        return {"id": row["id"]}


def ensure_floor_table(database_url: str) -> None:
    """Create the floor's table (and grant it to the application role) unless it is there."""
    with psycopg.connect(database_url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_TABLE_LOCK,))
        conn.execute(_TABLE)
        for grant in _GRANTS:
            conn.execute(grant)


def create_app(settings: Settings | None = None) -> Flask:
    """The product's app with the floor registered on its API, the floor's table made first."""
    settings = settings or Settings.from_env()
    ensure_floor_table(settings.owner_database_url)
    app = create_product_app(settings)
    api: Api = app.extensions["pontoon.api"]
    api.register_blueprint(blp)
    return app
