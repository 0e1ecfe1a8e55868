"""/v1/tables/{table_id}/recall: game recall of a table's last rounds."""
from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView

from ...compliance.recall import recall
from ...web.access import Task, roles_for
from ..auth import require
from ..blueprint import Blueprint
from ..docs import documented
from ..schemas.recall import RecallQuerySchema, RecallSchema
from ..transactions import request_uow

blp = Blueprint("recall", __name__, url_prefix="/v1/tables", description="Game recall")


@blp.route("/<table_id:table_id>/recall")
class Recall(MethodView):
    @require(*roles_for(Task.RECALL_ROUNDS))
    @blp.arguments(RecallQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, RecallSchema)
    @documented(blp, "recallRounds", 404)
    def get(self, query, table_id):
        """Recall a table's last rounds.

        10 unless `last` says otherwise, oldest first, each with every card and decision, its
        hands, every stake and payout in the ledger, and its transcript."""
        return recall(request_uow(), table_id, query["last"])
