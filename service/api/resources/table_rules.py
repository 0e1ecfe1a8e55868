"""/v1/tables/{table_id}/rules: a table's rules changed between shoes under four-eyes control, as a
paytable is: proposed with a reason, approved by another operator, applied when the next shoe opens."""
from __future__ import annotations

from flask.views import MethodView

from ...operators import table_rules
from ...operators.commands import DecideTableRules, ProposeTableRules
from ...store.repositories.table_rules import RulesChangeStatus
from ...web.access import Task, roles_for
from ...web.schemas.paytables import DecisionSchema, ProposeTableRulesSchema
from ..auth import access, principal, require, table_in_path
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.table_rules import TableRulesSchema
from ..transactions import command, request_uow

blp = Blueprint("table_rules", __name__, url_prefix="/v1/tables",
                description="A table's rules: another rules file of its game, under four-eyes control, between shoes")


@blp.route("/<table_id:table_id>/rules")
class TableRules(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=table_in_path)
    @blp.response(200, TableRulesSchema)
    @documented(blp, "getTableRules", 404)
    def get(self, table_id):
        """Read a table's rules and their changes.

        The rules in force, the change waiting (proposed, or approved for the next shoe), every
        change with who proposed and decided it and why, and the rules files it may change to."""
        return table_rules.table_rules(request_uow(), table_id)

    @command(access(*roles_for(Task.CHANGE_TABLE_RULES)))
    @blp.arguments(ProposeTableRulesSchema())
    @blp.response(201, TableRulesSchema)
    @documented(blp, "proposeTableRules", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Propose another rules file for a table.

        Another rules file of the table's game, with a reason. It must take the table's own limits
        (409 limits_refused), be of its game (409 wrong_game), and wait alone (409
        rules_change_waiting); another operator approves it, and it applies when the next shoe opens."""
        return table_rules.propose_rules(ProposeTableRules(table_id, body["rules"], body["reason"],
                                                           principal().actor), request_uow())


def _decide(decision: RulesChangeStatus, body: dict, table_id: str, change_id: int) -> dict:
    return table_rules.decide_rules(DecideTableRules(table_id, change_id, decision, body["reason"],
                                                     principal().actor), request_uow())


@blp.route("/<table_id:table_id>/rules/<int:change_id>/approve")
class ApproveRules(MethodView):
    @command(access(*roles_for(Task.CHANGE_TABLE_RULES)))
    @blp.arguments(DecisionSchema())
    @blp.response(200, TableRulesSchema)
    @documented(blp, "approveTableRules", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id, change_id):
        """Approve a proposed change of a table's rules.

        Never its own proposer's (403 own_proposal). It waits for the table's next shoe, and applies
        as that shoe opens."""
        return _decide(RulesChangeStatus.APPROVED, body, table_id, change_id)


@blp.route("/<table_id:table_id>/rules/<int:change_id>/reject")
class RejectRules(MethodView):
    @command(access(*roles_for(Task.CHANGE_TABLE_RULES)))
    @blp.arguments(DecisionSchema())
    @blp.response(200, TableRulesSchema)
    @documented(blp, "rejectTableRules", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id, change_id):
        """Reject a change of a table's rules.

        A change still waiting, proposed or approved (its proposer may withdraw it this way)."""
        return _decide(RulesChangeStatus.REJECTED, body, table_id, change_id)
