"""/v1/ops/floor: the benchmark floor, one authenticated durable INSERT and commit, nothing else."""
from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView

from ..auth import principal, require
from ..blueprint import Blueprint
from ..docs import documented
from ..transactions import request_uow

blp = Blueprint("ops", __name__, url_prefix="/v1/ops", description="Operations: the benchmark floor")


class FloorRowSchema(ma.Schema):
    id = ma.fields.Integer(required=True, metadata={"description": "the row just committed"})


@blp.route("/floor")
class Floor(MethodView):
    @require("admin", "operator")
    @blp.response(201, FloorRowSchema)
    @documented(blp)
    def post(self):
        """One row into `ops_floor`, committed: the least any durable request costs in this
        gunicorn and pool (the key check included), which `make bench` sets beside the terminal
        endpoints' figures."""
        uow = request_uow()
        row_id = uow.conn.execute("INSERT INTO ops_floor (key_id) VALUES (%s) RETURNING id",
                                  (principal().key_id,)).fetchone()[0]
        uow.commit()
        return {"id": row_id}
