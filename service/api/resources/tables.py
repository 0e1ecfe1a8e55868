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
    @documented(blp, "createTable", 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body):
        """Create a table.

        A table of the house-banked game names its rules and paytable; one of the player-banked
        game names its rules only. Its own limits, by bet, replace the rules' (main) and the
        paytable's (side bets); a side bet its paytable does not offer is refused (409)."""
        return handlers.create_table(CreateTable(body["table_id"], body["rules"], body["paytable"],
                                                 body["limits"], principal().actor), request_uow())


@blp.route("/<table_id:table_id>")
class Table(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=table_in_path)
    @blp.response(200, TableSchema)
    @documented(blp, "getTable", 404)
    def get(self, table_id):
        """Read a table.

        Its rules and paytable in force, its limits, its current shoe and its open round (the
        player-banked game: its bank and kitty; the house-banked game: the side bets its next
        round takes)."""
        return queries.table(request_uow(), table_id)


@blp.route("/<table_id:table_id>/shoes")
class Shoes(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=table_in_path))
    @blp.arguments(OpenShoeSchema())
    @blp.response(201, OpenedShoeSchema)
    @documented(blp, "openShoe", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Open a shoe.

        A virtual shoe is shuffled by the service and answered with its commitment; a physical
        one takes the cards the terminal reports. The current shoe closes, its order revealed.
        Refused while a round is open (409 round_open)."""
        return handlers.open_shoe(OpenShoe(table_id, body["mode"], principal().actor), request_uow())


@blp.route("/<table_id:table_id>/shoes/current")
class CurrentShoe(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=table_in_path)
    @blp.response(200, ShoeSchema)
    @documented(blp, "getCurrentShoe", 404)
    def get(self, table_id):
        """Read the table's open shoe.

        Its commitment and position; the order stays secret while the shoe is open. 404 when
        the table has no open shoe."""
        return queries.current_shoe(request_uow(), table_id)


@blp.route("/<table_id:table_id>/rounds")
class Rounds(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=table_in_path))
    @blp.arguments(OpenRoundSchema())
    @blp.response(201, RoundStateSchema)
    @documented(blp, "openRound", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Open a round.

        On the table's current shoe, with these wagers and side bets (the player-banked game:
        these players, seats counted from the banker's left, against the table's banker and
        kitty). A virtual shoe deals at once: the answer awaits the first decision, or the round
        is already complete. A physical shoe awaits the cards (POST .../cards). Refused (409) with
        no shoe (no_shoe), a virtual shoe past its cut card (shoe_past_cut_card), a round already
        open (round_open), a wager outside the table's limits (wager_refused) or the other game's
        shape (wrong_game)."""
        return handlers.open_round(
            OpenRound(table_id, body["wagers"], principal().actor, players=body["players"],
                      banker_place=body["banker_place"]),
            request_uow())
