"""/v1/shoes: one shoe by id (its order and salt once closed, to check the commitment)."""
from __future__ import annotations

from flask.views import MethodView

from ...rounds import queries
from ...store.repositories.shoes import TABLE_OF_SHOE
from ...web.access import Task, roles_for
from ..auth import TableOf, require
from ..blueprint import Blueprint
from ..docs import documented
from ..schemas.shoes import ShoeSchema
from ..transactions import request_uow

blp = Blueprint("shoes", __name__, url_prefix="/v1/shoes", description="Shoes and their commitments")
shoe_table = TableOf("shoe_id", TABLE_OF_SHOE)


@blp.route("/<uuid:shoe_id>")
class Shoe(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=shoe_table)
    @blp.response(200, ShoeSchema)
    @documented(blp, "getShoe", 404)
    def get(self, shoe_id):
        """Read a shoe.

        Once closed, its order and salt, which must hash to its commitment (SHA-256)."""
        return queries.shoe(request_uow(), shoe_id)
