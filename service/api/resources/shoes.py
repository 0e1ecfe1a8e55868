"""/v1/shoes: one shoe by id (its order and salt once closed, to check the commitment)."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ...rounds import queries
from ...store.pending import Pending
from ..auth import READERS, require
from ..docs import documented
from ..schemas.shoes import ShoeSchema
from ..transactions import request_uow

blp = Blueprint("shoes", __name__, url_prefix="/v1/shoes", description="Shoes and their commitments")


def shoe_table(uow, view_args: dict) -> Pending[str]:
    return uow.shoes.table_of_pending(view_args["shoe_id"])


@blp.route("/<uuid:shoe_id>")
class Shoe(MethodView):
    @require(*READERS, table_from=shoe_table)
    @blp.response(200, ShoeSchema)
    @documented(blp, 404)
    def get(self, shoe_id):
        """A shoe; once closed, its order and salt, which must hash to its commitment."""
        return queries.shoe(request_uow(), shoe_id)
