"""/v1/reports/table-games-statement: a gaming day's table games statement (per table, shift and for
the floor), as JSON or CSV, and its issue into the audit log."""
from __future__ import annotations

import marshmallow as ma
from flask import Response
from flask.views import MethodView

from ...accounting.commands import IssueStatement
from ...accounting.statement import issue_statement, table_games_statement
from ...reports.table_games import csv_lines
from ...roles import KEY_ROLES
from ...web.access import Task, roles_for
from ...web.accounting import accounting_policy, day_asked
from ...web.schemas.accounting import IssueStatementSchema, StatementQuerySchema
from ..auth import access, principal, require
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.accounting import StatementSchema
from ..transactions import command, request_uow

blp = Blueprint("table_games_statement", __name__, url_prefix="/v1/reports",
                description="The table games statement: each table's win from its chips and drop box, beside the "
                            "game win of its rounds")


@blp.route("/table-games-statement")
class Statement(MethodView):
    @require(*roles_for(Task.READ_STATEMENT, KEY_ROLES))
    @blp.arguments(StatementQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, StatementSchema)
    @blp.alt_response(200, schema={"type": "string"}, content_type="text/csv", success=True,
                      description="format=csv: each table's day, then its shifts, then a FLOOR line; cents")
    @documented(blp, "getTableGamesStatement")
    def get(self, query):
        """The table games statement of a gaming day.

        The gaming day's statement (default: the current one), per table and per shift, and for
        the floor: opener, closer, fills, credits, drop (the box's final count), win = drop +
        credits - fills + (closer - opener), hold % = win / drop; beside them the handle and game
        win of the day's settled rounds, the buy-ins recorded, and the variance (win - game win),
        flagged beyond PONTOON_VARIANCE_THRESHOLD cents, or where it cannot be worked out at a table
        in play (`reasons` says why). A figure that cannot be known yet (no closer, no final count)
        is null. Voided slips count for nothing; a fill or credit counts once the cage issued it."""
        policy = accounting_policy()
        day = day_asked(query, policy)
        statement = table_games_statement(request_uow(), policy, day)
        if query["format"] == "csv":
            return Response("".join(csv_lines(statement)), mimetype="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="table-games-{day}.csv"'})
        return statement

    @command(access(*roles_for(Task.ISSUE_STATEMENT, KEY_ROLES)))
    @blp.arguments(IssueStatementSchema())
    @blp.response(201, StatementSchema)
    @documented(blp, "issueTableGamesStatement", 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body):
        """Issue the table games statement into the audit log.

        Issue the gaming day's statement (default: the current one) as it stands: kept whole,
        and each table's figures recorded on its chain, where `pontoon audit verify` holds them to
        the slips and counts chained before. A later issue stands in its place."""
        policy = accounting_policy()
        return issue_statement(IssueStatement(day_asked(body, policy), principal().actor), request_uow(), policy)
