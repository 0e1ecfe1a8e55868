"""/v1/tables: create and read tables, open their shoes and rounds."""
from __future__ import annotations

from flask.views import MethodView

from ...rounds import handlers, queries
from ...rounds.commands import CreateTable, OpenRound, OpenShoe
from ...web.access import Task, roles_for
from ..auth import access, principal, require, table_in_path
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.rounds import OpenRoundSchema, RoundStateSchema
from ..schemas.shoes import OpenedShoeSchema, OpenShoeSchema, ShoeSchema
from ..schemas.tables import CreateTableSchema, TableSchema
from ..transactions import command, request_uow

blp = Blueprint("tables", __name__, url_prefix="/v1/tables", description="Tables, their shoes and rounds")


@blp.route("")
class Tables(MethodView):
    @command(access(*roles_for(Task.CREATE_TABLES)))
    @blp.arguments(CreateTableSchema())
    @blp.response(201, TableSchema)
    @documented(blp, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body):
        """Create a table with its rules, paytable and (optionally) its own limits."""
        return handlers.create_table(CreateTable(body["table_id"], body["rules"], body["paytable"],
                                                 body["limits"], principal().actor), request_uow())


@blp.route("/<table_id:table_id>")
class Table(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=table_in_path)
    @blp.response(200, TableSchema)
    @documented(blp, 404)
    def get(self, table_id):
        """The table: rules and paytable in force, limits, current shoe, open round."""
        return queries.table(request_uow(), table_id)


@blp.route("/<table_id:table_id>/shoes")
class Shoes(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=table_in_path))
    @blp.arguments(OpenShoeSchema())
    @blp.response(201, OpenedShoeSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Open a shoe (virtual: with its commitment); the current one closes, its order revealed.
        Refused while a round is open."""
        return handlers.open_shoe(OpenShoe(table_id, body["mode"], principal().actor), request_uow())


@blp.route("/<table_id:table_id>/shoes/current")
class CurrentShoe(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=table_in_path)
    @blp.response(200, ShoeSchema)
    @documented(blp, 404)
    def get(self, table_id):
        """The table's open shoe (its commitment; the order stays secret while it is open)."""
        return queries.current_shoe(request_uow(), table_id)


@blp.route("/<table_id:table_id>/rounds")
class Rounds(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=table_in_path))
    @blp.arguments(OpenRoundSchema())
    @blp.response(201, RoundStateSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Open a round on the table's current shoe with these wagers (the player-banked game: these
        players, seats counted from the banker's left, against the table's banker and kitty); a
        virtual shoe deals at once."""
        return handlers.open_round(
            OpenRound(table_id, body["wagers"], principal().actor, players=body["players"],
                      banker_place=body["banker_place"]),
            request_uow())
