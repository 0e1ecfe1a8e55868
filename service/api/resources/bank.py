"""/v1/tables/{id}/kitty and /bank/sale: the player-banked game's money between rounds."""
from __future__ import annotations

from flask.views import MethodView

from ...traditional import bank
from ...traditional.commands import ChangeKitty, SellBank
from ...web.access import Task, roles_for
from ..auth import access, principal, table_in_path
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.traditional import BankSaleSchema, BankSchema, KittySchema
from ..transactions import command, request_uow

blp = Blueprint("bank", __name__, url_prefix="/v1/tables",
                description="The player-banked game's bank and Shoot kitty between rounds")


@blp.route("/<table_id:table_id>/kitty")
class Kitty(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=table_in_path))
    @blp.arguments(KittySchema())
    @blp.response(201, BankSchema)
    @documented(blp, "changeKitty", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Put up or top up the Shoot kitty.

        Shoot Pontoon, between rounds: the banker puts up a kitty (none is up) or tops it up,
        within the table's kitty limits (its own, else the rules'; 409 kitty_refused outside them).
        Recorded as a table transfer from the banker to the kitty."""
        return bank.change_kitty(ChangeKitty(table_id, body["action"], body["amount"], principal().actor),
                                 request_uow())


@blp.route("/<table_id:table_id>/bank/sale")
class BankSale(MethodView):
    @command(access(*roles_for(Task.DEAL), table_from=table_in_path))
    @blp.arguments(BankSaleSchema())
    @blp.response(201, BankSchema)
    @documented(blp, "sellBank", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Sell the bank.

        Between rounds, the banker sells the bank to the player at `to_seat` for `price`: a
        transfer from the buyer to the banker; the old banker takes the kitty back."""
        return bank.sell(SellBank(table_id, body["to_seat"], body["price"], principal().actor), request_uow())
