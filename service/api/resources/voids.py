"""/v1/rounds/{round_id}/void: a supervisor voids a round in play and every stake goes back."""
from __future__ import annotations

from flask.views import MethodView

from ...compliance.commands import VoidRound
from ...compliance.void import void_round
from ...web.access import Task, roles_for
from ...web.schemas.voids import VoidRoundSchema
from ..auth import access, principal
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, IF_MATCH, documented
from ..if_match import expected_revision
from ..schemas.voids import VoidedRoundSchema
from ..transactions import command, request_uow

blp = Blueprint("voids", __name__, url_prefix="/v1/rounds", description="Voiding a round in play")


@blp.route("/<uuid:round_id>/void")
class Void(MethodView):
    @command(access(*roles_for(Task.VOID_ROUNDS)))
    @blp.arguments(VoidRoundSchema())
    @blp.response(200, VoidedRoundSchema)
    @documented(blp, "voidRound", 404, 409, headers=(IDEMPOTENCY_KEY, IF_MATCH))
    def post(self, body, round_id):
        """Void a round still in play.

        A misdeal or a fault, with a reason: every stake placed so far
        (wagers, side bets, insurance, splits, doubles) goes back to its seat through the ledger
        (kind void_refund) and the round takes no more cards or decisions. A complete or settled
        round is not voided (409 round_not_open)."""
        return void_round(VoidRound(round_id, body["reason"], principal().actor, expected_revision()), request_uow())
